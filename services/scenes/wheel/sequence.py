"""`render_wheel_sequence`: consecutive CCTV frames of the end of a spin, for the tracker.

One shot (camera, wheel, table, lighting) for the whole sequence; the rotor keeps turning.
Until frame `settle_at` the ball is still running: it spirals in from the track against the
rotor's turn, motion-blurred (no decision). From `settle_at` on it sits in one pocket and
turns with the rotor (decision). `settle_at=None`: it never settles. Nuisances that belong
to the scene (lighting, shadow, a lamp's reflection, colour balance, exposure) stay the same
in every frame; shake, sensor noise and compression change from frame to frame.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from services.scenes import nuisances as nz
from services.scenes.wheel.ballplace import POCKET, Ball, in_pocket
from services.scenes.wheel.camera import make_shot
from services.scenes.wheel.scene import WheelLabel, render_shot
from services.scenes.wheel.style import pick_style
from services.vision.wheel import reasons as R
from services.vision.wheel.layout import get_layout

PER_FRAME = ("motion_blur", "noise", "jpeg")  # change from frame to frame
EXPOSURE = 0.2                                 # the shutter is open this fraction of a frame


def render_wheel_sequence(rng: np.random.Generator, variant: str = "european", *,
                          n_frames: int = 8, settle_at: int | None = 4, style: str | None = None,
                          nuisances: Sequence[str] = ()) -> list[tuple[np.ndarray, WheelLabel]]:
    """`n_frames` (image, label) pairs; the ball settles at frame `settle_at` (or never)."""
    if n_frames < 1:
        raise ValueError("n_frames: must be >= 1")
    if settle_at is not None and not 0 <= settle_at < n_frames:
        raise ValueError(f"settle_at: must be within 0..{n_frames - 1} or None")
    layout = get_layout(variant)
    names = tuple(nz.check(nuisances))
    wheel = pick_style(rng, style)
    shot = make_shot(rng, layout.variant, wheel, names)
    scene_seed, frame_seed = int(rng.integers(2 ** 31)), int(rng.integers(2 ** 31))
    spin = 1 if rng.random() < 0.5 else -1      # the rotor alternates direction (domain §5.5)
    omega = spin * rng.uniform(3.0, 6.0)         # degrees per frame near the end of a spin
    start = float(rng.uniform(0, 360))
    rest, pocket = in_pocket(rng, wheel, layout, 0.0)   # where it will sit, rotor frame
    lap = -spin * rng.uniform(18.0, 30.0)        # the ball runs against the rotor (§5.5)
    end = settle_at if settle_at is not None else n_frames + 3
    out = []
    for t in range(n_frames):
        angle = start + omega * t
        settled = t >= end
        ball = Ball(rest.r, (angle + rest.theta) % 360, True) if settled else \
            _running(rng, rest, angle, end - t, lap, wheel.bands.track_out)

        def photometric(img: np.ndarray, t: int = t) -> np.ndarray:
            img = nz.apply(img, np.random.default_rng(scene_seed),
                           [n for n in names if n not in PER_FRAME])
            return nz.apply(img, np.random.default_rng([frame_seed, t]),
                            [n for n in names if n in PER_FRAME])

        out.append(render_shot(shot, POCKET if settled else R.BALL_MOVING, angle,
                               abs(omega) * EXPOSURE, ball, pocket if settled else None, rng,
                               photometric))
    return out


def _running(rng: np.random.Generator, rest: Ball, rotor_angle: float, frames_left: int,
             lap: float, track_out: float) -> Ball:
    """The ball `frames_left` frames before it drops into its pocket: further out and
    further round the closer it still is to the start of its run; blurred by its speed."""
    r = min(track_out - 0.08, rest.r + 0.14 * frames_left)
    theta = rotor_angle + rest.theta + lap * frames_left
    travel = abs(lap) * np.pi / 180 * r * EXPOSURE * 2.5     # rotor radii while exposed
    streak = float(np.clip(travel / (2 * 0.036), 2.5, 5.0))
    return Ball(r, theta % 360, False, streak=streak, heading=float(rng.uniform(-15, 15)),
                height=float(rng.uniform(0.5, 2.5)))

"""`render_wheel_scene`: one labelled overhead CCTV frame of a roulette wheel.

The label says what a careful person would read: the pocket when the ball clearly sits in
one, otherwise no decision and why (ball on the track, a deflector or a fret, bouncing, or
hidden by glare or a hand). `case="no_wheel"` renders the table without a wheel.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from services.scenes import nuisances as nz
from services.scenes.wheel import compose
from services.scenes.wheel.ballplace import POCKET, Ball, place
from services.scenes.wheel.camera import DIST_MIN, PX1, ROTOR_PX, TILT_MAX, Shot, make_shot
from services.scenes.wheel.style import WheelStyle, pick_style
from services.vision.wheel import reasons as R
from services.vision.wheel.layout import get_layout

CASES: tuple[str, ...] = (POCKET,) + R.SCENE_CASES + (R.NO_WHEEL,)
EFFECTS = {R.GLARE: "glare", R.OCCLUDED: "hand"}


@dataclass(frozen=True)
class WheelLabel:
    """Ground truth of a rendered frame (what a careful reader should say about it)."""
    variant: str
    case: str                       # "pocket" or the no-decision reason the scene was built for
    pocket: str | None              # the winning pocket; None when no decision is right
    no_decision: bool
    reason: str | None
    style: str | None
    rotor_angle: float              # canvas angle of the zero pocket's centre, degrees
    ball_xy: tuple[float, float] | None    # ball centre in the frame, pixels
    centre_xy: tuple[float, float] | None  # wheel centre in the frame, pixels
    nuisances: tuple[str, ...]
    # wheel plane (rotor radii, origin at the centre, x toward canvas angle 0) -> frame
    # pixels; the ground truth a calibration or a located wheel can be checked against
    plane_to_image: tuple[tuple[float, ...], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["nuisances"] = list(self.nuisances)
        return d


def choose_case(rng: np.random.Generator, style: WheelStyle, pocket_rate: float = 0.5) -> str:
    """Half the frames settled in a pocket, the rest spread over the no-decision cases."""
    if rng.random() < pocket_rate:
        return POCKET
    pool = [c for c in R.SCENE_CASES if c != R.BALL_ON_DEFLECTOR or style.deflectors]
    return pool[int(rng.integers(len(pool)))]


def _check_case(case: str, style: WheelStyle) -> None:
    if case not in CASES:
        raise ValueError(f"case: unknown scene case {case!r}; known: {', '.join(CASES)}")
    if case == R.BALL_ON_DEFLECTOR and not style.deflectors:
        raise ValueError(f"case: style {style.name!r} has no deflectors")


def rotor_blur(rng: np.random.Generator, case: str) -> float:
    """Degrees the rotor turns while the shutter is open: slow once the ball has settled."""
    if case == R.BALL_MOVING:
        return float(rng.uniform(0, 6))
    return float(rng.uniform(0, 1.2)) if rng.random() < 0.5 else 0.0


def label_for(shot: Shot, case: str, pocket: str | None, rotor_angle: float,
              ball_xy: np.ndarray | None) -> WheelLabel:
    centre = None
    if shot.style is not None:
        c = shot.to_image(np.array([[shot.size1 / 2.0] * 2]))[0]
        centre = (float(c[0]), float(c[1]))
    reason = None if case == POCKET else case
    return WheelLabel(shot.variant, case, pocket, reason is not None, reason,
                      shot.style.name if shot.style else None, float(rotor_angle % 360),
                      None if ball_xy is None else (float(ball_xy[0]), float(ball_xy[1])),
                      centre, shot.nuisances, _plane_to_image(shot))


def _plane_to_image(shot: Shot) -> tuple[tuple[float, ...], ...] | None:
    if shot.style is None:
        return None
    c1 = shot.size1 / 2.0
    plane_to_1x = np.array([[PX1, 0, c1], [0, PX1, c1], [0, 0, 1.0]])
    h = shot.h_nuisance @ shot.h_cam @ plane_to_1x
    h = h / h[2, 2]
    return tuple(tuple(float(v) for v in row) for row in h)


def render_shot(shot: Shot, case: str, rotor_angle: float, blur: float, ball: Ball | None,
                pocket: str | None, rng: np.random.Generator,
                photometric: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, WheelLabel]:
    """One frame of a shot; `photometric` applies the camera's photometric nuisances."""
    img, ball_xy = compose.frame(shot, rotor_angle, blur, ball, EFFECTS.get(case), rng)
    return photometric(img), label_for(shot, case, pocket, rotor_angle, ball_xy)


def render_wheel_scene(rng: np.random.Generator, variant: str = "european", *,
                       case: str | None = None, style: str | None = None,
                       nuisances: Sequence[str] = (), pocket_rate: float = 0.5,
                       tilt_max: float = TILT_MAX, dist_min: float = DIST_MIN,
                       rotor_px: tuple[float, float] = ROTOR_PX
                       ) -> tuple[np.ndarray, WheelLabel]:
    """A 640x480 BGR frame and its label, fully determined by the generator's state.

    case: "pocket", one of reasons.SCENE_CASES, "no_wheel", or None (random: `pocket_rate`
    of the frames settled, the rest spread evenly over the no-decision cases).
    style: a name in style.STYLES or style.EXTRA_STYLES, or None (random among STYLES).
    nuisances: names from the shared pipeline (services/scenes/nuisances.py), geometric
    ones included. tilt_max: the camera's largest tilt off the vertical, degrees;
    dist_min: its nearest distance, rotor radii (the labelled sets keep the defaults; a
    steeper or nearer camera widens the generator for tuning); rotor_px: the range of the
    rotor's radius in the image, pixels (default 118-142; smaller rotors for tuning).
    """
    layout = get_layout(variant)
    names = tuple(nz.check(nuisances))
    wheel_style = pick_style(rng, style, with_deflectors=case == R.BALL_ON_DEFLECTOR)
    case = choose_case(rng, wheel_style, pocket_rate) if case is None else case
    _check_case(case, wheel_style)
    def photometric(img: np.ndarray) -> np.ndarray:
        return nz.apply(img, rng, names)

    if case == R.NO_WHEEL:
        shot = make_shot(rng, layout.variant, None, names, tilt_max, dist_min, rotor_px)
        return render_shot(shot, case, 0.0, 0.0, None, None, rng, photometric)
    shot = make_shot(rng, layout.variant, wheel_style, names, tilt_max, dist_min,
                     rotor_px)
    angle = float(rng.uniform(0, 360))
    ball, pocket = place(rng, case, wheel_style, layout, angle)
    return render_shot(shot, case, angle, rotor_blur(rng, case), ball, pocket, rng, photometric)

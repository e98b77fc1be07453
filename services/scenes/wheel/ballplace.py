"""Where the ball is for each kind of scene, with the pocket it counts for (if any).

Positions are polar in the drawing canvas (bowl frame): radius in rotor radii, angle in
degrees clockwise. "Clearly in a pocket" means the whole ball lies inside one pocket with a
margin from both frets; "on a fret" means its centre is within a tenth of a pocket of one.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from services.scenes.wheel.style import WheelStyle
from services.vision.wheel import reasons as R
from services.vision.wheel.layout import WheelLayout

POCKET = "pocket"
IN_POCKET_MAX_OFFSET = 0.2  # ball centre offset from the pocket centre, in pockets
ON_FRET_MAX_OFFSET = 0.1    # ball centre offset from the fret, in pockets


@dataclass(frozen=True)
class Ball:
    r: float              # distance from the wheel centre, rotor radii
    theta: float          # canvas angle, degrees
    on_rotor: bool        # resting in or on the rotor: turns (and blurs) with it
    streak: float = 0.0   # motion-blur length in ball diameters (0: still)
    heading: float = 0.0  # streak direction relative to the tangent, degrees
    height: float = 0.0   # height above the surface in ball radii (moves the shadow)


def _pocket_radius(rng: np.random.Generator, style: WheelStyle) -> float:
    b = style.bands
    return float(rng.uniform(b.pockets_in + b.ball + 0.015, b.numbers_in - b.ball - 0.015))


def in_pocket(rng: np.random.Generator, style: WheelStyle, layout: WheelLayout,
              rotor_angle: float, k: int | None = None) -> tuple[Ball, str]:
    k = int(rng.integers(layout.n)) if k is None else k
    f = rng.uniform(-IN_POCKET_MAX_OFFSET, IN_POCKET_MAX_OFFSET)
    theta = rotor_angle + (k + f) * layout.pitch
    return Ball(_pocket_radius(rng, style), theta % 360, True), layout.pockets[k]


def on_fret(rng, style, layout, rotor_angle) -> Ball:
    k = int(rng.integers(layout.n))
    f = rng.uniform(-ON_FRET_MAX_OFFSET, ON_FRET_MAX_OFFSET)
    return Ball(_pocket_radius(rng, style), (rotor_angle + (k + 0.5 + f) * layout.pitch) % 360,
                True)


def on_track(rng, style: WheelStyle) -> Ball:
    b = style.bands
    r = rng.uniform(b.track_in + b.ball + 0.01, b.track_out - b.ball - 0.01)
    return Ball(float(r), float(rng.uniform(0, 360)), False)


def on_deflector(rng, style: WheelStyle) -> Ball:
    """Resting against one of the deflectors (drawn at 22.5 + j * 360/n degrees)."""
    b = style.bands
    j = int(rng.integers(style.deflectors))
    psi = 22.5 + j * 360.0 / style.deflectors
    touch = 0.024 + b.ball + 0.004  # deflector half-width + ball radius + a hair
    if j % 2 == 0:  # along the radius: the ball lies beside it
        side = 1 if rng.random() < 0.5 else -1
        return Ball(b.deflector_r + rng.uniform(-0.04, 0.04),
                    psi + side * np.rad2deg(touch / b.deflector_r), False)
    # across the track: the ball rests on its upper side, where it rolled down onto it
    return Ball(b.deflector_r + touch, psi + rng.uniform(-1, 1) * np.rad2deg(0.05 / b.deflector_r),
                False)


def moving(rng, style: WheelStyle) -> Ball:
    """Bouncing over the rotor or still running on the track: blurred, shadow detached."""
    return Ball(float(rng.uniform(0.7, style.bands.track_out - 0.06)), float(rng.uniform(0, 360)),
                False, streak=float(rng.uniform(2.5, 5.0)), heading=float(rng.uniform(-30, 30)),
                height=float(rng.uniform(1.0, 4.0)))


def place(rng: np.random.Generator, case: str, style: WheelStyle, layout: WheelLayout,
          rotor_angle: float) -> tuple[Ball, str | None]:
    """The ball for a scene case and the pocket a reader should report (None: no decision)."""
    if case == POCKET:
        return in_pocket(rng, style, layout, rotor_angle)
    if case in (R.GLARE, R.OCCLUDED):  # settled, but hidden in the picture
        return in_pocket(rng, style, layout, rotor_angle)[0], None
    makers = {R.BALL_ON_FRET: lambda: on_fret(rng, style, layout, rotor_angle),
              R.BALL_ON_TRACK: lambda: on_track(rng, style),
              R.BALL_ON_DEFLECTOR: lambda: on_deflector(rng, style),
              R.BALL_MOVING: lambda: moving(rng, style)}
    if case not in makers:
        raise ValueError(f"case: unknown scene case {case!r}")
    return makers[case](), None

"""Wheel layouts as the camera sees them: the pocket order around the rotor and each pocket's
colour. The orders and the red numbers come from the rules engine (one source of truth:
services/rules/roulette/layout.py, domain.md §5.1); this module only adds what vision needs.

Convention: pockets are listed clockwise as seen from above (the camera's view), starting at
the single zero; pocket k's centre lies at `rotor_angle + k * pitch` degrees, angles measured
clockwise in image coordinates (y down), like cv2.ellipse.
"""
from __future__ import annotations

from dataclasses import dataclass

from services.rules.roulette.layout import RED, WHEELS

RED_C, BLACK_C, GREEN_C = "red", "black", "green"
# Names a camera configuration may use; French (seed 000 §4.1) and live European (seed 003
# Rul §1.2.1) wheels share the single-zero order, CL's double-zero wheel is seed 004 II §1.3.1.
ALIASES = {"european": "european", "french": "european", "single_zero": "european",
           "american": "american", "double_zero": "american"}


@dataclass(frozen=True)
class WheelLayout:
    variant: str
    pockets: tuple[str, ...]   # clockwise from "0"
    colours: tuple[str, ...]   # "red" | "black" | "green", parallel to pockets

    @property
    def n(self) -> int:
        return len(self.pockets)

    @property
    def pitch(self) -> float:
        """Angle of one pocket, degrees."""
        return 360.0 / self.n

    def index(self, pocket: str) -> int:
        return self.pockets.index(pocket)


def _colour(pocket: str) -> str:
    if pocket in ("0", "00"):
        return GREEN_C
    return RED_C if pocket in RED else BLACK_C


def _layout(variant: str) -> WheelLayout:
    order = WHEELS[variant].order
    return WheelLayout(variant, tuple(order), tuple(_colour(p) for p in order))


LAYOUTS: dict[str, WheelLayout] = {v: _layout(v) for v in ("european", "american")}


def get_layout(variant: str) -> WheelLayout:
    """The layout for a variant name (or alias); ValueError naming `variant` otherwise."""
    key = ALIASES.get(str(variant).strip().lower())
    if key is None:
        raise ValueError(f"variant: unknown wheel {variant!r}; known: {', '.join(ALIASES)}")
    return LAYOUTS[key]

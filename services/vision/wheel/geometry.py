"""Nominal wheel geometry, in units of the rotor radius (outer edge of the number ring).

Overhead, from the outside in: wooden bowl rim, ball track (pista), lower track with the
deflectors (rombos), the rotor (cilindro): number ring, pocket ring with frets, cone, turret.
The renderer jitters these per wheel; the reader measures the rotor radius and the number
ring in each frame and only uses these figures for the bands in between (they are ratios a
wheel maker keeps, not absolute sizes).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bands:
    bowl: float = 1.45        # outer edge of the wooden bowl
    track_out: float = 1.37   # inner edge of the rim = outer edge of the ball track
    track_in: float = 1.21    # ball track -> lower track (deflector zone)
    lower_in: float = 1.04    # lower track -> gap before the rotor
    rotor: float = 1.0        # outer edge of the number ring (the unit)
    numbers_in: float = 0.84  # number ring -> pocket ring
    pockets_in: float = 0.66  # pocket ring -> cone
    turret: float = 0.22      # turret (torreta) radius
    ball: float = 0.036       # ball radius (a 20 mm ball on a ~55 cm rotor)
    deflector_r: float = 1.125  # where the deflectors sit


NOMINAL = Bands()

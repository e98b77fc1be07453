"""The pip finder (services/vision/dice/pipfinder.py) on drawn dice: a light die on a darker
cloth stands out of the top-hat at its corners too, and a pip near a corner runs into them;
the finder still finds the pips inside such a spot (`_split`)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from services.vision.dice.pipfinder import find_pips


def four(angle: float, side: float) -> np.ndarray:
    """A green die showing 4 (white pips) on blue cloth, turned `angle` degrees."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = (115, 70, 20)
    c, t = np.array([100.0, 100.0]), np.radians(angle)
    u = np.array([np.cos(t), np.sin(t)])
    v = np.array([-u[1], u[0]])
    body = np.array([c - (u + v) * side / 2, c + (u - v) * side / 2, c + (u + v) * side / 2,
                     c + (v - u) * side / 2])
    cv2.fillPoly(image, [np.rint(body * 16).astype(np.int32)], (70, 150, 40), cv2.LINE_AA,
                 shift=4)
    for gx, gy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        p = np.rint((c + (gx * u + gy * v) * 0.29 * side) * 16).astype(int)
        cv2.circle(image, (int(p[0]), int(p[1])), int(0.08 * side * 16), (235, 235, 235), -1,
                   cv2.LINE_AA, shift=4)
    return image


@pytest.mark.parametrize("angle", [0, 30, 45])
@pytest.mark.parametrize("side", [36, 42, 50])
def test_the_four_pips_of_a_light_die_turned_any_way_are_found(angle, side):
    light = [p for p in find_pips(four(angle, side)) if not p.dark]
    assert len(light) == 4
    assert all(abs(p.r - 0.08 * side) < 1.5 for p in light)


def test_the_plain_cloth_has_no_pips():
    image = np.full((200, 200, 3), (115, 70, 20), np.uint8)
    assert find_pips(image) == []

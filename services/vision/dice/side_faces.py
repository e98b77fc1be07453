"""A leaning view looked at again without its side faces («caras laterales»). Under a tilted
camera a flat die's crop shows a side face beside its top, pips and all, and the classifier,
taught that a side face in view is a leaning die («dado montado / inclinado»), may say so.
Painted over with the felt's colour beyond BEYOND sides from the top face's centre towards
the die's base (-s, camera.side_vector's side vector), the crop shows the top face alone, as
a camera above would. It shows a leaning die's top alone too: what tells the two apart is
the frame (tilted._tilted: both dice's sides fit one camera), never this crop.
"""
from __future__ import annotations

import numpy as np

from services.vision.dice.candidates import CROP_SIDES, Candidate, colours_at, crop
from services.vision.stats import column_medians

BEYOND = 0.45   # die sides: a top face reaches 0.5 (along its sides) to 0.71 (its corners),
# foreshortened under a tilted camera
_A = np.linspace(0, 2 * np.pi, 24, endpoint=False)
_FELT_RING = 1.8 * np.stack([np.cos(_A), np.sin(_A)], 1)


def without_sides(image: np.ndarray, die: Candidate, s: np.ndarray) -> np.ndarray:
    """The classifier's crop of `die` (candidates.crop) with everything beyond BEYOND sides
    towards its base (-`s`) painted the colour of the felt round it."""
    h, w = image.shape[:2]
    reach = (CROP_SIDES / 2 + 0.1) * die.side
    x0, y0 = max(int(die.x - reach), 0), max(int(die.y - reach), 0)
    x1, y1 = min(int(die.x + reach) + 2, w), min(int(die.y + reach) + 2, h)
    region = image[y0:y1, x0:x1].copy()
    felt = column_medians(colours_at(image, [die], _FELT_RING)[0])
    yy, xx = np.mgrid[y0:y1, x0:x1]
    base = -s / max(float(np.linalg.norm(s)), 1e-9)
    towards = ((xx - die.x) * base[0] + (yy - die.y) * base[1]) / die.side
    region[towards > BEYOND] = np.clip(np.rint(felt), 0, 255).astype(np.uint8)
    return crop(region, die.x - x0, die.y - y0, die.side)

"""The spot finder on a made-up pocket strip: one candidate per bright region."""
from __future__ import annotations

import numpy as np

from services.vision.wheel.geometry import NOMINAL
from services.vision.wheel.strips import CELL, PER_POCKET, POCKET_ROWS, Strip, spots


def _strip_with_plateau_and_ball() -> Strip:
    """A bumpy plateau of ~40 ball areas (what a dark green zero among plain silver pockets
    leaves) brighter than a ball elsewhere on the ring."""
    rng = np.random.default_rng(5)
    n, rows = 37, len(POCKET_ROWS)
    cols = n * PER_POCKET
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    res = rng.normal(0, 1.0, (rows, cols)).astype(np.float32)
    plateau = (x >= 100) & (x < 260) & (y >= 4) & (y < rows - 4)
    res += plateau * (60 + 8 * np.sin(x / 1.6) * np.sin(y / 1.6)).astype(np.float32)
    sigma = NOMINAL.ball / CELL / 1.5
    res += 40 * np.exp(-((x - 450) ** 2 + (y - rows / 2) ** 2) / (2 * sigma ** 2))
    pos = (np.arange(cols) + 0.5) / PER_POCKET - 0.5
    return Strip(res + 100, res, res, POCKET_ROWS, pos, x, y)


def test_a_bumpy_plateau_takes_one_place_and_leaves_the_ball_one():
    found = spots(_strip_with_plateau_and_ball(), PER_POCKET, 37, max_spots=8)
    on_plateau = [s for s in found if 100 / PER_POCKET - 1 < s.position < 260 / PER_POCKET]
    assert len(on_plateau) == 1
    assert any(abs(s.position - (450 + 0.5) / PER_POCKET + 0.5) < 0.3 for s in found), \
        [round(s.position, 2) for s in found]

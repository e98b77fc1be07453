"""`cv2.resize(grey, (w, h), interpolation=cv2.INTER_AREA)` when shrinking by a factor that
is not a whole number (a 1280x720 frame to 213 x 120 for the coarse centre: 6.009 across),
to the bit, in about half its time.

OpenCV's general area path (ResizeArea_Invoker with computeResizeAreaTab's weights) runs one
scalar loop per source row: 2.5-3.2 ms on a 1280x720 grey frame, a fifth of the reader's
time there. The same arithmetic in float32, in the same order, on whole columns at once:
per row, each output column sums its source pixels times their weights (float32 products
of the uint8 pixel, added from the leftmost one, starting from zero); then each output row
sums those rows times theirs, likewise; rounded half to even, saturated to 0..255. The
weights are computeResizeAreaTab's: a partial first pixel (its covered fraction over the
cell's width), whole pixels (1 over it), a partial last one, differences under 1e-3 pixel
ignored. Equality with cv2.resize is pinned by tests/vision/wheel/test_same_values.py.
"""
from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np


def shrink_area(grey: np.ndarray, width: int, height: int) -> np.ndarray:
    """INTER_AREA shrink of a 2-D uint8 image to width x height (both not larger), when
    the factor is not whole on both sides (OpenCV then takes an integer path of its own)."""
    h, w = grey.shape
    cols, col_w = _passes(w, width)
    rows, row_w = _passes(h, height)
    # columns become rows (a gather of contiguous rows), the sums along them in float32
    t = cv2.transpose(grey)
    buf = t[cols[0]] * col_w[0][:, None]  # = 0 + first product, exactly
    for k in range(1, len(cols)):
        buf += t[cols[k]] * col_w[k][:, None]
    # buf: width x h; back to h x width, then along the source rows likewise
    back = cv2.transpose(buf)
    out = back[rows[0]] * row_w[0][:, None]
    for k in range(1, len(rows)):
        out += back[rows[k]] * row_w[k][:, None]
    np.rint(out, out=out)
    np.clip(out, 0, 255, out=out)
    return out.astype(np.uint8)


@lru_cache(maxsize=8)
def _passes(ssize: int, dsize: int) -> tuple[np.ndarray, np.ndarray]:
    """computeResizeAreaTab's (source index, weight) pairs as passes: pass k holds each
    output's k-th contribution, in source order (index 0 and weight 0 where an output has
    fewer: adding 0 changes no sum). Read only."""
    scale = ssize / dsize
    per: list[list[tuple[int, np.float32]]] = []
    for dx in range(dsize):
        fsx1 = dx * scale
        fsx2 = fsx1 + scale
        cell = min(scale, ssize - fsx1)
        sx1, sx2 = math.ceil(fsx1), math.floor(fsx2)
        sx2 = min(sx2, ssize - 1)
        sx1 = min(sx1, sx2)
        mine = []
        if sx1 - fsx1 > 1e-3:
            mine.append((sx1 - 1, np.float32((sx1 - fsx1) / cell)))
        mine += [(sx, np.float32(1.0 / cell)) for sx in range(sx1, sx2)]
        if fsx2 - sx2 > 1e-3:
            mine.append((sx2, np.float32(min(min(fsx2 - sx2, 1.0), cell) / cell)))
        per.append(mine)
    n = max(len(p) for p in per)
    idx = np.zeros((n, dsize), np.intp)
    weight = np.zeros((n, dsize), np.float32)
    for d, mine in enumerate(per):
        for k, (s, a) in enumerate(mine):
            idx[k, d], weight[k, d] = s, a
    idx.flags.writeable = False
    weight.flags.writeable = False
    return idx, weight

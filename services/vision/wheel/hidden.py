"""What can hide the ball from the camera, seen in the wheel's strips (strips.py).

A croupier's hand or sleeve reaching over the wheel crosses the bowl strip - the tracks,
between the rotor and the rim - from edge to edge: a band of columns, a few degrees wide,
where most rows are not the bowl. A shadow or a lamp's soft reflection can do that too, but
its sides are soft; an arm's are sharp in every row. A lamp reflected by the glossy rotor
right over the ball is a spot in the pocket ring much bigger than the ball, round and very
bright.
"""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.stats import median
from services.vision.wheel.strips import PER_POCKET, Spot, Strip, spots

ARM_WIDTH_DEG = 4.0          # a forearm over the track is wider than this
ARM_EDGE_SHARPNESS = 0.2     # its sides change by this fraction of its contrast per cell
GLARE_AREA_MIN = 1.8         # a reflection: bigger than the ball (in ball areas) ...
GLARE_PEAK_MIN = 110.0       # ... this many grey levels above the expected pocket ring ...
GLARE_ELONGATION_MAX = 2.5   # ... and round


def glare_in_ring(strip: Strip, n: int) -> bool:
    """The pocket strip's strongest large spot is a lamp's reflection."""
    # only the coarse measures are judged here: no spot needs the finer ones
    big = [s for s in spots(strip, PER_POCKET, n, fine=_never) if s.area >= GLARE_AREA_MIN]
    return bool(big) and big[0].peak >= GLARE_PEAK_MIN and \
        big[0].elongation <= GLARE_ELONGATION_MAX


def _never(_: Spot) -> bool:
    return False


def arm_across(bowl: Strip) -> bool:
    """A hand or sleeve reaching over the wheel crosses the bowl strip from edge to edge:
    a band of columns, a few degrees wide, where most rows are not the bowl, and whose
    sides are sharp in every row (a soft-edged shadow or lamp reflection has none)."""
    res = cv2.GaussianBlur(bowl.residual, (0, 0), 1.0)
    noise = bowl.noise
    # over half of each column's rows (counted: the mean of the flags, without its float sum)
    crossed = 2 * np.count_nonzero(np.abs(res) > 4 * noise, axis=0) > res.shape[0]
    cols = len(crossed)
    for start, length in true_runs(crossed):
        if length < ARM_WIDTH_DEG * cols / 360.0:
            continue
        span = np.arange(start - 8, start + length + 8) % cols
        band = res[:, span]
        level = median(np.abs(band[:, 8:-8]))
        step = np.abs(band[:, 2:] - band[:, :-2]).max(axis=1) / 2  # steepest, per row
        if median(step) >= ARM_EDGE_SHARPNESS * level:
            return True
    return False


def true_runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, length) of each run of True around a circle."""
    n = len(flags)
    if flags.all():
        return [(0, n)]
    first = int(np.argmin(flags))  # a False: start there so no run crosses the seam
    walk = np.concatenate([np.roll(flags, -first), [False]]).astype(np.int8)
    edges = np.diff(walk)
    starts, ends = np.flatnonzero(edges == 1) + 1, np.flatnonzero(edges == -1) + 1
    return [((int(a) + first) % n, int(b - a)) for a, b in zip(starts, ends)]

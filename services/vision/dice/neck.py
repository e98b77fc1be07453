"""Is a die cut free from a blob joined to the rest only by glare or a shadow's edge?

The segmentation's second look (second_look.py) cuts a die free from a blob and keeps it only if
everything cut away is harmless: thin, the stick, or soft-edged. A die in glare can be joined
by a halo or a shadow's edge to something sharp-edged — a chip, the printed line, a card —
and that remainder, sharp and thick, refuses the cut (tuning seed 7202 frame 79, seed 7707
frame 613: `single_die`). A leaning die's side face or the rest of a chip whose centre was cut
out as a "die" are also sharp and thick, and touch the die part directly.

The *neck* tells them apart: the remainder within NECK dice of the die part. Where its outline
meets the felt (not where it meets the die, nor a thin line crossing it) a glare halo or a
shadow's edge is a slope; a side face, a chip's rim or a card's edge is a step. Its step per
pixel relative to its own contrast, as in blobs.py `sharpness`, must be under the soft
limit, measured on at least half a die's length of free outline (else it is not soft).
The limit is second_look.py's SOFT_REST (0.2): the necks accepted on the tuning sets of seeds
7101-7707 reach 0.18; at 0.25 the same frames are read, at 0.3 a leaning red die whose glare
lump joins its dark side face (neck 0.29, seed 7606 frame 147) was given values.
"""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.stats import median

NECK = 0.5          # dice: the remainder's part this near the die part is its neck
LINE_DISC = 0.25    # dice: an opening this wide drops thin lines (printed line) from the neck
MIN_FREE = 0.5      # dice of free outline needed to call the neck soft


def soft_neck(grad: np.ndarray, diff: np.ndarray, die_px: float, parent: np.ndarray,
              keep: np.ndarray, piece: np.ndarray, origin: tuple[int, int],
              soft: float) -> bool:
    """Is `piece` (a remainder mask beside the die mask `keep`, both the size of `parent` and
    placed at `origin` in the half-resolution `grad` and `diff` maps) joined to the die only
    by a soft-edged neck (step / contrast under `soft`)?"""
    dist = cv2.distanceTransform(cv2.bitwise_not(keep), cv2.DIST_L2, 3)
    neck = cv2.bitwise_and(piece, (dist <= NECK * die_px).astype(np.uint8) * 255)
    if not cv2.countNonZero(neck):
        return False
    cross = np.ones((3, 3), np.uint8)
    outline = cv2.subtract(neck, cv2.erode(neck, cross, borderType=cv2.BORDER_CONSTANT,
                                           borderValue=0))
    felt = cv2.dilate(cv2.bitwise_not(parent), cross)
    thick = cv2.morphologyEx(piece, cv2.MORPH_OPEN, _disc(LINE_DISC * die_px))
    free = (outline > 0) & (felt > 0) & (thick > 0) & (dist > 3)
    if free.sum() < MIN_FREE * die_px:
        return False
    x, y = origin
    h, w = parent.shape
    ys, xs = np.nonzero(free)
    step = median(grad[ys + y, xs + x])
    level = median(diff[y:y + h, x:x + w][neck > 0])
    return step / max(level, 1.0) < soft


def _disc(diameter: float) -> np.ndarray:
    d = max(3, int(round(diameter)) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))

"""Is a die-sized blob a leaning die («dado montado / inclinado»)? Pure OpenCV + numpy.

A die leaning 15-20 degrees can pass the reader's shape test as flat: its blob is at most
1.15 times longer than wide, or its darker side face falls under the segmentation threshold
and the blob is a die's size. Two pieces of evidence remain around the die, both read on a
patch two dice across, aligned with the blob, where each pixel is placed between the felt's
colour (0, the patch's rim) and the die's body (1, its middle):

- **side strip**: the side face (or the far end of the top face) lies *outside* the die-sized
  square centred on the blob: a strip just beyond one edge is die-coloured;
- **side shelf**: the side face lies *inside* the blob: along the blob's axis the colour
  climbs from the felt to a flat shelf a quarter of a die wide or more, then steps sharply up
  to the top face. A shadow's edge across a flat die makes a slope, not a step; a glare halo
  round a die does not end in felt a few pixels out.

Both are only read on dice whose body is far enough from the felt's colour
(LEAN_CONTRAST): on a low-contrast die (green on blue felt) shadows and felt texture reach
the body's colour. A low-contrast die gets the side strip on the *body share* instead (see
SHARE_STRIP_MIN), which a shadow does not reach.
"""
from __future__ import annotations

import numpy as np

from services.vision.dice.blobs import Blob
from services.vision.dice.patches import square_patch
from services.vision.stats import column_medians, median, quantile

# Patch: two dice across at 40 px per die.
_N, _SPAN = 80, 2.0
LEAN_CONTRAST = 150.0  # BGR distance body-felt below which neither check is read
# Side strip: a strip SIDE_STRIP die widths outside one edge (the middle 60 % of the edge)
# whose median is SIDE_STRIP_MIN of the way from felt to body. Tuning (cocked seeds 11, 22,
# 33, 44 x 800 frames; mixed seeds 123, 456 x 1500): flat dice reach at most 0.76 (seed 123
# frame 1493); the leaning dice that passed as flat 0.91 (seed 44 frame 329) and 1.0.
SIDE_STRIP = (0.1, 0.25)
SIDE_STRIP_MIN = 0.83
# Side shelf, on the profile along each axis of the patch (85th percentile across the middle
# 80 % of the die, so pips and a reflection streak do not pull it down):
SHELF_BODY = 0.8        # the top face starts here
SHELF_LOW = 0.4         # the shelf is at least this far from the felt ...
SHELF_MIN_WIDTH = 0.2   # ... and at least this wide (dice); a 15-degree lean shows 0.26
SHELF_FELT = 0.25       # ... and ends in felt within 3 px (a glare halo runs on)
SHELF_STEP = 0.35       # ... and rises this much within 4 px into the top face (a crease)
SHELF_FLAT = 0.12       # ... and is flat (range inside it): a side face is one plane
# Tuning (seed 7101 x 2000 frames: 3166 flat dice; cocked seed 6161 frame 126 and seed
# 7101 frame 1039, both given values before): the two leaning dice show shelves 0.25 and
# 0.28 dice wide with steps 0.42 and 0.50 and ranges 0.01 and 0.07; no flat die has a shelf
# that is bounded, sharp and flat (the closest: seed 7101 frame 1086, a shadow's edge across
# a yellow die: width 0.28, step 0.28). Seed 7606 frame 635, a white die under a shadow's
# edge (a slope 0.49-0.63 then a kink: range 0.14, step 0.36), was refused at a range of
# 0.15; the leaning dice's ranges are 0.01 and 0.07.


# Low-contrast dice (body under LEAN_CONTRAST from the felt) get the side strip on the body
# share instead (each pixel's colour as felt * a + body * b, b as a share of the top face's;
# a side face is the body in shade, a shadow the felt darkened), where body and felt colours
# are SHARE_ANGLE degrees apart or more. Tuning: the 4558 flat low-contrast dice of seeds
# 7101-7707 reach 0.51 (seed 7707 frame 1815, a green die on blue felt); cocked seed 8954
# frame 257, a white die in shadow on teal (contrast 135) whose side face fell under the
# threshold, read as values before: 0.75.
SHARE_ANGLE = 15.0
SHARE_STRIP_MIN = 0.65


def looks_leaning(image: np.ndarray, blob: Blob, die_mm: float, to_mm: np.ndarray) -> bool:
    """True when the die-sized blob shows a leaning die's side face around or inside it."""
    p, felt, body = patch_colours(image, blob, die_mm, to_mm)
    if np.linalg.norm(body - felt) < LEAN_CONTRAST:
        share = body_share(p, felt, body)
        return share is not None and side_strip(share) >= SHARE_STRIP_MIN
    t = (p - felt) @ (body - felt) / float((body - felt) @ (body - felt))
    return side_strip(t) >= SIDE_STRIP_MIN or side_shelf(t) >= SHELF_MIN_WIDTH


def body_share(p: np.ndarray, felt: np.ndarray, body: np.ndarray) -> np.ndarray | None:
    """Each pixel's body share b (colour = felt * a + body * b, least squares), as a share of
    the top face's (90th percentile of the patch's middle); None when the felt's and the
    body's colours are under SHARE_ANGLE degrees apart (glare-whitened felt, a white die)."""
    cos = float(felt @ body) / (float(np.linalg.norm(felt) * np.linalg.norm(body)) + 1e-6)
    if np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))) < SHARE_ANGLE:
        return None
    share = (p.reshape(-1, 3) @ np.linalg.pinv(np.stack([felt, body], 1))[1]).reshape(_N, _N)
    lo, hi = _die_span()
    top = quantile(share[lo + 4:hi - 4, lo + 4:hi - 4], 0.9)
    return share / top if top > 0 else None


def patch_colours(image: np.ndarray, blob: Blob, die_mm: float,
                  to_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The patch around the blob, the felt's colour (its rim) and the body's (its middle)."""
    p = square_patch(image, blob.centre_mm, blob.angle, _SPAN * die_mm, _N,
                     to_mm).astype(np.float32)
    lo, hi = _die_span()
    body = column_medians(p[lo + 4:hi - 4, lo + 4:hi - 4].reshape(-1, 3))
    felt = column_medians(np.concatenate([p[:4].reshape(-1, 3), p[-4:].reshape(-1, 3),
                                     p[:, :4].reshape(-1, 3), p[:, -4:].reshape(-1, 3)]))
    return p, felt, body


def side_strip(t: np.ndarray) -> float:
    """Median of the most die-coloured strip just outside the die-sized square."""
    lo, hi = _die_span()
    d = _N / _SPAN
    a, b = lo + int(0.2 * d), hi - int(0.2 * d)
    i0, i1 = (int(round(o * d)) for o in SIDE_STRIP)
    strips = (t[lo - i1:lo - i0, a:b], t[hi + i0:hi + i1, a:b],
              t[a:b, lo - i1:lo - i0], t[a:b, hi + i0:hi + i1])
    return max(median(s) for s in strips)


def side_shelf(t: np.ndarray) -> float:
    """Width (dice) of the widest side shelf at either end of either axis; 0 if none."""
    lo, hi = _die_span()
    d = _N / _SPAN
    a, b = lo + int(0.1 * d), hi - int(0.1 * d)
    k = int(round(0.85 * (b - a - 1)))  # the 85th percentile, by partition (10x quantile)
    rows = np.partition(t[:, a:b], k, axis=1)[:, k]
    cols = np.partition(t[a:b, :], k, axis=0)[k]
    return max(_shelf(q, d) for q in (rows, rows[::-1], cols, cols[::-1]))


def _shelf(q: np.ndarray, d: float) -> float:
    """Width (dice) of a shelf before the top face, walking from the start of the profile."""
    top = np.flatnonzero(q >= SHELF_BODY)
    if not top.size:
        return 0.0
    edge = i = int(top[0])
    while i > 0 and q[i - 1] >= SHELF_LOW:
        i -= 1
    if i < 3 or edge - i < 2:
        return 0.0
    ends_in_felt = q[i - 3:i].min() < SHELF_FELT
    sharp = q[min(edge + 1, len(q) - 1)] - q[max(edge - 3, i)] >= SHELF_STEP
    inner = q[i + 1:edge - 1] if edge - i > 3 else q[i:edge]
    flat = inner.max() - inner.min() <= SHELF_FLAT
    return (edge - i) / d if ends_in_felt and sharp and flat else 0.0


def _die_span() -> tuple[int, int]:
    """First and last patch pixel of the die-sized square in the middle of the patch."""
    d = _N / _SPAN
    return int(_N / 2 - d / 2), int(_N / 2 + d / 2)

"""Is a leaning-shaped blob a flat die with a fringe of its own shadow? Pure OpenCV + numpy.

A flat die's soft shadow, inside a darker shadow or at a lamp's glare edge, can reach the
segmentation threshold and make its blob 1.2-1.5 dice long: shaped like a leaning die
(«dado montado»). The two differ in colour beside the top face. A leaning die's side face
is the die's own body in shade (a shade of the body's colour, about 0.7 as bright); a
shadow is the felt's colour darkened. On a patch two dice across, aligned with the blob,
each pixel is written as felt * a + body * b (least squares on its BGR colour): b is the
*body share*, 1 on the top face, ~0.5-0.75 on a side face, ~0 on shadowed felt.

The blob is a flat die when the body share rises to the top face in a run a flat die long
along both axes (FRINGE_SIZE; the top face of a die leaning over ~30 degrees is shorter),
and the body share beside every end of that run stays under FRINGE_MAX (no side face). Only
read when the felt's and the body's colours differ by leaning.SHARE_ANGLE or more (a white die
on glare-whitened felt does not: glare adds the body's colour to the felt).

Tuning (seeds 7101-7707 x 2000 frames; cocked seeds 8805-8812 x 500): the five flat dice
refused as `cocked` before show fringes 0.14-0.28 (seed 7404 frame 1839, a red die at a
glare's edge: 0.28); of 2933 leaning blobs on the landing area, the 500 whose top face is a
flat die long show side faces >= 0.40 (cocked seed 8807 frame 94, a yellow die in shadow).
"""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from services.vision.dice.leaning import (LEAN_CONTRAST, _N, _SPAN, _die_span, body_share,
                                          patch_colours)
from services.vision.dice.segment import Blob

FRINGE_TOP = 0.6            # the top face: where the body share reaches this of its level
FRINGE_SIZE = (0.85, 1.12)  # the top face's run along each axis (dice)
FRINGE_REACH = 0.45         # the fringe is read this far beyond the run (dice), 2 px out
FRINGE_MAX = 0.3            # the highest body share (5 px mean) a fringe may show


def flat_in_fringe(image: np.ndarray, blob: Blob, die_mm: float,
                   to_mm: np.ndarray) -> Blob | None:
    """The flat die inside a leaning-shaped blob (its top face's square), or None. Read
    twice: on the blob's patch, then on the patch centred on the top face found there."""
    flat, d = blob, _N / _SPAN
    for _ in range(2):
        share = _share(image, flat, die_mm, to_mm)
        found = None if share is None else top_face(share)
        if found is None:
            return None
        (r0, r1), (c0, c1), fringe = found
        # Patch pixel (x, y) -> mm: the patch is a square of _SPAN dice turned with the blob.
        c = cv2.boxPoints((flat.centre_mm, (_SPAN * die_mm,) * 2, flat.angle))
        mm = c[0] + (c0 + c1) / 2 / _N * (c[1] - c[0]) + (r0 + r1) / 2 / _N * (c[3] - c[0])
        centre = (float(mm[0]), float(mm[1]))
        short, long_ = sorted(((r1 - r0) / d * die_mm, (c1 - c0) / d * die_mm))
        # The top face's square (fill as a die's rounded corners leave it).
        flat = dataclasses.replace(
            blob, centre_mm=centre, size_mm=(short, long_),
            box_mm=cv2.boxPoints((centre, (short, long_), blob.angle)),
            area_mm2=0.9 * short * long_, fill=0.9)
    if short < FRINGE_SIZE[0] * die_mm or long_ > FRINGE_SIZE[1] * die_mm or \
            fringe > FRINGE_MAX:
        return None
    return flat if flat.kind(die_mm) == "die" else None


def _share(image: np.ndarray, blob: Blob, die_mm: float,
           to_mm: np.ndarray) -> np.ndarray | None:
    """The body share around the blob (leaning.body_share); None under LEAN_CONTRAST."""
    p, felt, body = patch_colours(image, blob, die_mm, to_mm)
    if np.linalg.norm(body - felt) < LEAN_CONTRAST:
        return None
    return body_share(p, felt, body)


def top_face(share: np.ndarray) -> tuple[tuple[int, int], tuple[int, int], float] | None:
    """The top face's run along the rows and along the columns (patch px, end exclusive)
    and the highest fringe beside either end of either (share of the top face's level).
    Each profile is read across the middle of the other run, found on a first pass."""
    d = _N / _SPAN
    lo, hi = _die_span()
    across_rows = across_cols = (lo + int(0.1 * d), hi - int(0.1 * d))
    for _ in range(2):
        r = _run(_profile(share, across_cols), d)
        c = _run(_profile(share.T, across_rows), d)
        if r is None or c is None:
            return None
        across_rows, across_cols = _middle(r[0]), _middle(c[0])
    return r[0], c[0], max(r[1], c[1])


def _profile(share: np.ndarray, across: tuple[int, int]) -> np.ndarray:
    """85th percentile of each row over the columns `across` (pips do not pull it down)."""
    a, b = across
    k = int(round(0.85 * (b - a - 1)))
    return np.partition(share[:, a:b], k, axis=1)[:, k]


def _run(q: np.ndarray, d: float) -> tuple[tuple[int, int], float] | None:
    """The run of the top face through the middle of a profile, and the highest fringe
    (5 px mean) beside either end of it."""
    top = float(np.percentile(q, 90))
    if top <= 0:
        return None
    q = q / top
    above = q >= FRINGE_TOP
    w = int(0.3 * d)
    mid = np.flatnonzero(above[_N // 2 - w:_N // 2 + w])
    if not mid.size:
        return None
    i = j = _N // 2 - w + int(mid[np.argmin(np.abs(mid - w))])
    while i > 0 and above[i - 1]:
        i -= 1
    while j < _N - 1 and above[j + 1]:
        j += 1
    reach = int(round(FRINGE_REACH * d))
    before, after = (max(i - 2 - reach, 2), i - 2), (j + 3, min(j + 3 + reach, _N - 2))
    if min(before[1] - before[0], after[1] - after[0]) < 0.2 * d:
        return (i, j + 1), np.inf  # no room to read a side face beside it
    mean = np.convolve(q, np.ones(5) / 5, mode="same")
    fringe = max(mean[slice(*before)].max(), mean[slice(*after)].max())
    return (i, j + 1), float(fringe)


def _middle(run: tuple[int, int]) -> tuple[int, int]:
    i, j = run
    return i + (j - i) // 10, j - (j - i) // 10

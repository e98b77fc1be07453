"""Read two dice from an overhead table frame (pure OpenCV + numpy, no I/O).

Pipeline, each step measured in table millimetres through the calibration's homography so a
tilted or zoomed camera reads the same:

1. segment: pixels whose Lab colour differs from the local felt colour (a coarse median of the
   frame, which follows lighting gradients and shadows) form blobs;
2. classify blobs by size and shape: a die is a die-sized square; a die-wide rectangle that is
   too long is a leaning die («cocked»); a compact blob of 1.3-2.6 dice is dice on dice
   («se superponen»); chips (round, larger), cards (far larger), the stick (thin), dots on
   the felt and glare (small or round) are none of these and are ignored;
3. read each die: warp its face to a square patch and score the nine pip cells of the 3x3 grid
   by colour contrast to the die body; the face is the valid pip pattern with the widest margin
   between its pips and its empty cells, so a reflection or a smudge that does not make a valid
   pattern can only lower the margin, never add a pip;
4. decide: exactly two flat dice in the landing area, both read with margin -> values; anything
   else -> no decision with the reason (seed 000 §3.1.5: the «tirada nula» cases are for people).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from services.vision.dice.blobs import Blob
from services.vision.dice.calibration import DiceCalibration
from services.vision.dice.candidates import Frame
from services.vision.dice.faces import CELLS, PATTERNS, PIP_OFFSET, PIP_RADIUS
from services.vision.dice.leaning import looks_leaning
from services.vision.dice.learned import read_learned
from services.vision.dice.outline import judge_area
from services.vision.dice.patches import square_patch
from services.vision.dice.segment import find_blobs
from services.vision.reading import Reading, no_decision

PATCH = 48            # die face patch size (pixels)
MIN_MARGIN = 0.3      # pip/empty margin, as a fraction of pip contrast, needed to decide
MIN_PIP_CONTRAST = 40.0  # BGR distance between pip and body colour, summed over channels
# Dark pips (white, yellow dice): a lamp's reflection, a streak about as wide as a pip, can
# hide a pip's mean contrast (a 3 read as a 2 with margin 0.56, tuning seed 123 frame 1322),
# but not its darkest pixels beside the streak. An "empty" cell whose darkest pixel is this
# share of a pip's depth below the body around it hides a pip: the face is unreadable.
# Measured on 2463 correctly read dark-pip faces (tuning seeds 123, 456): <= 0.27; the hidden
# pip: 0.83.
DARK_PIP_MAX_EMPTY = 0.5
# The same depth, less DARK_PIP_OFFSET, also scores a dark pip's cell: a pip whose mean
# contrast a streak has washed out still counts by its dark rim beside the streak, and an
# empty cell stays below 0.2. Measured on 7121 dark-pip faces read with margin (tuning seeds
# 7101, 7202, 7606, 7707 x 2000 frames): empty cells <= 0.33 (99.9 % <= 0.19), pips >= 0.49
# (median 1.08). A yellow 2 with a streak over a pip was read at margin 0.25 (seed 7202 frame
# 1587), a yellow 3 whose centre pip was half hidden read as a 2 and refused (7606 frame 445,
# and seed 123 frame 1322): now 0.39, 0.65 and 0.68.
DARK_PIP_OFFSET = 0.15
# A cluster-shaped blob this far (dice, centre to centre) from both of two flat dice is not dice
# on dice: one die on the other is within about 1.5 dice of it.
STRAY_GAP = 2.0


def read_dice(image: np.ndarray, calibration: DiceCalibration | None = None) -> Reading:
    """Read the two up faces; or no decision with a reason (see reading.DICE_REASONS).

    Without a calibration nothing is assumed about the camera (learned.py): dice are found by
    their pips at any size, each judged by the face classifier, and the landing area is the
    frame's own printed outline when one is seen (outline.py), else the whole frame; a frame
    where no die can be seen is `no_dice`."""
    image = _as_bgr(image)
    if calibration is None:
        frame = Frame(image)
        return judge_area(image, read_learned(image, frame), frame.grey)
    to_mm = _to_mm(calibration)
    blobs = find_blobs(image, calibration, to_mm)
    die_mm = calibration.die_mm
    kinds = [(b, b.kind(die_mm)) for b in blobs]
    # Leaning or stacked dice only matter on the landing area; pieces of chips and cards
    # around it can take those shapes (a die off the area is reported as such anyway).
    near = [(b, k) for b, k in kinds if k == "die" or
            (k != "other" and _inside(b, calibration))]
    detail: dict[str, Any] = {"blobs": [(k, [round(v, 1) for v in b.centre_mm])
                                        for b, k in near]}
    dice = [b for b, k in near if k == "die"]
    if any(k == "cluster" and not _stray_cluster(b, dice, die_mm) for b, k in near):
        return no_decision("dice", "overlap", **detail)
    if any(k == "cocked" for _, k in near):
        return no_decision("dice", "cocked", **detail)
    if any(looks_leaning(image, b, die_mm, to_mm) for b in dice):
        return no_decision("dice", "cocked", **detail)
    outside = [b for b in dice if not _inside(b, calibration)]
    if outside:
        return no_decision("dice", "out_of_area", **detail)
    if len(dice) != 2:
        reason = {0: "no_dice", 1: "single_die"}.get(len(dice), "too_many_dice")
        return no_decision("dice", reason, **detail)
    faces = [read_face(image, b, die_mm, to_mm) for b in dice]
    detail["faces"] = [(v, round(m, 3)) for v, m in faces]
    confidence = min(m for _, m in faces)
    if any(v is None for v, _ in faces) or confidence < MIN_MARGIN:
        return no_decision("dice", "unreadable", confidence=max(confidence, 0.0), **detail)
    values = sorted(int(v) for v, _ in faces)  # type: ignore[arg-type]
    return Reading("dice", values=(values[0], values[1]), confidence=min(1.0, confidence),
                   detail=detail)


def _stray_cluster(blob: Blob, dice: list[Blob], die_mm: float) -> bool:
    """A cluster-shaped blob that cannot be the dice on each other: both dice lie flat and
    apart elsewhere. Its shape comes from something else (a chip's piece with its shadow).
    Parts cut apart because they touch (`touching`) are never stray: they may be a die."""
    if blob.touching or len(dice) != 2:
        return False
    return all(np.hypot(*np.subtract(blob.centre_mm, d.centre_mm)) > STRAY_GAP * die_mm
               for d in dice)


def _inside(blob: Blob, calibration: DiceCalibration, margin: float = 0.0) -> bool:
    """Is the blob's centre on the landing area (grown by `margin` mm)?"""
    (x, y), (w, h) = blob.centre_mm, calibration.landing_area_mm
    return -margin <= x <= w + margin and -margin <= y <= h + margin


# ---------------------------------------------------------------- pips

def read_face(image: np.ndarray, blob: Blob, die_mm: float,
              to_mm: np.ndarray) -> tuple[int | None, float]:
    """(value, margin) of a flat die; value None if its face shows no valid pip pattern.

    The face is warped from a die-sized square centred on the blob (the blob itself is a little
    larger: bevel, shadow fringe), so pips land near their grid cells; `score_face` absorbs
    the remaining shift. The square is never slid to one end of a longer blob: a die leaning
    15 degrees makes a blob only 1.15 times longer than wide (tuning seed 6161, cocked frame
    126), and its top face read at that end is a confident value for a no-decision scene.

    A face read without margin gets a second look turned to the die's own edges (see
    `_edge_turn`), kept only if it reads with a wider margin and does not contradict a value
    the first look read with a positive margin.
    """
    value, margin = _read_at(image, blob.centre_mm, blob.angle, die_mm, to_mm)
    if margin >= MIN_MARGIN:
        return value, margin
    turn = _edge_turn(image, blob, die_mm, to_mm)
    if abs(turn) < MIN_TURN:
        return value, margin
    value2, margin2 = _read_at(image, blob.centre_mm, blob.angle + turn, die_mm, to_mm)
    if margin2 <= margin or (margin > 0 and value2 != value):
        return value, margin
    return value2, margin2


def _read_at(image: np.ndarray, centre: tuple[float, float], angle: float, die_mm: float,
             to_mm: np.ndarray) -> tuple[int | None, float]:
    return score_face(square_patch(image, centre, angle, die_mm, PATCH, to_mm))


def _edge_turn(image: np.ndarray, blob: Blob, die_mm: float, to_mm: np.ndarray) -> float:
    """How far (degrees) the die's edges are turned from the blob's angle, modulo 90: the
    gradient directions around the die, taken four times (a square's four edges agree, a round
    pip's directions cancel), weighted by gradient strength, over 1.5 dice around the blob.

    The blob's own angle can be 14 degrees off when its outline (shadow fringe, glare) is
    nearly round: tuning seed 7101 frame 506, a green 2 read as a 6 at margin -0.15 (blob angle
    -44 degrees), now a 2 at 0.93; seed 7606 frame 1561, a white 5 refused, now 0.86. Only a
    second look: the turn is noisy on a face read well (median 1 degree, 99 % under 7, the
    3162 faces of seed 7101) and, used on every face of seeds 7101, 7202, 7606, 7707 (12738),
    would have read one wrong value with margin (7202 frame 1047, a red 4 with a reflection in
    its middle read as a 5 at 0.33; its first look reads the 4 with margin).
    """
    n = int(EDGE_SPAN * PATCH)
    p = square_patch(image, blob.centre_mm, blob.angle, EDGE_SPAN * die_mm, n,
                     to_mm).astype(np.float32)
    z = cv2.Sobel(p, cv2.CV_32F, 1, 0) + 1j * cv2.Sobel(p, cv2.CV_32F, 0, 1)
    mag = np.abs(z)
    s = (mag * (z / np.maximum(mag, 1e-6)) ** 4).sum()
    return float(np.degrees(np.angle(s)) / 4)


def score_face(patch: np.ndarray) -> tuple[int | None, float]:
    """Score the 9 grid cells of a face patch and pick the best valid pip pattern.

    A cell's contrast is a colour vector: mean over the pip disc minus mean over the ring
    around it, so glare and gradients across the face cancel. The grid is first shifted (up to
    SHIFT px) to where the cells hold the most contrast. Real pips all share one colour, so a
    cell scores by how far its contrast points the same way as the pips' and is penalised for
    pointing elsewhere: a lamp's reflection (white added to the body colour) scores low.
    """
    img = patch.astype(np.float32)
    dense = cv2.filter2D(img, -1, _pip_kernel())  # disc mean - ring mean, H x W x 3
    mag = np.abs(dense).sum(2)
    ys, xs = _cell_pixels()
    # Every shift's 9 cells at once (the first best shift, as max() over them in turn took).
    dys, dxs = _SHIFTS
    best = int(np.argmax(mag[ys + dys[:, None], xs + dxs[:, None]].sum(1)))
    ys, xs = ys + dys[best], xs + dxs[best]
    vec = dense[ys, xs]                                           # 9 x 3
    strongest = vec[np.argmax(np.abs(vec).sum(1))]
    norm2 = float(strongest @ strongest)
    if np.sqrt(norm2) < MIN_PIP_CONTRAST:
        return None, 0.0
    pip = vec[(vec @ strongest) / norm2 > 0.5].mean(0)           # the pips' common contrast
    cells = _cell_scores(dense, ys, xs, pip)
    pip_grey = float(pip @ _GREY)  # the pips' contrast in grey levels
    # Dark pips: each cell's darkest spot, in pip depths (see DARK_PIP_MAX_EMPTY).
    depth = _dark_depth(patch, ys, xs) / -pip_grey if pip_grey < 0 else None
    if depth is not None:
        cells = np.maximum(cells, depth - DARK_PIP_OFFSET)
    # Every pattern's margin at once (its weakest pip less its strongest empty cell); the
    # first best, as the loop over _ON with `>` took.
    margins = np.where(_ON_ROWS, cells, np.inf).min(1) - np.where(_ON_ROWS, -np.inf, cells).max(1)
    best = int(np.argmax(margins))
    best_value, best_margin, best_on = _ON_VALUES[best], margins[best], _ON_ROWS[best]
    if depth is not None and depth[~best_on].max(initial=0.0) > DARK_PIP_MAX_EMPTY:
        return best_value, 0.0  # a dark pip under a reflection
    return best_value, float(best_margin)


def _cell_scores(dense: np.ndarray, ys: np.ndarray, xs: np.ndarray,
                 pip: np.ndarray) -> np.ndarray:
    """Each cell's contrast along the pips' colour less its contrast across it, in pips."""
    norm = float(np.linalg.norm(pip))
    # Each cell may sit one pixel off the grid (pips are hand-drilled, the warp is not exact):
    # the best of the 9 positions around it, all taken at once (9 positions x 9 cells x BGR).
    dys, dxs = _NUDGES
    v = dense[ys + dys[:, None], xs + dxs[:, None]]
    along = v @ pip / norm ** 2
    across = np.linalg.norm(v - along[..., None] * pip, axis=2) / norm
    return (along - across).max(0)


def _dark_depth(patch: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Each cell's deepest dark spot (grey levels): the ring's mean brightness minus the
    darkest (slightly smoothed) pixel of the disc, the cell one pixel either way."""
    disc_k, ring_k = _kernels()
    grey = cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    grey = grey.astype(np.float32)
    darkest = cv2.erode(grey, (disc_k > 0).astype(np.uint8))
    depth = cv2.dilate(cv2.filter2D(grey, -1, ring_k) - darkest, np.ones((3, 3), np.uint8))
    return depth[ys, xs]


_ON = {p: np.array([c in p for c in CELLS]) for p in PATTERNS}
_ON_ROWS = np.array(list(_ON.values()))            # patterns x cells, in _ON's order
_ON_VALUES = [PATTERNS[p] for p in _ON]
_GREY = np.array([0.114, 0.587, 0.299], np.float32)  # BGR weights of cv2.COLOR_BGR2GRAY
SHIFT = 2  # grid search range in patch pixels (about 0.8 mm); more reaches the die's edge
EDGE_SPAN = 1.5  # second look: the die's edges are sought over 1.5 dice around the blob
MIN_TURN = 2.0   # degrees; a smaller turn re-reads the same patch
_SHIFTS = tuple(np.array(d) for d in zip(*[(dy, dx) for dy in range(-SHIFT, SHIFT + 1)
                                           for dx in range(-SHIFT, SHIFT + 1)]))
_NUDGES = tuple(np.array(d) for d in zip(*[(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]))


@lru_cache(maxsize=1)
def _kernels() -> tuple[np.ndarray, np.ndarray]:
    """Normalised disc (the pip) and ring (the body around it) kernels at patch scale."""
    r = PIP_RADIUS * PATCH
    n = int(np.ceil(1.75 * r)) * 2 + 1
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) - n // 2
    d = np.hypot(xx, yy)
    disc = (d <= 0.75 * r).astype(np.float32)
    ring = ((d >= 1.35 * r) & (d <= 1.75 * r)).astype(np.float32)
    return disc / disc.sum(), ring / ring.sum()


@lru_cache(maxsize=1)
def _pip_kernel() -> np.ndarray:
    """Disc minus ring: one filter instead of two (the same contrast to float rounding)."""
    disc, ring = _kernels()
    return disc - ring


@lru_cache(maxsize=1)
def _cell_pixels() -> tuple[np.ndarray, np.ndarray]:
    c = PATCH / 2 - 0.5
    xs = np.array([round(c + gx * PIP_OFFSET * PATCH) for gx, _ in CELLS])
    ys = np.array([round(c + gy * PIP_OFFSET * PATCH) for _, gy in CELLS])
    return ys, xs


# ---------------------------------------------------------------- helpers

@lru_cache(maxsize=64)
def _to_mm(calibration: DiceCalibration) -> np.ndarray:
    return calibration.to_mm()


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if image is None or image.size == 0:
        raise ValueError("image: empty frame")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image: expected HxWx3 BGR, got shape {image.shape}")
    return image

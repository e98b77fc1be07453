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

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from services.vision.dice.calibration import DiceCalibration
from services.vision.dice.faces import CELLS, PATTERNS, PIP_OFFSET, PIP_RADIUS
from services.vision.reading import Reading, no_decision

PATCH = 48            # die face patch size (pixels)
DIFF_THRESHOLD = 24   # Lab L1 distance from the local felt colour that counts as "object"
MIN_MARGIN = 0.3      # pip/empty margin, as a fraction of pip contrast, needed to decide
MIN_EDGE = 12.0       # colour-difference step per pixel at a blob's outline (dice ~30, glare <10)
MIN_PIP_CONTRAST = 40.0  # BGR distance between pip and body colour, summed over channels


@dataclass(frozen=True)
class Blob:
    centre_mm: tuple[float, float]
    size_mm: tuple[float, float]     # minAreaRect sides, short first
    box_mm: np.ndarray               # 4x2 corners of the min-area rectangle (mm)
    area_mm2: float
    fill: float                      # blob area / rectangle area
    angle: float                     # minAreaRect angle (degrees)
    solid: float                     # share of the outline's inside that is object pixels
    sharp: float                     # colour step across the outline per pixel (glare: low)

    def kind(self, die_mm: float) -> str:
        """'die', 'cocked', 'cluster' or 'other', from size and shape alone."""
        short, long_ = (s / die_mm for s in self.size_mm)
        ratio, area = long_ / short, self.area_mm2 / die_mm ** 2
        if self.solid < 0.85 or self.sharp < MIN_EDGE:
            return "other"  # a ring of spots (chip the colour of the felt); soft glare
        if 0.8 < short and long_ < 1.25 and ratio < 1.15 and 0.7 < area < 1.35 \
                and self.fill > 0.8:
            return "die"
        if 0.8 < short < 1.3 and 1.15 <= ratio < 1.8 and area < 2.0 and self.fill > 0.8:
            return "cocked"
        if 0.9 < short and long_ < 2.6 and 1.2 < area < 2.6 and self.fill > 0.55:
            return "cluster"
        return "other"


def read_dice(image: np.ndarray, calibration: DiceCalibration) -> Reading:
    """Read the two up faces; or no decision with a reason (see reading.DICE_REASONS)."""
    image = _as_bgr(image)
    to_mm = _to_mm(calibration)
    blobs = find_blobs(image, calibration)
    die_mm = calibration.die_mm
    kinds = [(b, b.kind(die_mm)) for b in blobs]
    # Leaning or stacked dice only matter on the landing area; pieces of chips and cards
    # around it can take those shapes (a die off the area is reported as such anyway).
    near = [(b, k) for b, k in kinds if k == "die" or
            (k != "other" and _inside(b, calibration))]
    detail = {"blobs": [(k, [round(v, 1) for v in b.centre_mm]) for b, k in near]}
    if any(k == "cluster" for _, k in near):
        return no_decision("dice", "overlap", **detail)
    if any(k == "cocked" for _, k in near):
        return no_decision("dice", "cocked", **detail)
    dice = [b for b, k in near if k == "die"]
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


def _inside(blob: Blob, calibration: DiceCalibration, margin: float = 0.0) -> bool:
    """Is the blob's centre on the landing area (grown by `margin` mm)?"""
    (x, y), (w, h) = blob.centre_mm, calibration.landing_area_mm
    return -margin <= x <= w + margin and -margin <= y <= h + margin


# ---------------------------------------------------------------- segmentation

def find_blobs(image: np.ndarray, calibration: DiceCalibration) -> list[Blob]:
    """Object blobs near the landing area, measured in table millimetres.

    A blob that is not die-shaped gets a second look at a higher threshold (half its own
    strongest contrast): a die merged with a soft glare halo separates from it. Only die-shaped
    parts are kept: parts of chips and cards must not become "clusters".
    """
    die_px = calibration.die_mm * calibration.px_per_mm()
    small = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2),
                       interpolation=cv2.INTER_AREA)
    mask, diff = _object_mask(small, die_px / 2)
    grad = cv2.magnitude(cv2.Sobel(diff, cv2.CV_32F, 1, 0, ksize=3),
                         cv2.Sobel(diff, cv2.CV_32F, 0, 1, ksize=3)) / 8
    ctx = _Ctx(calibration, mask, grad, 0.3 * (die_px / 2) ** 2)
    blobs = []
    for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        blob = _measure(c, ctx, (0, 0))
        if blob is None:
            continue
        if blob.kind(calibration.die_mm) == "other" and \
                blob.area_mm2 < 8 * calibration.die_mm ** 2:
            blobs.extend(_second_look(c, diff, ctx))
        else:
            blobs.append(blob)
    return blobs


@dataclass(frozen=True)
class _Ctx:
    calibration: DiceCalibration
    mask: np.ndarray
    grad: np.ndarray
    min_area: float


def _second_look(contour: np.ndarray, diff: np.ndarray, ctx: _Ctx) -> list[Blob]:
    x, y, w, h = cv2.boundingRect(contour)
    roi = np.zeros((h, w), np.uint8)
    cv2.drawContours(roi, [contour - [x, y]], -1, 255, -1)
    d = diff[y:y + h, x:x + w]
    level = max(DIFF_THRESHOLD, 0.5 * float(np.percentile(d[roi > 0], 90)))
    sub = ((d > level) & (roi > 0)).astype(np.uint8) * 255
    sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    found = []
    for c in cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        blob = _measure(c, ctx, (x, y), sub)
        if blob is not None and blob.kind(ctx.calibration.die_mm) == "die":
            found.append(blob)
    return found


def _measure(c: np.ndarray, ctx: _Ctx, offset: tuple[int, int],
             mask: np.ndarray | None = None) -> Blob | None:
    """Measure one contour (half-resolution pixels, relative to `offset`) in millimetres."""
    if cv2.contourArea(c) < ctx.min_area:
        return None
    x, y, bw, bh = cv2.boundingRect(c)
    ox, oy = offset
    hs, ws = ctx.mask.shape
    if x + ox <= 2 or y + oy <= 2 or x + ox + bw >= ws - 2 or y + oy + bh >= hs - 2:
        return None  # cut by the frame edge: its true shape is unknown (and it is off-area)
    full = c + [ox, oy]
    pts = cv2.perspectiveTransform(full.reshape(-1, 1, 2).astype(np.float64) * 2 + 0.5,
                                   _to_mm(ctx.calibration)).reshape(-1, 2).astype(np.float32)
    (cx, cy), (a, b), ang = cv2.minAreaRect(pts)
    w_mm, h_mm = ctx.calibration.landing_area_mm
    reach = 3 * ctx.calibration.die_mm  # look this far outside the landing area
    if not (-reach < cx < w_mm + reach and -reach < cy < h_mm + reach):
        return None
    area = float(cv2.contourArea(pts))
    box = cv2.boxPoints(((cx, cy), (a, b), ang))
    own = ctx.mask if mask is None else mask
    solid = _solidity(own, c, (x, y, bw, bh))
    sharp = float(np.median(ctx.grad[full[:, 0, 1], full[:, 0, 0]]))
    return Blob((cx, cy), (min(a, b), max(a, b)), box, area, area / max(a * b, 1e-6), ang,
                solid, sharp)


def _solidity(mask: np.ndarray, contour: np.ndarray, rect: tuple[int, int, int, int]) -> float:
    x, y, w, h = rect
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, [contour - [x, y]], -1, 255, -1)
    inside = cv2.countNonZero(filled)
    both = cv2.countNonZero(cv2.bitwise_and(filled, mask[y:y + h, x:x + w]))
    return both / max(inside, 1)


def _object_mask(small: np.ndarray, die_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Mask of pixels that are not felt and the colour-difference image it thresholds.

    The difference is Lab distance to the local felt colour: chroma counts fully, a brighter
    pixel half and a darker one an eighth, so cast shadows and lighting gradients do not grow
    or merge the dice.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB)
    bg = _local_felt(lab, die_px)
    light = lab[..., 0].astype(np.int16) - bg[..., 0].astype(np.int16)
    chroma = cv2.absdiff(lab[..., 1:], bg[..., 1:]).astype(np.int16).sum(2)
    diff = chroma + np.where(light > 0, light // 2, -light // 8)
    mask = (diff > DIFF_THRESHOLD).astype(np.uint8) * 255
    # Opening with a 3x3 square removes thin printed lines (the landing-area outline) that
    # would otherwise join every blob into one.
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask, diff.astype(np.float32)


def _local_felt(img: np.ndarray, die_px: float) -> np.ndarray:
    """The felt colour around each pixel: a median over 2.5 dice (a die never dominates)."""
    h, w = img.shape[:2]
    tiny = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    k = max(3, int(2.5 * die_px / 2)) | 1
    # Pad with the frame's overall felt colour: replicating or reflecting the edge would let a
    # band along the edge (the rail) become the "felt" of the felt beside it.
    pad = k // 2
    felt = np.median(tiny.reshape(-1, 3), axis=0).tolist()
    tiny = cv2.copyMakeBorder(tiny, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=felt)
    bg = cv2.medianBlur(tiny, k)[pad:-pad, pad:-pad]
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


# ---------------------------------------------------------------- pips

def read_face(image: np.ndarray, blob: Blob, die_mm: float,
              to_mm: np.ndarray) -> tuple[int | None, float]:
    """(value, margin) of a flat die; value None if its face shows no valid pip pattern.

    The face is warped from a die-sized square centred on the blob (the blob itself is a little
    larger: bevel, shadow fringe), so pips land near their grid cells; `score_face` absorbs
    the remaining shift.
    """
    (cx, cy), angle = blob.centre_mm, blob.angle
    box = cv2.boxPoints(((cx, cy), (die_mm, die_mm), angle))
    corners_px = cv2.perspectiveTransform(box.reshape(-1, 1, 2).astype(np.float64),
                                          np.linalg.inv(to_mm)).reshape(4, 2)
    dst = np.float32([[0, 0], [PATCH, 0], [PATCH, PATCH], [0, PATCH]])
    m = cv2.getPerspectiveTransform(np.float32(corners_px), dst)
    patch = cv2.warpPerspective(image, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return score_face(patch)


def score_face(patch: np.ndarray) -> tuple[int | None, float]:
    """Score the 9 grid cells of a face patch and pick the best valid pip pattern.

    A cell's contrast is a colour vector: mean over the pip disc minus mean over the ring
    around it, so glare and gradients across the face cancel. The grid is first shifted (up to
    SHIFT px) to where the cells hold the most contrast. Real pips all share one colour, so a
    cell scores by how far its contrast points the same way as the pips' and is penalised for
    pointing elsewhere: a lamp's reflection (white added to the body colour) scores low.
    """
    disc_k, ring_k = _kernels()
    img = patch.astype(np.float32)
    dense = cv2.filter2D(img, -1, disc_k) - cv2.filter2D(img, -1, ring_k)  # H x W x 3
    mag = np.abs(dense).sum(2)
    ys, xs = _cell_pixels()
    best = max(((dy, dx) for dy in range(-SHIFT, SHIFT + 1) for dx in range(-SHIFT, SHIFT + 1)),
               key=lambda d: mag[ys + d[0], xs + d[1]].sum())
    vec = dense[ys + best[0], xs + best[1]]                       # 9 x 3
    strongest = vec[np.argmax(np.abs(vec).sum(1))]
    norm2 = float(strongest @ strongest)
    if np.sqrt(norm2) < MIN_PIP_CONTRAST:
        return None, 0.0
    pip = vec[(vec @ strongest) / norm2 > 0.5].mean(0)           # the pips' common contrast
    norm = float(np.linalg.norm(pip))
    # Each cell may sit one pixel off the grid (pips are hand-drilled, the warp is not exact).
    cells = np.full(len(CELLS), -np.inf, np.float32)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            v = dense[ys + best[0] + dy, xs + best[1] + dx]
            along = v @ pip / norm ** 2
            across = np.linalg.norm(v - along[:, None] * pip, axis=1) / norm
            cells = np.maximum(cells, along - across)
    best_value, best_margin = None, -np.inf
    for pattern, on in _ON.items():
        margin = cells[on].min() - cells[~on].max()
        if margin > best_margin:
            best_value, best_margin = PATTERNS[pattern], margin
    return best_value, float(best_margin)


_ON = {p: np.array([c in p for c in CELLS]) for p in PATTERNS}
SHIFT = 2  # grid search range in patch pixels (about 0.8 mm); more reaches the die's edge


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

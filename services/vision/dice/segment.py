"""Find die-like blobs on the felt (pure OpenCV + numpy, no I/O).

Every measure is taken in table millimetres through the calibration's homography, so a tilted
or zoomed camera segments the same. The work is done at half resolution (a die is still ~20 px).

1. `felt_difference`: how far each pixel's colour is from the local felt colour, in a way the
   camera's bad days do not change: a shadow scales the felt's colour (explained down to half
   its brightness), a lamp's glare adds white to it (changes no chroma, and brightening counts
   only a quarter), and the difference is measured relative to the felt's own chroma, so a
   dark frame shows a die as clearly as a bright one.
2. Components of the thresholded difference are classified by size and shape (`Blob.kind`).
3. A component that is not a die gets a *second look*: a die joined to a glare halo or band,
   the printed line, the stick or its own shadow is cut free (an opening with a disc narrower
   than a die, a higher threshold, or a grey top-hat over what is wider or longer than dice
   can be), but only when everything cut away is thin, the stick or soft-edged: a thick
   sharp-edged remainder is another die or a chip, and the blob stays what it was — unless it
   touches the die only through a soft neck of glare or shadow (neck.py), tried last.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from services.vision.dice.calibration import DiceCalibration
from services.vision.dice.neck import soft_neck
from services.vision.stats import median, quantile

DIFF_THRESHOLD = 24.0  # felt difference (SCALE units) that counts as "object"
SCALE = 40.0           # felt difference of a colour one felt-chroma away from the felt
BRIGHT_WEIGHT = 0.5    # share of a brightening counted (glare is white added to the felt)
SHADOW_FLOOR = 0.5     # darkest shadow explained: half the local felt's brightness
MIN_SHARP = 0.15       # outline step per pixel / inner contrast (dice >= 0.19, glare lower)
SOFT_REST = 0.2        # a cut-away remainder softer than this is glare (halos <= 0.17)
MIN_SOLID = 0.85       # share of the outline's inside that is object (a ring of spots: low)
CUT_DISC = 0.6         # second look: opening disc, in dice (cuts lines, stick, shadow fringes)
WIDE_SQUARE = 1.35     # second look: what is wider than this (in dice) is a halo or a chip
LONG_LINE = 2.8        # ... and what is longer than this, a glare band (dice on dice <= 2.6)
HALO_SHARE = 0.6       # last cut: a blob under HALO_AREA dice^2 re-thresholded at this share
HALO_AREA = 3.0        # of its peak (a die on a halo brighter than half the die; larger blobs:
                       # chips, the outline, whose extra cut cost 0.7 ms per frame)
THIN_DISC = 0.35       # a remainder narrower than this (in dice) is a line, not a die or chip
MIN_SIDE_FACE = 0.08   # dice^2 a leaning shape must add beyond a die part to be a side face
SIDE_FACE_MAX = 1.5    # a thin remainder along a die and shorter than this may be a side face
STICK_WIDTH = 0.6      # a long core nowhere wider than this (dice) is the stick (drawn 0.3
                       # wide) or a line; a die or a chip is at least 1 die wide everywhere
TOUCH_GAP = 0.25       # die parts of one blob closer than this (dice) touch: `cluster`
MAX_HOLLOW = 20.0      # hollow blobs up to this (dice^2) are cards (15) or chips (3.3): not cut;
                       # the landing-area outline (77) is cut (dice may touch it)
MAX_CLUSTER_ROUND = 0.8  # two dice on each other are squares (<= 0.75); a chip is a disc
MIN_CLUSTER_CONVEX = 0.85  # ... and compact; a chip's visible part is a crescent (< 0.83)

# BGR -> two chroma axes orthogonal to grey, and the mean brightness.
_OPPONENT = np.float32([[1 / np.sqrt(2), -1 / np.sqrt(2), 0],
                        [1 / np.sqrt(6), 1 / np.sqrt(6), -2 / np.sqrt(6)],
                        [1 / 3, 1 / 3, 1 / 3]])
_OFFSET = np.float32([128, 128, 0])  # chroma stored as uint8 for the median
# The same as one 3x4 cv2.transform straight to uint8; -0.5: it rounds, the felt truncated.
_ENCODE = np.hstack([_OPPONENT, _OFFSET[:, None] - 0.5]).astype(np.float32)


@dataclass(frozen=True)
class Blob:
    centre_mm: tuple[float, float]
    size_mm: tuple[float, float]     # minAreaRect sides, short first
    box_mm: np.ndarray               # 4x2 corners of the min-area rectangle (mm)
    area_mm2: float
    fill: float                      # blob area / rectangle area
    angle: float                     # minAreaRect angle (degrees)
    # The outline's qualities, measured only for a blob dice-sized by `dice_sized` (the others
    # are "other" whatever they are; measuring them was 0.7 ms per frame): None otherwise.
    solid: float | None = None       # share of the outline's inside that is object pixels
    sharp: float | None = None       # outline step per pixel / inner contrast (glare: low)
    round: float | None = None       # hull area / enclosing circle area (chip ~0.9+)
    convex: float | None = None      # area / convex hull area (dice on dice ~0.9+)
    touching: bool = False           # dice cut apart from one blob: they touch

    def kind(self, die_mm: float) -> str:
        """'die', 'cocked', 'cluster' or 'other', from size and shape alone."""
        short, long_ = (s / die_mm for s in self.size_mm)
        ratio, area = long_ / short, self.area_mm2 / die_mm ** 2
        if self.touching:
            return "cluster"  # two dice in contact: a person calls it (README limits)
        if not dice_sized(short, long_, area, self.fill) or self.solid is None:
            return "other"
        assert self.sharp is not None and self.round is not None and self.convex is not None
        if self.solid < MIN_SOLID or self.sharp < MIN_SHARP:
            return "other"  # a ring of spots (chip the colour of the felt); soft glare
        if 0.8 < short and long_ < 1.25 and ratio < 1.15 and 0.7 < area < 1.35 \
                and self.fill > 0.8:
            return "die"
        if 0.8 < short < 1.3 and 1.15 <= ratio < 1.8 and area < 2.0 and self.fill > 0.8:
            return "cocked"
        if 0.9 < short and long_ < 2.6 and 1.2 < area < 2.6 and self.fill > 0.55 \
                and self.round < MAX_CLUSTER_ROUND and self.convex > MIN_CLUSTER_CONVEX:
            return "cluster"
        return "other"


def dice_sized(short: float, long_: float, area: float, fill: float) -> bool:
    """Could a blob of these sides and area (dice, dice^2) and fill be a die, a leaning die or
    dice on dice (`Blob.kind`'s size limits, all three together)?"""
    return 0.8 < short and long_ < 2.6 and area < 2.6 and fill > 0.55


@dataclass(frozen=True)
class _Frame:
    """One frame's half-resolution maps and its scale."""
    calibration: DiceCalibration
    to_mm: np.ndarray
    die_px: float          # die side in half-resolution pixels
    diff: np.ndarray       # felt difference
    grad: np.ndarray       # its gradient magnitude per pixel
    mask: np.ndarray       # object pixels (uint8 0/255)

    @property
    def die_area(self) -> float:
        return self.die_px ** 2


def find_blobs(image: np.ndarray, calibration: DiceCalibration,
               to_mm: np.ndarray) -> list[Blob]:
    """Object blobs near the landing area, measured in table millimetres.

    Non-die blobs smaller than a card get a second look (see the module docstring); what it
    cannot cut free stays as it was, so dice on dice remain a cluster.
    """
    die_px = calibration.die_mm * calibration.px_per_mm() / 2
    small = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2),
                       interpolation=cv2.INTER_AREA)
    diff = felt_difference(small, die_px)
    mask = (diff > DIFF_THRESHOLD).astype(np.uint8) * 255
    # A 3x3 opening removes thin printed lines (the landing-area outline) and speckle.
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    grad = cv2.magnitude(cv2.Sobel(diff, cv2.CV_32F, 1, 0, ksize=3),
                         cv2.Sobel(diff, cv2.CV_32F, 0, 1, ksize=3)) / 8
    frame = _Frame(calibration, to_mm, die_px, diff, grad, mask)
    blobs = []
    for c in _components(mask):
        blob = _measure(frame, c, (0, 0), mask)
        if blob is None and not _at_edge(frame, c):
            continue  # too small, or far from the landing area
        # A leaning die is never cut: its side face can be thin and darker than its top.
        if blob is not None and blob.kind(calibration.die_mm) in ("die", "cocked"):
            blobs.append(blob)
            continue
        # Blobs cut by the frame edge get a second look too: the stick reaches the edge, and a
        # die may touch the stick.
        parts = _second_look(frame, c)
        blobs.extend(parts if parts else [b for b in (blob,) if b is not None])
    return _once(blobs, calibration.die_mm)


def _once(blobs: list[Blob], die_mm: float) -> list[Blob]:
    """Each die once. The printed outline's filled contour holds the dice inside it, so its
    second look can cut out a die already found as a component of its own (tuning seed 7111
    frame 1360: both dice twice, `too_many_dice`). Two flat dice cannot be closer than a die."""
    kept: list[Blob] = []
    for b in blobs:
        if b.kind(die_mm) == "die" and any(
                k.kind(die_mm) == "die" and
                np.hypot(*np.subtract(b.centre_mm, k.centre_mm)) < 0.5 * die_mm for k in kept):
            continue
        kept.append(b)
    return kept


def _at_edge(frame: _Frame, c: np.ndarray) -> bool:
    x, y, w, h = cv2.boundingRect(c)
    hs, ws = frame.mask.shape
    return x <= 2 or y <= 2 or x + w >= ws - 2 or y + h >= hs - 2


def _components(mask: np.ndarray) -> list[np.ndarray]:
    """Outer outlines of every component, including those inside another's hole: the printed
    landing-area outline can survive the opening as a closed frame around the dice."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    return [c for c, h in zip(contours, hierarchy[0]) if h[3] < 0]


# ---------------------------------------------------------------- felt difference

def felt_difference(small: np.ndarray, die_px: float) -> np.ndarray:
    """How far each pixel is from the local felt colour (SCALE = one felt chroma away).

    In an opponent colour space (two chroma axes and brightness): the felt's chroma, scaled
    by how much darker the pixel is (a shadow, down to SHADOW_FLOOR), is subtracted from the
    pixel's chroma; a brightening adds BRIGHT_WEIGHT of itself (a die brighter than the felt;
    glare adds white, which has no chroma). Dividing by the felt's chroma makes the measure
    the same in a dark or a bright frame.
    """
    # Planes split once (numpy on interleaved channels is slow); the felt is found on the
    # colour encoded straight to uint8 by cv2.transform: 2.6 ms instead of 4.2 ms per frame.
    blur = cv2.GaussianBlur(small, (3, 3), 0)
    o0, o1, o2 = cv2.split(cv2.transform(blur.astype(np.float32), _OPPONENT))
    felt = local_felt(cv2.transform(blur, _ENCODE), die_px)
    f0, f1, f2 = (p.astype(np.float32) for p in cv2.split(felt))
    f0 -= _OFFSET[0]
    f1 -= _OFFSET[1]
    light = cv2.max(o2 - f2, 0.0)
    shade = np.clip(o2 / cv2.max(f2, 1.0), SHADOW_FLOOR, 1.0)
    chroma = cv2.magnitude(o0 - shade * f0, o1 - shade * f1)
    felt_chroma = cv2.max(cv2.magnitude(f0, f1), 12.0)
    return (chroma + BRIGHT_WEIGHT * light) * (SCALE / felt_chroma)


def local_felt(img: np.ndarray, die_px: float) -> np.ndarray:
    """The felt colour around each pixel: a median over 2.5 dice (a die never dominates)."""
    h, w = img.shape[:2]
    tiny = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    k = max(3, int(2.5 * die_px / 2)) | 1
    # Pad with the frame's overall felt colour: replicating or reflecting the edge would let a
    # band along the edge (the rail) become the "felt" of the felt beside it. One pixel is
    # enough: medianBlur replicates the border, here that pixel, so every window reaching
    # past the edge sees the felt colour, as with a k // 2 pad, and the median is not
    # computed for a discarded pad (1.3 instead of 1.9 ms per frame, the same values).
    felt = _median_colour(tiny)
    tiny = cv2.copyMakeBorder(tiny, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=felt)
    bg = cv2.medianBlur(tiny, k)[1:-1, 1:-1]
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def _median_colour(img: np.ndarray) -> list[float]:
    """Per-channel median of a uint8 image from its histograms (np.median sorts: 5x slower)."""
    half = img.shape[0] * img.shape[1] / 2
    return [float(np.searchsorted(np.cumsum(cv2.calcHist([img], [ch], None, [256], [0, 256])),
                                  half)) for ch in range(img.shape[2])]


# ---------------------------------------------------------------- measuring a blob

def _measure(frame: _Frame, c: np.ndarray, offset: tuple[int, int],
             own: np.ndarray) -> Blob | None:
    """Measure one contour (half-resolution pixels relative to `offset`; `own` is the mask
    it was traced in, in the same frame of reference) in millimetres."""
    if cv2.contourArea(c) < 0.3 * frame.die_area:
        return None
    x, y, bw, bh = cv2.boundingRect(c)
    ox, oy = offset
    hs, ws = frame.mask.shape
    if x + ox <= 2 or y + oy <= 2 or x + ox + bw >= ws - 2 or y + oy + bh >= hs - 2:
        return None  # cut by the frame edge: its true shape is unknown (and it is off-area)
    full = c + [ox, oy]
    pts = cv2.perspectiveTransform(full.reshape(-1, 1, 2).astype(np.float64) * 2 + 0.5,
                                   frame.to_mm).reshape(-1, 2).astype(np.float32)
    (cx, cy), (a, b), ang = cv2.minAreaRect(pts)
    w_mm, h_mm = frame.calibration.landing_area_mm
    reach = 3 * frame.calibration.die_mm  # look this far outside the landing area
    if not (-reach < cx < w_mm + reach and -reach < cy < h_mm + reach):
        return None
    area = float(cv2.contourArea(pts))
    box = cv2.boxPoints(((cx, cy), (a, b), ang))
    blob = Blob((cx, cy), (min(a, b), max(a, b)), box, area, area / max(a * b, 1e-6), ang)
    die = frame.calibration.die_mm
    if not dice_sized(blob.size_mm[0] / die, blob.size_mm[1] / die, area / die ** 2, blob.fill):
        return blob
    _, radius = cv2.minEnclosingCircle(pts)
    hull = float(cv2.contourArea(cv2.convexHull(pts)))
    inside = _fill(c, (x, y, bw, bh))
    solid = cv2.countNonZero(cv2.bitwise_and(inside, own[y:y + bh, x:x + bw])) / \
        max(cv2.countNonZero(inside), 1)
    return dataclasses.replace(
        blob, solid=solid, sharp=_sharpness(frame, full, inside, (x + ox, y + oy)),
        round=hull / (np.pi * radius ** 2 + 1e-6), convex=area / max(hull, 1e-6))


def _fill(c: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = rect
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, [c - [x, y]], -1, 255, -1)
    return filled


def _sharpness(frame: _Frame, outline: np.ndarray, inside: np.ndarray,
               origin: tuple[int, int]) -> float:
    """Colour step per pixel across the outline relative to the blob's inner contrast: about
    1/(edge width), whatever the contrast; a die's edge is a step, a glare halo's a slope.
    Where the frame's edge cuts the blob there is no step to measure: a chip cut by it whose
    remainder was measured there looked soft, and a die-shaped piece of it was kept as a die
    (tuning seed 7101, frame 26)."""
    x, y = origin
    h, w = inside.shape
    xs, ys = outline[:, 0, 0], outline[:, 0, 1]
    hs, ws = frame.grad.shape
    inner = (xs > 2) & (ys > 2) & (xs < ws - 3) & (ys < hs - 3)
    if inner.any():
        xs, ys = xs[inner], ys[inner]
    step = median(frame.grad[ys, xs])
    level = median(frame.diff[y:y + h, x:x + w][inside > 0])
    return step / max(level, 1.0)


# ---------------------------------------------------------------- second look

def _second_look(frame: _Frame, contour: np.ndarray) -> list[Blob]:
    """Die-shaped parts cut free from a non-die blob, or [] if none can be cut safely."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    x1, y1 = min(x + w + pad, frame.mask.shape[1]), min(y + h + pad, frame.mask.shape[0])
    filled = _fill(contour, (x0, y0, x1 - x0, y1 - y0))
    parent = cv2.bitwise_and(filled, frame.mask[y0:y1, x0:x1])
    if cv2.countNonZero(parent) < 0.5 * frame.die_area:
        # No die fits (>= 0.7 dice^2 in mm; 0.5 leaves room for perspective): a line, a dot.
        return []
    inside = cv2.countNonZero(filled)
    if cv2.countNonZero(parent) < MIN_SOLID * inside and inside < MAX_HOLLOW * frame.die_area:
        # A frame around a hole: a card whose middle became the local felt, a chip's ring of
        # spots. Its pieces can be die-sized (a suit mark with the card's rim around it). The
        # printed landing-area outline is a larger frame, and dice may touch it.
        return []
    cuts = (lambda: cv2.morphologyEx(parent, cv2.MORPH_OPEN, _disc(CUT_DISC * frame.die_px)),
            lambda: _higher_level(frame, parent, (x0, y0)),
            lambda: _above_wide(frame, parent, (x0, y0)))
    if cv2.countNonZero(parent) < HALO_AREA * frame.die_area:
        # A die on a halo brighter than half the die's contrast, too small for the top-hat to
        # remove (tuning seed 7101, frame 1512: halo 116, die 150-220).
        cuts += (lambda: _higher_level(frame, parent, (x0, y0), HALO_SHARE),)
    leaning: list[tuple[Blob, np.ndarray]] = []  # leaning-die shapes seen so far
    tried = []
    for cut in cuts:  # each computed only when the ones before cut nothing free
        parts, cocked = _die_parts(frame, cut(), (x0, y0))
        leaning += cocked
        # A cut that shows a leaning die where a harder cut finds a flat one has stripped the
        # side face off the top (tuning seed 9191, cocked frame 637: read as a 2).
        if any(_stripped_side(frame, part, shape, (x0, y0))
               for part in parts for shape in leaning):
            return []
        if parts and _rest_is_harmless(frame, parent, parts, (x0, y0)):
            return _mark_touching(frame, parts, parent.shape)
        tried += [parts] if parts else []
    # No cut left a harmless rest: one whose rest is joined to the dice only by a soft neck
    # (neck.py) will do. Only now: an earlier cut's rest may hold a die a later cut frees
    # (tuning seed 7707 frame 1666: two dice joined by glare).
    for parts in tried:
        if not any(_stripped_side(frame, part, shape, (x0, y0))
                   for part in parts for shape in leaning) and \
                _rest_is_harmless(frame, parent, parts, (x0, y0), neck=True):
            return _mark_touching(frame, parts, parent.shape)
    return []


def _mark_touching(frame: _Frame, parts: list, shape: tuple[int, int]) -> list[Blob]:
    """The parts' blobs, marked `touching` when a part lies within TOUCH_GAP dice of another
    (dice in contact, a die on a die: the cut leaves only a narrow gap between them). Dice
    further apart were joined by a soft shadow or halo between them, which the cut removed
    (tuning seed 7202, frames 662 and 1791: two dice 0.5 dice apart, joined by their shadows
    under motion blur, were reported `overlap`)."""
    blobs = [b for b, _ in parts]
    if len(parts) < 2:
        return blobs
    reach = _disc(2 * TOUCH_GAP * frame.die_px)
    masks = [_fill(c, (0, 0, shape[1], shape[0])) for _, c in parts]
    grown = [cv2.dilate(m, reach) for m in masks]
    return [dataclasses.replace(b, touching=True)
            if any(j != i and cv2.countNonZero(cv2.bitwise_and(grown[i], masks[j]))
                   for j in range(len(masks))) else b
            for i, b in enumerate(blobs)]


def _higher_level(frame: _Frame, parent: np.ndarray, origin: tuple[int, int],
                  share: float = 0.5) -> np.ndarray:
    """The parent re-thresholded at `share` of its own strongest contrast (a die is stronger
    than the glare halo joined to it)."""
    x, y = origin
    h, w = parent.shape
    d = frame.diff[y:y + h, x:x + w]
    level = max(DIFF_THRESHOLD, share * quantile(d[parent > 0], 0.9))
    sub = ((d > level) & (parent > 0)).astype(np.uint8) * 255
    return cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _above_wide(frame: _Frame, parent: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    """The parent where it stands above everything wider than WIDE_SQUARE dice or longer than
    LONG_LINE dice across or down the frame (a grey-level top-hat): a die on a glare halo or
    in a glare band stands out of it; two dice together are smaller than both and stay whole.
    (A square, not a disc: 8x faster, 0.1 ms per blob.)"""
    x, y = origin
    h, w = parent.shape
    d = frame.diff[y:y + h, x:x + w]
    side = max(3, int(round(WIDE_SQUARE * frame.die_px)))
    long_ = max(3, int(round(LONG_LINE * frame.die_px)))
    under = cv2.morphologyEx(d, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    for line in (np.ones((1, long_), np.uint8), np.ones((long_, 1), np.uint8)):
        under = cv2.max(under, cv2.morphologyEx(d, cv2.MORPH_OPEN, line))
    top = d - under
    sub = ((top > DIFF_THRESHOLD) & (parent > 0)).astype(np.uint8) * 255
    return cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _die_parts(frame: _Frame, cut: np.ndarray, origin: tuple[int, int]
               ) -> tuple[list[tuple[Blob, np.ndarray]], list[tuple[float, float]]]:
    """Die-shaped components of a cut, each with its own contour; and the centres (mm) of
    components shaped like a leaning die."""
    parts, leaning = [], []
    for c in _components(cut):
        blob = _measure(frame, c, origin, cut)
        kind = blob.kind(frame.calibration.die_mm) if blob is not None else "other"
        if kind in ("die", "cocked"):
            (parts if kind == "die" else leaning).append((blob, c))
    return parts, leaning


def _stripped_side(frame: _Frame, part: tuple[Blob, np.ndarray],
                   shape: tuple[Blob, np.ndarray], origin: tuple[int, int]) -> bool:
    """Is the die part the top face of the leaning-die shape an earlier cut showed (its centre
    within half a die), the shape's extra beyond the part a side face: as large as one leaning
    15 degrees (0.26 dice along a whole edge) and not soft glare? A die in a glare band can
    look leaning after the opening, whose disc keeps a small lump of the band beside the die
    (tuning seed 7101, frame 531: 0.04 dice^2 beyond the part; the stripped side face of
    tuning seed 9191, cocked frame 637: 0.15)."""
    (die, c), (lean, lc) = part, shape
    if np.hypot(*np.subtract(die.centre_mm, lean.centre_mm)) >= 0.5 * frame.calibration.die_mm:
        return False
    x, y, w, h = cv2.boundingRect(np.vstack([c, lc]))
    keep = cv2.dilate(_fill(c - [x, y], (0, 0, w, h)), np.ones((5, 5), np.uint8))
    extra = cv2.bitwise_and(_fill(lc - [x, y], (0, 0, w, h)), cv2.bitwise_not(keep))
    if cv2.countNonZero(extra) < MIN_SIDE_FACE * frame.die_area:
        return False
    return not _soft_beside(frame, extra, keep, (origin[0] + x, origin[1] + y))


def _soft_beside(frame: _Frame, piece: np.ndarray, die: np.ndarray,
                 origin: tuple[int, int]) -> bool:
    """Is `piece` (a mask beside the die mask `die`, both at `origin`) soft-edged where it
    does not border the die? (Along the die the step is the die's own edge.)"""
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return True
    outline = np.vstack(contours)
    away = cv2.dilate(die, np.ones((5, 5), np.uint8))[outline[:, 0, 1], outline[:, 0, 0]] == 0
    if away.sum() < 0.5 * frame.die_px:
        return False  # hardly any free outline: nothing shows it is glare
    x, y = origin
    free = outline[away] + [x, y]
    step = median(frame.grad[free[:, 0, 1], free[:, 0, 0]])
    level = median(frame.diff[y:y + piece.shape[0], x:x + piece.shape[1]][piece > 0])
    return step / max(level, 1.0) < SOFT_REST


def _rest_is_harmless(frame: _Frame, parent: np.ndarray, parts: list,
                      origin: tuple[int, int], neck: bool = False) -> bool:
    """Is everything the cut removed a line, the stick or a shadow fringe (thin, touching the
    die briefly) or a glare halo (soft-edged)? A sharp-edged remainder that is thick is part of
    another die or a chip; one lying along a die's edge may be a leaning die's side face.
    With `neck`, a remainder joined to the dice only by a soft neck is harmless too."""
    keep = np.zeros_like(parent)
    cv2.drawContours(keep, [c for _, c in parts], -1, 255, -1)
    near = cv2.dilate(keep, np.ones((5, 5), np.uint8))
    ring = cv2.bitwise_and(cv2.dilate(keep, np.ones((9, 9), np.uint8)), cv2.bitwise_not(near))
    rest = cv2.bitwise_and(parent, cv2.bitwise_not(near))
    for c in _components(rest):
        if cv2.contourArea(c) < 0.05 * frame.die_area or _harmless_piece(frame, c, ring, origin):
            continue
        piece = cv2.bitwise_and(rest, _fill(c, (0, 0, parent.shape[1], parent.shape[0])))
        if not (neck and soft_neck(frame.grad, frame.diff, frame.die_px, parent, keep, piece,
                                   origin, SOFT_REST)):
            return False
    return True


def _harmless_piece(frame: _Frame, c: np.ndarray, ring: np.ndarray,
                    origin: tuple[int, int]) -> bool:
    """Is one remainder (outline `c`; `ring`: the band just around the die parts) no side
    face, and its thick core the stick or soft?"""
    bx, by, bw, bh = cv2.boundingRect(c)
    inside = _fill(c, (bx, by, bw, bh))
    contact = cv2.countNonZero(cv2.bitwise_and(inside, ring[by:by + bh, bx:bx + bw])) / 2
    # A side face is as long as the die; a line or the stick running past it is longer.
    if contact > 0.5 * frame.die_px and \
            max(cv2.minAreaRect(c)[1]) < SIDE_FACE_MAX * frame.die_px and \
            not _soft(frame, c, origin):
        return False
    core = cv2.morphologyEx(inside, cv2.MORPH_OPEN, _disc(THIN_DISC * frame.die_px))
    for t in _components(core):  # without lines and the stick
        if cv2.contourArea(t) >= 0.1 * frame.die_area and \
                not _is_stick(frame, t, ring[by:by + bh, bx:bx + bw]) and \
                not _soft(frame, t, (origin[0] + bx, origin[1] + by)):
            return False
    return True


def _is_stick(frame: _Frame, c: np.ndarray, ring: np.ndarray) -> bool:
    """A remainder's core nowhere wider than STICK_WIDTH, longer than a side face and away
    from the die (a side face lies along it): the stick (its hook included), which can be
    wider than THIN_DISC once blurred and thresholded (tuning seed 2024, frame 118)."""
    if max(cv2.minAreaRect(c)[1]) <= SIDE_FACE_MAX * frame.die_px:
        return False
    x, y, w, h = cv2.boundingRect(c)
    filled = _fill(c, (x, y, w, h))
    widest = 2 * float(cv2.distanceTransform(cv2.copyMakeBorder(
        filled, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), cv2.DIST_L2, 3).max())
    if widest >= STICK_WIDTH * frame.die_px:
        return False
    touch = cv2.countNonZero(cv2.bitwise_and(filled, ring[y:y + h, x:x + w]))
    return touch / 2 < 0.5 * frame.die_px


def _soft(frame: _Frame, c: np.ndarray, offset: tuple[int, int]) -> bool:
    """Is this outline (pixels relative to `offset`) a glare halo's, soft-edged?"""
    x, y, w, h = cv2.boundingRect(c)
    full = c + list(offset)
    return _sharpness(frame, full, _fill(c, (x, y, w, h)),
                      (x + offset[0], y + offset[1])) < SOFT_REST


@lru_cache(maxsize=16)
def _disc_cached(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _disc(diameter: float) -> np.ndarray:
    return _disc_cached(max(3, int(round(diameter)) | 1))

"""The second look at a blob that is not a die: cut free the die in it, if that is safe (pure
OpenCV + numpy).

A die joined to a glare halo or band, the printed line, the stick or its own shadow is cut free
(an opening with a disc narrower than a die, a higher threshold, or a grey top-hat over what is
wider or longer than dice can be), but only when everything cut away is thin, the stick or
soft-edged: a thick sharp-edged remainder is another die or a chip, and the blob stays what it
was — unless it touches the die only through a soft neck of glare or shadow (neck.py), tried
last.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np

from services.vision.dice.blobs import MIN_SOLID, Blob, Frame, components, fill, measure, sharpness
from services.vision.dice.felt import DIFF_THRESHOLD
from services.vision.dice.neck import soft_neck
from services.vision.stats import median, quantile

SOFT_REST = 0.2        # a cut-away remainder softer than this is glare (halos <= 0.17)
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


def second_look(frame: Frame, contour: np.ndarray) -> list[Blob]:
    """Die-shaped parts cut free from a non-die blob, or [] if none can be cut safely."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    x1, y1 = min(x + w + pad, frame.mask.shape[1]), min(y + h + pad, frame.mask.shape[0])
    filled = fill(contour, (x0, y0, x1 - x0, y1 - y0))
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
    cuts: tuple[Callable[[], np.ndarray], ...] = (
            lambda: cv2.morphologyEx(parent, cv2.MORPH_OPEN, _disc(CUT_DISC * frame.die_px)),
            lambda: _higher_level(frame, parent, (x0, y0)),
            lambda: _above_wide(frame, parent, (x0, y0)))
    if cv2.countNonZero(parent) < HALO_AREA * frame.die_area:
        # A die on a halo brighter than half the die's contrast, too small for the top-hat to
        # remove (tuning seed 7101, frame 1512: halo 116, die 150-220).
        cuts += (lambda: _higher_level(frame, parent, (x0, y0), HALO_SHARE),)
    leaning: list[tuple[Blob, np.ndarray]] = []  # leaning-die shapes seen so far
    tried: list[list[tuple[Blob, np.ndarray]]] = []
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


def _mark_touching(frame: Frame, parts: list, shape: tuple[int, int]) -> list[Blob]:
    """The parts' blobs, marked `touching` when a part lies within TOUCH_GAP dice of another
    (dice in contact, a die on a die: the cut leaves only a narrow gap between them). Dice
    further apart were joined by a soft shadow or halo between them, which the cut removed
    (tuning seed 7202, frames 662 and 1791: two dice 0.5 dice apart, joined by their shadows
    under motion blur, were reported `overlap`)."""
    blobs = [b for b, _ in parts]
    if len(parts) < 2:
        return blobs
    reach = _disc(2 * TOUCH_GAP * frame.die_px)
    masks = [fill(c, (0, 0, shape[1], shape[0])) for _, c in parts]
    grown = [cv2.dilate(m, reach) for m in masks]
    return [dataclasses.replace(b, touching=True)
            if any(j != i and cv2.countNonZero(cv2.bitwise_and(grown[i], masks[j]))
                   for j in range(len(masks))) else b
            for i, b in enumerate(blobs)]


def _higher_level(frame: Frame, parent: np.ndarray, origin: tuple[int, int],
                  share: float = 0.5) -> np.ndarray:
    """The parent re-thresholded at `share` of its own strongest contrast (a die is stronger
    than the glare halo joined to it)."""
    x, y = origin
    h, w = parent.shape
    d = frame.diff[y:y + h, x:x + w]
    level = max(DIFF_THRESHOLD, share * quantile(d[parent > 0], 0.9))
    sub = ((d > level) & (parent > 0)).astype(np.uint8) * 255
    return cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _above_wide(frame: Frame, parent: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
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


def _die_parts(frame: Frame, cut: np.ndarray, origin: tuple[int, int]
               ) -> tuple[list[tuple[Blob, np.ndarray]], list[tuple[Blob, np.ndarray]]]:
    """Die-shaped components of a cut, and components shaped like a leaning die: each as
    (blob, its own contour)."""
    parts: list[tuple[Blob, np.ndarray]] = []
    leaning: list[tuple[Blob, np.ndarray]] = []
    for c in components(cut):
        blob = measure(frame, c, origin, cut)
        kind = blob.kind(frame.calibration.die_mm) if blob is not None else "other"
        if blob is not None and kind in ("die", "cocked"):
            (parts if kind == "die" else leaning).append((blob, c))
    return parts, leaning


def _stripped_side(frame: Frame, part: tuple[Blob, np.ndarray],
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
    keep = cv2.dilate(fill(c - [x, y], (0, 0, w, h)), np.ones((5, 5), np.uint8))
    extra = cv2.bitwise_and(fill(lc - [x, y], (0, 0, w, h)), cv2.bitwise_not(keep))
    if cv2.countNonZero(extra) < MIN_SIDE_FACE * frame.die_area:
        return False
    return not _soft_beside(frame, extra, keep, (origin[0] + x, origin[1] + y))


def _soft_beside(frame: Frame, piece: np.ndarray, die: np.ndarray,
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


def _rest_is_harmless(frame: Frame, parent: np.ndarray, parts: list,
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
    for c in components(rest):
        if cv2.contourArea(c) < 0.05 * frame.die_area or _harmless_piece(frame, c, ring, origin):
            continue
        piece = cv2.bitwise_and(rest, fill(c, (0, 0, parent.shape[1], parent.shape[0])))
        if not (neck and soft_neck(frame.grad, frame.diff, frame.die_px, parent, keep, piece,
                                   origin, SOFT_REST)):
            return False
    return True


def _harmless_piece(frame: Frame, c: np.ndarray, ring: np.ndarray,
                    origin: tuple[int, int]) -> bool:
    """Is one remainder (outline `c`; `ring`: the band just around the die parts) no side
    face, and its thick core the stick or soft?"""
    bx, by, bw, bh = cv2.boundingRect(c)
    inside = fill(c, (bx, by, bw, bh))
    contact = cv2.countNonZero(cv2.bitwise_and(inside, ring[by:by + bh, bx:bx + bw])) / 2
    # A side face is as long as the die; a line or the stick running past it is longer.
    if contact > 0.5 * frame.die_px and \
            max(cv2.minAreaRect(c)[1]) < SIDE_FACE_MAX * frame.die_px and \
            not _soft(frame, c, origin):
        return False
    core = cv2.morphologyEx(inside, cv2.MORPH_OPEN, _disc(THIN_DISC * frame.die_px))
    for t in components(core):  # without lines and the stick
        if cv2.contourArea(t) >= 0.1 * frame.die_area and \
                not _is_stick(frame, t, ring[by:by + bh, bx:bx + bw]) and \
                not _soft(frame, t, (origin[0] + bx, origin[1] + by)):
            return False
    return True


def _is_stick(frame: Frame, c: np.ndarray, ring: np.ndarray) -> bool:
    """A remainder's core nowhere wider than STICK_WIDTH, longer than a side face and away
    from the die (a side face lies along it): the stick (its hook included), which can be
    wider than THIN_DISC once blurred and thresholded (tuning seed 2024, frame 118)."""
    if max(cv2.minAreaRect(c)[1]) <= SIDE_FACE_MAX * frame.die_px:
        return False
    x, y, w, h = cv2.boundingRect(c)
    filled = fill(c, (x, y, w, h))
    widest = 2 * float(cv2.distanceTransform(cv2.copyMakeBorder(
        filled, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), cv2.DIST_L2, 3).max())
    if widest >= STICK_WIDTH * frame.die_px:
        return False
    touch = cv2.countNonZero(cv2.bitwise_and(filled, ring[y:y + h, x:x + w]))
    return touch / 2 < 0.5 * frame.die_px


def _soft(frame: Frame, c: np.ndarray, offset: tuple[int, int]) -> bool:
    """Is this outline (pixels relative to `offset`) a glare halo's, soft-edged?"""
    x, y, w, h = cv2.boundingRect(c)
    full = c + list(offset)
    return sharpness(frame, full, fill(c, (x, y, w, h)),
                      (x + offset[0], y + offset[1])) < SOFT_REST


@lru_cache(maxsize=16)
def _disc_cached(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _disc(diameter: float) -> np.ndarray:
    return _disc_cached(max(3, int(round(diameter)) | 1))

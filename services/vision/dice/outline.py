"""Without a calibration, the frame's own printed landing area stands in for it.

A calibration file gives the landing area; a new camera has none, but the layout's printed
outline of it is usually in view. When the reader has decided two dice, `printed_area` looks
for it: the light thin lines of calibration.line_mask (as `casino vision calibrate` finds
them), their long pieces fitted to straight lines (cards, chips and the stick break the line,
even at a corner), two nearly parallel pairs of them crossing at four corners in the frame,
the printed line along at least half of each side (a side closed across the cloth, where the
line is out of the picture, is no outline) and stopping at each corner (a side crossing the
stick's edge goes on beyond it). A roll with one die inside it and the other off it is
`out_of_area`: a die off the layout (seed 000 §3.1.5, «caen fuera de la mesa» or «encima
del borde») is a void roll, never a reading. Both dice off a found outline means it is
something else printed on the cloth (a box of the layout), so it is not used.

With no whole outline in view (a zoomed frame; a side faint in a shadow or under a card),
what is in view of it judges (corners.py): one of its corners with a die beyond either side
and the other not, or one side crossing the whole view with a die well off it either side
(one of them is off the area, whichever side the area is). Only thin lines count there (the
layout's broad ones meet and cross too). Only decided frames pay for the search (about 2 ms
at 640x480, grey at half resolution, and half a millisecond more for the corners).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from services.vision.dice.calibration import line_mask, order_corners, sensible_area
from services.vision.dice.corners import across_view, corners, cross, goes_on, thin_px
from services.vision.reading import Reading, no_decision

# A die counts as off the area when its centre is this many die sides outside the outline
# (a die on the line is neither: its centre is within half a side of it).
OFF_BY = 0.5
# Around each die (this many of its sides from its centre: its corners and shadow) the
# line pixels are not looked at when looking for a corner.
DIE_CLEAR = 0.75
# The share of each side of a found outline that must run along the printed line (within
# NEAR_LINE px): a card on one side still leaves half of it; a side drawn across the cloth
# (the line out of the picture) has next to none.
SUPPORT = 0.5
NEAR_LINE = 3
# A piece of printed line: this long (a share of the frame's longer side) and thin (its
# pixels at most this share of its bounding box: a line or a corner, never a blob).
PIECE = 0.1
THIN = 0.12
# ... or, a piece along the frame's rows or columns (its box as thin as it), at most this
# many px wide on average (the printed line is 1-3 px at half resolution; a chip is 20 or more)
WIDE_LINE = 5
# Two pairs of sides cross at least this much: an outline's corners seen by a camera
# (a right angle seen from 30 degrees off the vertical still crosses at 60 or more)
CROSS = np.radians(45)
APART = 0.2             # the two sides of a pair at least this share of the frame apart
ON_LINE = 0.025         # a piece within this share of the frame of a line lies on it
PARALLEL = np.radians(12)  # the two opposite sides of an outline seen by a camera


def judge_area(image: np.ndarray, reading: Reading, grey: np.ndarray | None = None
               ) -> Reading:
    """`reading`, or `out_of_area` when the frame's printed outline (or, with none whole in
    view, one of its corners or a side across the view) has one die off it. `grey`: the
    frame in grey when already made (cv2.COLOR_BGR2GRAY)."""
    dice = reading.detail.get("dice", [])
    if reading.no_decision or len(dice) != 2:
        return reading
    grey, mask, near, lines = _lines(image, grey)
    die = float(np.mean([d["side"] for d in dice])) / 2  # at half resolution
    quad = _best_quad(mask, near, lines, die)
    if quad is not None:
        return _by_outline(reading, _full(quad), dice)
    centres = [(np.array(d["centre"], np.float64) - 0.5) / 2 for d in dice]  # _full's inverse
    for c in centres:  # a die's pips and edges are no printed line
        cv2.circle(mask, np.rint(c).astype(int).tolist(), round(DIE_CLEAR * die), 0, -1)
        cv2.circle(near.view(np.uint8), np.rint(c).astype(int).tolist(),
                   round(DIE_CLEAR * die), 0, -1)
    off_by = [OFF_BY * d["side"] / 2 for d in dice]
    return _by_corner(reading, grey, mask, near, lines, die, centres, off_by) or \
        _by_side(reading, grey, mask, near, lines, die, centres, off_by) or reading


def _by_outline(reading: Reading, quad: np.ndarray, dice: list[dict[str, Any]]) -> Reading:
    """`out_of_area` when one die's centre is more than OFF_BY of its side outside the whole
    outline and the other's is not; else the reading."""
    off = [_outside(quad, d["centre"]) > OFF_BY * d["side"] for d in dice]
    if off[0] != off[1]:
        return no_decision("dice", "out_of_area", outline=quad.round(1).tolist(),
                           **reading.detail)
    return reading


def _by_corner(reading: Reading, grey: np.ndarray, mask: np.ndarray, near: np.ndarray,
               lines: list[np.ndarray], die: float, centres: list[np.ndarray],
               off_by: list[float]) -> Reading | None:
    """`out_of_area` when a corner of the outline (corners.corners) has one die beyond it
    and not the other (half resolution: `centres`, `off_by`); else None."""
    for corner in corners(grey, mask, near, lines, die,
                          lambda line: _splits(line, centres, off_by)):
        off = [corner.outside(c) > o for c, o in zip(centres, off_by)]
        if off[0] != off[1]:
            return no_decision("dice", "out_of_area",
                               corner=_full(corner.at).round(1).tolist(), **reading.detail)
    return None


def _by_side(reading: Reading, grey: np.ndarray, mask: np.ndarray, near: np.ndarray,
             lines: list[np.ndarray], die: float, centres: list[np.ndarray],
             off_by: list[float]) -> Reading | None:
    """`out_of_area` when a side across the whole view (corners.across_view) has the dice
    well off it on either side (one is off the area, whichever side it is); else None."""
    for line in across_view(grey, mask, near,
                            [x for x in lines if _splits(x, centres, off_by)], die):
        apart = _apart(line, centres)
        if apart[0] * apart[1] < 0 and all(abs(a) > o for a, o in zip(apart, off_by)):
            return no_decision("dice", "out_of_area", side=_full(line[:2]).round(1).tolist(),
                               **reading.detail)
    return None


def _splits(line: np.ndarray, centres: list[np.ndarray], off_by: list[float]) -> bool:
    """Could the line have one die off it (whichever side is off) and not the other?"""
    apart = _apart(line, centres)
    return any(abs(apart[i]) > off_by[i] and apart[1 - i] * np.sign(apart[i]) <= off_by[1 - i]
               for i in (0, 1))


def printed_area(image: np.ndarray) -> np.ndarray | None:
    """The printed landing-area outline's corners (TL, TR, BR, BL), or None when no whole
    outline is in view. The line may be broken by what lies on it (a card, a chip, the
    stick), even at a corner: the outline is four straight lines the long thin pieces of
    light line lie on, crossing where its corners are and stopping there, of all such four
    the one the line runs along best (the stick's bright edge makes a line too, but no
    outline's side: the printed side it meets goes on beyond it)."""
    quad = _best_quad(*_lines(image)[1:], 0.0)
    return None if quad is None else _full(quad)


def _lines(image: np.ndarray, grey: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """The frame in grey and, at half resolution, the light thin lines' pixels, the pixels
    near them and the straight lines the long pieces of them lie on."""
    # A printed line 3 px wide or more is still a line at half resolution, at a quarter of
    # the cost (every decided frame pays for this).
    if grey is None:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    mask = line_mask(cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2),
                                interpolation=cv2.INTER_AREA))
    h, w = mask.shape
    near = cv2.dilate(mask, np.ones((2 * NEAR_LINE + 1,) * 2, np.uint8)) > 0
    segments = cv2.HoughLinesP(_pieces(mask), 1, np.pi / 180, 30,
                               minLineLength=PIECE * max(h, w), maxLineGap=10)
    if segments is None:
        return grey, mask, near, []
    seg = segments.reshape(-1, 4).astype(np.float64)
    return grey, mask, near, [_fit(g) for g in _groups(seg, min(h, w))]


def _best_quad(mask: np.ndarray, near: np.ndarray, lines: list[np.ndarray],
               die: float) -> np.ndarray | None:
    """Of the four lines crossing at four corners in the frame where the lines stop, the
    quadrilateral the printed line runs along best (at least SUPPORT of each side; `die`:
    a die's side at half resolution, 0 when none is known)."""
    h, w = near.shape
    pairs = _pairs(lines, min(h, w))
    found = []
    for i, ((a, b), u) in enumerate(pairs):
        for (c, d), v in pairs[i + 1:]:
            if not _across(u, v):
                continue
            quad = _quad(a, b, c, d, (w, h))
            if quad is not None and min(support := _support(near, quad)) >= SUPPORT:
                found.append((min(support), sum(support), quad))
    # the best supported first: its weakest side, then all its sides (the rail's edge and
    # the sides drawn on to it across the cloth are as good as the top side at their
    # weakest, a card on the bottom one); of equals, the last found
    for *_, quad in sorted(found[::-1], key=lambda f: (-f[0], -f[1])):
        if _stops(mask, quad, thin_px(die)):
            return quad
    return None


def _stops(mask: np.ndarray, quad: np.ndarray, thin: float) -> bool:
    """Does the printed line stop at each of the quadrilateral's corners (no side goes on
    beyond it as a thin line, as a side does beyond the stick's edge)?"""
    corners4 = np.repeat(quad, 2, axis=0)
    others = np.stack([np.roll(quad, 1, axis=0), np.roll(quad, -1, axis=0)], 1).reshape(-1, 2)
    away = corners4 - others
    return not goes_on(mask, corners4, away / np.hypot(*away.T)[:, None], thin).any()


def _pieces(mask: np.ndarray) -> np.ndarray:
    """The outlines of the long thin pieces of line in `mask` (a chip's marks and the felt's
    dots are not): long boxes that the line's pixels fill little (a line or a corner, or the
    whole printed outline, never a blob), or a straight piece along the rows or columns."""
    h, w = mask.shape
    out = np.zeros_like(mask)
    contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    for i, c in enumerate(contours):
        # a hole's outline, or too short a piece (its outline goes along it and back)
        if tree[0][i][3] >= 0 or len(c) < 2 * PIECE * max(h, w):
            continue
        x, y, bw, bh = cv2.boundingRect(c)
        if max(bw, bh) < PIECE * max(h, w):
            continue
        filled = _own_pixels(contours, tree[0], i)
        if filled <= THIN * bw * bh or filled <= WIDE_LINE * max(bw, bh):
            cv2.drawContours(out, [c], -1, 255, 1)
    return out


def _own_pixels(contours: Sequence[np.ndarray], tree: np.ndarray, i: int) -> float:
    """About how many pixels the piece of outline `i` (RETR_CCOMP's) has: its area less its
    holes', each outline's own pixels counted half. Not all the pixels of its box: chips'
    rings, dice and print inside a closed outline filled its box past THIN (a fresh
    first-generator frame, 846001 frame 6, by 7 px: a die off the outline was read)."""
    area = cv2.contourArea(contours[i]) + 0.5 * len(contours[i])
    hole = tree[i][2]
    while hole >= 0:
        area -= cv2.contourArea(contours[hole]) - 0.5 * len(contours[hole])
        hole = tree[hole][0]
    return area


Line = np.ndarray  # (x, y, vx, vy): a point and a unit direction
Pair = tuple[Line, Line]


def _pairs(lines: list[np.ndarray], short: int) -> list[tuple[Pair, float]]:
    """The pairs of lines that could be an outline's opposite sides: nearly parallel
    (within PARALLEL) and at least APART of the frame from each other; each with its
    direction (radians, modulo pi)."""
    return [((a, b), float(np.arctan2(a[3], a[2]) % np.pi))
            for i, a in enumerate(lines) for b in lines[i + 1:]
            if abs(a[2] * b[2] + a[3] * b[3]) >= np.cos(PARALLEL)
            and abs((b[:2] - a[:2]) @ [-a[3], a[2]]) >= APART * short]


def _across(u: float, v: float) -> bool:
    """Do two directions (radians, modulo pi) cross as an outline's sides do?"""
    return abs((u - v + np.pi / 2) % np.pi - np.pi / 2) >= CROSS


def _groups(seg: np.ndarray, short: int) -> list[np.ndarray]:
    """Segments grouped by the straight line they lie on: longest first, each later one
    joining the first group whose first segment's line both its ends lie within ON_LINE
    of the frame of (pieces of one printed side; the stick's edge beside it is its own).
    Which segment lies on which one's line is found for all pairs at once (the same float
    operations as pair by pair: the same groups on 1,922 development frames)."""
    order = np.argsort(-np.hypot(*(seg[:, 2:] - seg[:, :2]).T))
    a, b = seg[:, :2], seg[:, 2:]
    normal = np.stack([a[:, 1] - b[:, 1], b[:, 0] - a[:, 0]], 1) / np.hypot(*(b - a).T)[:, None]
    rel = seg.reshape(-1, 2, 2)[None] - a[:, None, None]     # segment i's line, k's ends
    dist = rel[..., 0] * normal[:, None, None, 0] + rel[..., 1] * normal[:, None, None, 1]
    on = np.all(np.abs(dist) < ON_LINE * short, axis=2).tolist()   # on[i][k]
    heads: list[int] = []
    groups: list[list[int]] = []
    for k in order.tolist():
        home = next((g for h, g in zip(heads, groups) if on[h][k]), None)
        if home is None:
            heads.append(k)
            groups.append([k])
        else:
            home.append(k)
    return [seg[g] for g in groups]


def _quad(a: Line, b: Line, c: Line, d: Line, size: tuple[int, int]) -> np.ndarray | None:
    """The quadrilateral two pairs of lines make, if it lies in the frame and covers a
    sensible part of it."""
    w, h = size
    quad = np.array([cross(a, c), cross(c, b), cross(b, d), cross(d, a)])
    if not np.all(np.isfinite(quad)) or np.any(quad < -2) or np.any(quad > [w + 1, h + 1]):
        return None
    quad = order_corners(quad)
    return quad if sensible_area(cv2.contourArea(quad), (h, w)) else None


def _fit(seg: np.ndarray) -> np.ndarray:
    """A line (point, direction) through segments' points, sampled every 4 px (a long
    segment counts for more)."""
    n = np.maximum(2, (np.hypot(*(seg[:, 2:] - seg[:, :2]).T) / 4).astype(int))
    which = np.repeat(np.arange(len(seg)), n)
    t = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)) / np.repeat(n - 1, n)
    pts = seg[which, :2] + (seg[which, 2:] - seg[which, :2]) * t[:, None]
    vx, vy, x, y = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x, y, vx, vy], np.float64)


def _support(near: np.ndarray, quad: np.ndarray) -> list[float]:
    """The share of each side the printed line runs along (within NEAR_LINE px)."""
    h, w = near.shape
    t = np.linspace(0.0, 1.0, 64)[:, None]
    shares = []
    for a, b in zip(quad, np.roll(quad, -1, axis=0)):
        pts = np.rint(a + (b - a) * t).astype(int)
        x, y = np.clip(pts[:, 0], 0, w - 1), np.clip(pts[:, 1], 0, h - 1)
        shares.append(float(near[y, x].mean()))
    return shares


def _full(p: np.ndarray) -> np.ndarray:
    """Half-resolution px to full resolution: a pixel's centre x is at (x + 0.5) * 2 - 0.5."""
    return 2 * p + 0.5


def _apart(line: np.ndarray, points: list[np.ndarray]) -> list[float]:
    """How far (px) each point lies from the line (x, y, vx, vy), signed by its side."""
    return [float((p - line[:2]) @ [-line[3], line[2]]) for p in points]


def _outside(quad: np.ndarray, centre: list[float]) -> float:
    """How far (px) a point lies outside the quadrilateral; negative inside."""
    contour = quad.reshape(-1, 1, 2).astype(np.float32)
    return -float(cv2.pointPolygonTest(contour, (float(centre[0]), float(centre[1])), True))

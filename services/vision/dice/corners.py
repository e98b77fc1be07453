"""The printed landing-area outline's corners, when no whole outline is in view.

A zoomed camera sees part of the outline (a corner, or three sides of it), and a side in a
shadow or under a card may be too faint to close it. A corner is still the area's: two of
the thin printed lines crossing (70 degrees or more) where the line runs along one way of
each (its arm, from the corner on) and stops (the line does not go on beyond the corner: a
printed line crossing another, or the stick's edge meeting a side, is no corner). The
area lies on the side of each arm's line that the other arm is on: by the outline's
convexity a die beyond either line, on the side away from the other arm, is off it, and a
roll with a die off the layout is void (seed 000 §3.1.5, «caen fuera de la mesa»). A side
crossing the whole view (`across_view`) has the area on one side of it, whichever.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# An arm: the printed line (within the `near` mask) along at least this share of the way
# from the corner, over at least ARM of the frame's longer side (a card or a chip on it
# still leaves most of it; the stick's hook is far shorter).
ARM_SHARE = 0.6
ARM = 0.15
# Beyond a corner, from GAP px (clear of the other line) over EXTEND px along each line:
# the printed line on at most this share of it (it stops at the corner).
GAP = 8
EXTEND = 12
STOPS = 0.5
STEP = 2.0              # px between samples along a ray
# A side of the outline crossing the whole view (a zoomed frame): its line along this share
# of the way from one edge of the frame to another (dice, chips or a card on it).
ACROSS_SHARE = 0.7
# A corner is a right angle on the table: the generators' cameras (tilted up to 32 degrees)
# see it at 80 degrees or more; two printed lines of the layout may meet at any angle.
SQUARE = np.radians(70)
# The landing area's outline is a thin line (0.7 mm: a twentieth of a die): an arm's line,
# or one across the view, is at most THIN_FWHM of a die wide where it is at least half as
# bright over the cloth as at its middle (at full resolution, a median along it; on
# development frames the outline's 0.02-0.12, the foreign renderer's layout lines 0.14-0.36
# but one at 0.1). The layout's broad lines (the pass line, the bets' boxes: 3-7 mm) meet
# at corners and cross the view too, and a roll lies across them. Motion blur widens the
# outline: until stop 31 this was 0.12, and fresh seeds' frames with a die off the area were
# decided with their outline at 0.13-0.15 (first 998001 164, wide 1019001 119, solid 1001001
# 230: 0.142-0.153); at 0.15 no development frame changed, at 0.17 three TUNING frames were
# refused for a layout line's corner.
THIN_FWHM = 0.15
LINE_CONTRAST = 8       # grey levels over the cloth: a line is there
WIDTHS = 24             # places along a line its width is measured at
# Beyond a corner a line goes on as a thin run of line pixels at half resolution: at most
# THIN_LINE px + THIN_DIE die sides wide (a chip's ring, a die or the stick is wider).
THIN_LINE = 2
THIN_DIE = 0.08
ACROSS = 7              # px either side of a ray looked at
ON = 2                  # px across a ray within which the line is on it
PROFILES = 40           # points along a ray looked across at most
_ACROSS = np.arange(-ACROSS, ACROSS + 1)[None, :, None]
_NEAREST = ACROSS + np.array([0, -1, 1, -2, 2])  # the pixel on the ray, then the nearest


@dataclass(frozen=True)
class Corner:
    """Where two sides cross (half-resolution px) and each side's inward normal (unit)."""
    at: np.ndarray
    inward: tuple[np.ndarray, np.ndarray]

    def outside(self, point: np.ndarray) -> float:
        """How far (px) `point` lies beyond either side, on the side away from the area."""
        return max(float(-(point - self.at) @ n) for n in self.inward)


def corners(grey: np.ndarray, mask: np.ndarray, near: np.ndarray, lines: list[np.ndarray],
            die: float, worth: Callable[[np.ndarray], bool] = lambda _: True) -> list[Corner]:
    """The outline's corners among `lines` (x, y, vx, vy) of the line pixels `mask` (`near`:
    the pixels near them) of the frame `grey` at half resolution, each pair crossing at
    SQUARE or more: a thin arm along one way of each line and the line stopping the other
    way (`die`: a die's side, px at half resolution). Only corners with a line `worth`
    looking at (one that could have a die off it and the other not) are looked for."""
    h, w = near.shape
    look = _Look(grey, mask, near, die)
    found = []
    for i, a in enumerate(lines):
        for b in lines[i + 1:]:
            sin = abs(a[2] * b[3] - a[3] * b[2])
            if sin < np.sin(SQUARE):
                continue
            at = cross(a, b)
            if not (0 <= at[0] < w and 0 <= at[1] < h) or not (worth(a) or worth(b)):
                continue
            way_a = look.way(at, a[2:])
            way_b = None if way_a is None else look.way(at, b[2:])
            if way_a is None or way_b is None:
                continue
            # each side's inward normal points where the other side's arm goes
            found.append(Corner(at, (_toward(a[2:], way_b), _toward(b[2:], way_a))))
    return found


def across_view(grey: np.ndarray, mask: np.ndarray, near: np.ndarray,
                lines: list[np.ndarray], die: float) -> list[np.ndarray]:
    """The lines (x, y, vx, vy) among `lines` along which a thin printed line crosses the
    whole view, from one edge of the frame to another (at ACROSS_SHARE of the way; see
    `corners` for the rest)."""
    h, w = near.shape
    look = _Look(grey, mask, near, die)
    found = []
    for line in lines:
        p, d = line[:2], line[2:]
        with np.errstate(divide="ignore", invalid="ignore"):
            ends = np.sort(np.stack([(0 - p) / d, ([w - 1, h - 1] - p) / d]), axis=0)
        t0, t1 = np.nanmax(ends[0]), np.nanmin(ends[1])
        if t1 - t0 < look.arm:
            continue
        hits = _samples(near, p + t0 * d, d, 0.0, t1 - t0)
        if hits.mean() >= ACROSS_SHARE and look.thin(p + t0 * d, d, t1 - t0):
            found.append(line)
    return found


@dataclass(frozen=True)
class _Look:
    """The frame (`grey`, full resolution) and its line pixels at half resolution (`mask`,
    `near`: within NEAR_LINE of them) looked at along rays (half-resolution px)."""
    grey: np.ndarray
    mask: np.ndarray
    near: np.ndarray
    die: float      # px: a die's side at half resolution

    @property
    def arm(self) -> float:
        """An arm's least length (px)."""
        return ARM * max(self.near.shape)

    def way(self, at: np.ndarray, d: np.ndarray) -> np.ndarray | None:
        """The direction along `d` (either way) the line's arm goes from `at`, if it goes
        one way only and stops the other."""
        reach = [self.reach(at, d), self.reach(at, -d)]
        arms = [r >= self.arm for r in reach]
        if arms[0] and arms[1]:  # one of them may be no thin line (a chip's marks)
            arms = [self.thin(at, d, reach[0]), self.thin(at, -d, reach[1])]
        if arms[0] == arms[1]:
            return None
        way, r = (d, reach[0]) if arms[0] else (-d, reach[1])
        if goes_on(self.mask, at[None], -way[None], thin_px(self.die))[0] or \
                not self.thin(at, way, r):
            return None
        return way

    def reach(self, at: np.ndarray, d: np.ndarray) -> float:
        """How far (px) from `at` along `d` the line runs at ARM_SHARE or more of the way."""
        # from GAP on: nearer, the other side's line is near it too
        hits = _samples(self.near, at, d, GAP, float(np.hypot(*self.near.shape)))
        share = np.cumsum(hits) / np.arange(1, len(hits) + 1)
        far = np.flatnonzero(share >= ARM_SHARE)
        return GAP + STEP * float(far[-1]) if len(far) else 0.0

    def thin(self, at: np.ndarray, d: np.ndarray, reach: float) -> bool:
        """Is the line from `at` along `d` over `reach` px thin (see THIN_FWHM)?"""
        width = _widths(self.grey, 2 * (at + np.linspace(GAP, reach, WIDTHS)[:, None] * d)
                        + 0.5, d, 2 * self.die)
        return len(width) > 0 and float(np.median(width)) <= THIN_FWHM * 2 * self.die


def _samples(near: np.ndarray, at: np.ndarray, d: np.ndarray, start: float,
             stop: float) -> np.ndarray:
    """`near` along the ray from `at` in direction `d`, from `start` to `stop` px (or the
    frame's edge)."""
    h, w = near.shape
    t = np.arange(start, stop, STEP)
    pts = np.rint(at + t[:, None] * d).astype(int)
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    pts = pts[: np.argmin(inside) if not inside.all() else len(pts)]
    return near[pts[:, 1], pts[:, 0]]


def _profile(mask: np.ndarray, at: np.ndarray, way: np.ndarray, start: float,
             stop: float) -> tuple[np.ndarray, np.ndarray]:
    """Along rays from the points `at` in the directions `way` (R x 2 each), from `start`
    to `stop` px (at most PROFILES points): at each point (R x N), is the line there (within
    ON px across; a point beyond the frame: no), and how wide (px) is the run of its pixels
    across the ray through the one nearest it."""
    h, w = mask.shape
    t = np.arange(start, stop, STEP)
    if len(t) > PROFILES:
        t = np.linspace(start, stop, PROFILES)
    way = way[:, None, None, :]
    normal = np.stack([-way[..., 1], way[..., 0]], axis=-1)
    pts = np.rint(at[:, None, None, :] + t[None, :, None, None] * way + _ACROSS * normal)
    x, y = pts[..., 0].astype(np.intp), pts[..., 1].astype(np.intp)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)  # beyond the frame's edge: no line
    line = (mask[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] > 0) & inside
    before, after = _runs(line)
    near = line[..., _NEAREST]
    nearest = _NEAREST[near.argmax(axis=-1)][..., None]
    run = (np.take_along_axis(after, nearest, -1) - np.take_along_axis(before, nearest, -1))
    on = near.any(axis=-1) & inside[..., ACROSS]
    return on, np.where(on, run[..., 0] - 1, 0)


def _widths(grey: np.ndarray, pts: np.ndarray, d: np.ndarray, die: float) -> np.ndarray:
    """The width (px) of the light line through each of the points `pts` (full resolution)
    along the direction `d`: across it, the run about its brightest pixel (within 3 px)
    brighter than halfway from the cloth (either end's median) to it; where the line shows
    LINE_CONTRAST or more over the cloth, the whole run in the frame."""
    h, w = grey.shape
    reach = max(8, round(die / 2))
    across = np.arange(-reach, reach + 1)
    q = np.rint(pts[:, None, :] + across[None, :, None] * [-d[1], d[0]]).astype(np.intp)
    inside = ((q >= 0) & (q < [w, h])).all(axis=(1, 2))
    v = grey[q[inside, :, 1], q[inside, :, 0]].astype(np.float32)
    rows = np.arange(len(v))
    middle = reach - 3 + np.argmax(v[:, reach - 3:reach + 4], axis=1)
    peak = v[rows, middle]
    end = max(1, reach // 3)
    cloth = np.median(np.concatenate([v[:, :end], v[:, -end:]], axis=1), axis=1)
    line = v > ((peak + cloth) / 2)[:, None]
    gaps = _runs(line)
    before, after = (g[rows, middle] for g in gaps)
    width = after - before - 1
    whole = (before >= 0) & (after < v.shape[1])
    return np.asarray(width[(peak - cloth >= LINE_CONTRAST) & whole])


def goes_on(mask: np.ndarray, at: np.ndarray, d: np.ndarray, thin: float) -> np.ndarray:
    """Does a thin line (at most `thin` px wide) go on from each point `at` along `d` (R x 2
    each: beyond a corner)? A die, a chip or a card just beyond it is no thin line; out of
    the frame: no."""
    on, width = _profile(mask, at, d, GAP, GAP + EXTEND)
    return np.asarray(np.mean(on & (width <= thin), axis=1) > STOPS)


def _toward(d: np.ndarray, way: np.ndarray) -> np.ndarray:
    """The unit normal of a line along `d` pointing the way `way` goes."""
    n = np.array([-d[1], d[0]])
    return n if n @ way > 0 else -n


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two lines (x, y, vx, vy) cross (inf when parallel)."""
    m = np.array([[a[2], -b[2]], [a[3], -b[3]]])
    if abs(np.linalg.det(m)) < 1e-6:
        return np.array([np.inf, np.inf])
    t = np.linalg.solve(m, b[:2] - a[:2])[0]
    return np.asarray(a[:2] + t * a[2:])


def thin_px(die: float) -> float:
    """A thin run of line pixels' most width (px at half resolution; `die`: a die's side
    there, 0 when none is known)."""
    return THIN_LINE + THIN_DIE * die


def _runs(line: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Along the last axis of `line` (bool), for each place the last gap before it and the
    first gap after it (-1 and the length where there is none): a line pixel's run lies
    between them."""
    k = np.arange(line.shape[-1])
    before = np.maximum.accumulate(np.where(line, -1, k), axis=-1)
    after = np.minimum.accumulate(np.where(line, len(k), k)[..., ::-1], axis=-1)[..., ::-1]
    return before, after

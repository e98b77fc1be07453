"""Look at the wheel in its own coordinates and take away what it should look like.

A wheel is built from repeats: the pocket ring repeats every pocket (frets, pocket bottoms),
the bowl repeats every quarter turn (deflectors alternate along/across the track every 45
degrees, so a quarter holds one of each). Sampling the "whiteness" (the darkest channel,
high only for neutral bright things such as the ball) on a grid that follows the rotor's
pockets - rows by radius, columns by position around, through the fitted rotor warp - and
subtracting the median over the repeats leaves what does not belong to the wheel: the ball,
a streak, glare, a hand. Lighting varies smoothly around the wheel, so each repeat is first
scaled by its own level (a per-block gain). Cells are ~0.008 rotor radii on both axes.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from services.vision.stats import median
from services.vision.wheel.geometry import NOMINAL
from services.vision.wheel.harmonics import Basis, robust_fit
from services.vision.wheel.locate import Ellipse, cos_sin, remap
from services.vision.wheel.rotor import RotorReading

CELL = 0.008                                   # rotor radii per row (and ~per column)
PER_POCKET = 16                                # columns per pocket in the pocket strip
POCKET_ROWS = np.arange(0.62, 0.885, CELL)     # pocket ring with a margin on both sides
BOWL_ROWS = np.arange(1.02, 1.468, CELL)       # lower track and ball track, up to the rim
BOWL_COLS = 900                                # 0.4 degree: ~CELL at the track
BOWL_REPEATS = 4                               # a quarter turn holds one deflector of each kind
BOWL_GAIN_BLOCKS = 36                          # 10 degrees


@dataclass(frozen=True)
class Strip:
    values: np.ndarray     # rows (radius) x columns (around), whiteness, float32
    residual: np.ndarray   # values minus the expected repeating pattern
    bright: np.ndarray     # what the spots are looked for in: the residual, or for the
                           # bowl the values minus the brightest expected value within 3 rows
                           # (the rim and track edges are circles the perspective may shift
                           # by a cell; seen a row aside they would leave long bright lines)
    rows: np.ndarray       # radius of each row, rotor radii
    positions: np.ndarray  # position of each column: pockets (pocket strip) or degrees (bowl)
    mx: np.ndarray         # frame coordinates of every cell, for drawing evidence
    my: np.ndarray

    @cached_property
    def noise(self) -> float:
        """The residual's noise level (1.48 median absolute value, at least 2 grey levels),
        taken once: the spot finders and the arm check all need it."""
        return max(median(self.abs_residual) * 1.48, 2.0)

    @cached_property
    def abs_residual(self) -> np.ndarray:
        """|residual|, taken once (the noise level and the near-peak noise use it). Read only."""
        return np.abs(self.residual)

    @cached_property
    def smoothed(self) -> tuple[np.ndarray, np.ndarray]:
        """`bright` wrapped by `SPOT_PAD` columns on both sides, and that blurred a little
        (sigma 1.2 cells): where `spots` looks for peaks. Taken once: the pocket strip is
        searched twice on a frame with no ball at rest (for the ball, then for glare).
        Read only."""
        res = self.bright
        padded = np.concatenate([res[:, -SPOT_PAD:], res, res[:, :SPOT_PAD]], 1)
        return padded, cv2.GaussianBlur(padded, (0, 0), 1.2)


def whiteness(bgr: np.ndarray) -> np.ndarray:
    """Darkest channel: high only where all three are high (white ball, glare, silver).
    The channels split into contiguous planes first (cv2.min on the strided views copies
    each one: 31 against 24 us on the pocket strip)."""
    b, g, r = cv2.split(bgr)
    return cv2.min(cv2.min(b, g), r)


def _median_axis1(x: np.ndarray) -> np.ndarray:
    """Median over axis 1 (lower middle for an even count): a partition, not a sort."""
    m = (x.shape[1] - 1) // 2
    return np.partition(x, m, axis=1)[:, m]


def smooth_gain(values: np.ndarray, blocks: int) -> np.ndarray:
    """Per-column lighting level: block medians fitted with a few harmonics around the wheel.
    Lighting changes slowly around it; red/black pockets, a glare spot or a hand do not,
    so a robust low-order fit keeps the first and ignores the others."""
    rows, cols = values.shape
    per_block = values.reshape(rows, blocks, cols // blocks).transpose(1, 0, 2)
    med = _median_axis1(per_block.reshape(blocks, -1))
    level = median(med)
    fit = robust_fit(_around(blocks), med, [c * level for c in (0.5, 0.3, 0.2)], 6)
    coef = fit[0] if fit is not None else np.array([level, 0, 0, 0, 0])
    return np.maximum(_around(cols).evaluate(coef), 1.0).astype(np.float32)[None, :]


@lru_cache(maxsize=16)
def _around(n: int) -> Basis:
    """The centres of n equal parts of a turn (radians), as a fitting basis."""
    return Basis((np.arange(n) + 0.5) * 2 * np.pi / n)


def expected_pattern(values: np.ndarray, repeats: int, gain_blocks: int) -> np.ndarray:
    """Median over the repeats of the lighting-normalised pattern, times the lighting."""
    rows, cols = values.shape
    gain = smooth_gain(values, gain_blocks)
    norm = (values / gain).reshape(rows, repeats, cols // repeats)
    middle = _lower_middle_of_4(norm) if repeats == 4 else _median_over_repeats(norm)
    # np.tile: the same copies as concatenating `repeats` of them, quicker for the pocket
    # strip's 37-38 (not for the bowl's 4)
    tiled = np.tile(middle, (1, repeats)) if repeats > 4 else np.concatenate([middle] * repeats, 1)
    return tiled * gain


def _median_over_repeats(x: np.ndarray) -> np.ndarray:
    """`_median_axis1` of rows x repeats x columns, partitioned along the last axis of a
    transposed copy (numpy's partition along a middle axis cost 40 % more, along the last
    axis of the transposed view 30 % more than copy and partition)."""
    m = (x.shape[1] - 1) // 2
    return np.partition(np.ascontiguousarray(x.transpose(0, 2, 1)), m, axis=2)[:, :, m]


def _lower_middle_of_4(x: np.ndarray) -> np.ndarray:
    """`_median_axis1` for 4 along axis 1 (the bowl's quarter turns): the second smallest,
    min(max(lower of each pair), min(higher of each pair)); np.partition along so short an
    axis cost 20x more (0.95 ms on the bowl strip)."""
    a, b, c, d = x[:, 0], x[:, 1], x[:, 2], x[:, 3]
    return np.minimum(np.maximum(np.minimum(a, b), np.minimum(c, d)),
                      np.minimum(np.maximum(a, b), np.maximum(c, d)))


_ROW_NEIGHBOURS = np.ones((7, 1), np.uint8)  # +-3 rows: the perspective moves circles ~2%


def _strip(values, repeats, gain_blocks, rows, positions, mx, my, radial_slack: bool) -> Strip:
    """A pocket strip must not get slack across columns: a ball on a fret would lose the
    part over the fret and seem to sit beside it."""
    expected = expected_pattern(values, repeats, gain_blocks)
    residual = values - expected
    bright = values - cv2.dilate(expected, _ROW_NEIGHBOURS, borderType=cv2.BORDER_REPLICATE) \
        if radial_slack else residual
    return Strip(values, residual, bright, rows, positions, mx, my)


def _sample(frame: np.ndarray, ell: Ellipse, rotor: RotorReading, k: np.ndarray,
            rows: np.ndarray):
    """Whiteness at the grid points: positions `k` around the rotor (through the bend) at
    true radii `rows` (sampled in colour, then reduced: cheaper than reducing the whole
    frame first)."""
    theta = rotor.angle_grid(k, rows)
    cs = cos_sin(theta)  # once for the radius correction and the sampling grid
    mx, my = ell.points(theta, rotor.radius_grid(theta, rows, cs), cs)
    bgr = remap(frame, mx, my)
    return whiteness(bgr).astype(np.float32), mx, my


def pocket_strip(frame: np.ndarray, ell: Ellipse, rotor: RotorReading) -> Strip:
    n = rotor.layout.n
    pos = (np.arange(n * PER_POCKET) + 0.5) / PER_POCKET - 0.5
    vals, mx, my = _sample(frame, ell, rotor, pos, POCKET_ROWS)
    return _strip(vals, n, n, POCKET_ROWS, pos, mx, my, radial_slack=False)


def bowl_strip(frame: np.ndarray, ell: Ellipse, rotor: RotorReading) -> Strip:
    deg = (np.arange(BOWL_COLS) + 0.5) * 360.0 / BOWL_COLS
    vals, mx, my = _sample(frame, ell, rotor, deg / rotor.layout.pitch, BOWL_ROWS)
    return _strip(vals, BOWL_REPEATS, BOWL_GAIN_BLOCKS, BOWL_ROWS, deg, mx, my, radial_slack=True)


@dataclass(frozen=True)
class Spot:
    """A bright thing left over in a strip."""
    col: float        # centroid column (may be outside 0..cols-1 near the wrap: use `position`)
    row: float
    position: float   # pockets (pocket strip) or degrees (bowl strip), wrapped
    r: float          # rotor radii
    peak: float       # brightness above the wheel at the peak, grey levels
    contrast: float   # peak / noise level of the strip
    area: float       # cells above half the peak, in ball areas
    elongation: float  # major / minor axis of that region
    edge: bool        # the region touches the top or bottom row (cut off)
    reference: float  # how far the brightest parts of the wheel nearby (frets, ring lines)
                      # stand above its darkest (pocket floors), grey levels
    top: float = 0.0    # ... those brightest parts (97th percentile), grey levels
    floor: float = 0.0  # ... and the pocket floors (30th percentile)
    value: float = 0.0  # the whiteness at the spot's centre, grey levels

    @property
    def whiteness(self) -> float:
        """Peak over `reference`: a ball is at least about as white as polished frets; a
        blurred streak, a reflection on paint or a skin tone is much less."""
        return self.peak / max(self.reference, 10.0)

    @property
    def brightness(self) -> float:
        """The spot's own whiteness over the frets' nearby: a ball is about as bright."""
        return self.value / max(self.top, 10.0)

    @property
    def floor_level(self) -> float:
        """Pocket floors (30th percentile nearby) over the frets: mostly under 0.5 on
        coloured pockets (0.57 at most on 376 balls of tuning frames), up to 0.82 on plain
        silver ones (where a ball stands out less above them: `whiteness` is lower)."""
        return self.floor / max(self.top, 10.0)


BALL_CELLS = np.pi * (NOMINAL.ball / CELL) ** 2
_PEAK_KERNEL = np.ones((5, 5), np.uint8)  # a peak is the largest within +-2 cells
SPOT_PAD = 24  # columns a strip is wrapped by before its peaks are looked for


def spots(strip: Strip, per_unit: float, period: float, max_spots: int = 4,
          r_range: tuple[float, float] = (0.0, 9.0), local: bool = False,
          local_noise: bool = False, min_contrast: float = 4.0,
          fine: Callable[[Spot], bool] | None = None) -> list[Spot]:
    """Bright leftovers in a strip, strongest first. `per_unit`: columns per position unit
    (per pocket or per degree); `period`: positions wrap at this value (n or 360); peaks
    only at radii within `r_range` and over `min_contrast` times the noise. `local`:
    measured against their surroundings (a broad lamp reflection on the track then no
    longer outshines the ball in it). `fine`: which ball-sized spots get the finer
    measures (centre by mean shift, the frets nearby: `_spot`), judged on the coarse ones
    (peak, contrast, area, elongation, edge); the others keep the centroid and no
    reference, as spots too big or too small do. None: all of them. A caller that will
    refuse a spot on its coarse measures anyway saves their cost (a third of a no-ball
    frame's bowl strip)."""
    cols = strip.bright.shape[1]
    pad = SPOT_PAD
    padded, sm = strip.smoothed
    if local:
        sm = sm - _background(padded)
    peaks = (sm >= cv2.dilate(sm, _PEAK_KERNEL)) & (sm > 12)
    peaks[:, :pad] = False
    peaks[:, pad + cols:] = False
    peaks[(strip.rows < r_range[0]) | (strip.rows > r_range[1]), :] = False
    # np.nonzero's indices, in its order, from the flat ones (numpy's 2-D nonzero took
    # 100 us on a 34 x 640 strip, the 1-D one and a divmod 16-19)
    ys, xs = np.divmod(np.flatnonzero(peaks), peaks.shape[1])
    noise = _Noise(strip.abs_residual, strip.noise, per_unit, local_noise)
    strong = sm[ys, xs]
    # a peak over k times the strip's noise stands over k times any lower noise near it:
    # the local noise is needed only for the weaker ones (and for the kept peaks' contrast)
    weak = strong <= np.float32(min_contrast) * np.float32(noise.whole)
    if weak.any():
        keep = ~weak
        keep[weak] = strong[weak] > np.float32(min_contrast) * noise.at(xs[weak] - pad)
        ys, xs = ys[keep], xs[keep]
    kept = _one_per_region(sm, ys, xs, max_spots)
    levels = noise.at(np.array([x - pad for _, x in kept], np.intp))
    return [_spot(strip, sm, x, y, pad, per_unit, period, float(level), fine)
            for (y, x), level in zip(kept, levels)]


_BATCH_BLOCKS = 6  # from this many blocks at once, one partition of them all is quicker


class _Noise:
    """Noise level at strip columns: the whole strip's (1.48 median absolute residual), or,
    `local`, lower where the strip nearby is quieter (the median over +-3 units, taken at
    every unit and interpolated between), as glare makes parts of a silver ring noisy.
    The medians near a column are taken only when asked for: a frame needs a few of them
    (the peaks under 4 times the strip's noise, and the kept ones), not all 37."""

    def __init__(self, a: np.ndarray, whole: float, per_unit: float, local: bool) -> None:
        """`a`: the strip's absolute residual."""
        self.whole = whole
        self.local = local
        if not local:
            return
        self.cols = a.shape[1]
        self.step = max(int(round(per_unit)), 1)
        self.half = 3 * self.step
        self.centres = np.arange(0, self.cols, self.step)
        # columns contiguous, wrapped by `half` on both sides: a block is one slice
        by_col = a.T
        self._by_col = np.empty((self.cols + 2 * self.half, a.shape[0]), a.dtype)  # C order
        np.concatenate([by_col[-self.half:], by_col, by_col[:self.half]], out=self._by_col)
        # the medians at the centres, and the first again one turn on (np.interp's nodes)
        self._nodes = np.concatenate([self.centres, self.centres[:1] + self.cols])  # = np.append
        self._blocks = np.zeros(len(self.centres) + 1, np.float32)
        self._done = np.zeros(len(self.centres), bool)

    def _block(self, j: int) -> float:
        c = int(self.centres[j])  # columns c - half .. c + half - 1 (wrapped)
        return _median_float(self._by_col[c:c + 2 * self.half]) * 1.48

    def _block_medians(self, js: np.ndarray) -> np.ndarray:
        """`_block` of several blocks, in one partition of their stacked copies (the same
        order statistics, so the same values: a frame needs ~10-25 of them)."""
        width = 2 * self.half
        starts = self.centres[js].astype(np.intp)
        stack = self._by_col[starts[:, None] + np.arange(width)].reshape(len(js), -1)
        h = stack.shape[1] // 2
        stack.partition(h, axis=1)
        if stack.shape[1] % 2:
            med = stack[:, h]
        else:
            med = (np.maximum.reduce(stack[:, :h], 1) + stack[:, h]) / 2
        return med.astype(np.float64) * 1.48

    def at(self, xs: np.ndarray) -> np.ndarray:
        """Noise at strip columns `xs` (0..cols-1), float32."""
        if not self.local:
            return np.full(len(xs), self.whole, np.float32)
        n = len(self.centres)
        need: list[int] = []
        for lo in set((xs // self.step).tolist()):
            for j in (lo, (lo + 1) % n):
                if not self._done[j] and j not in need:
                    need.append(j)
        if len(need) >= _BATCH_BLOCKS:
            js = np.array(need)
            self._blocks[js] = self._block_medians(js)
            self._done[js] = True
        else:
            for j in need:
                self._blocks[j] = self._block(j)
                self._done[j] = True
        self._blocks[n] = self._blocks[0]
        near = np.interp(xs, self._nodes, self._blocks)
        return np.minimum(np.maximum(near, 2.0), self.whole).astype(np.float32)


def _median_float(x: np.ndarray) -> float:
    """`stats.median` of a float array, the same steps without their wrappers (a frame
    takes ~20 of these near-peak medians)."""
    part = x.ravel().copy()
    h = part.size // 2
    part.partition(h)
    if part.size % 2:
        return float(part[h])
    return float((np.maximum.reduce(part[:h]) + part[h]) / 2)


_FILL = 8 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (1 << 8)


def _one_per_region(sm: np.ndarray, ys: np.ndarray, xs: np.ndarray,
                    max_spots: int) -> list[tuple[int, int]]:
    """The strongest peaks, one per bright region: a peak inside the region above half a
    stronger kept peak (the region its spot is measured on) is a bump on that spot, not
    another one. Around a dark green zero among plain silver pockets the local measure leaves
    a plateau of many ball areas whose bumps had taken all the places, leaving none for
    the ball."""
    mask = np.zeros((sm.shape[0] + 2, sm.shape[1] + 2), np.uint8)
    kept: list[tuple[int, int]] = []
    for i in np.argsort(-sm[ys, xs]):
        y, x = int(ys[i]), int(xs[i])
        if mask[y + 1, x + 1]:
            continue
        kept.append((y, x))
        if len(kept) == max_spots:
            break
        peak = float(sm[y, x])
        cv2.floodFill(sm, mask, (x, y), 0, 0.5 * peak, float("inf"), _FILL)
    return kept


# Surroundings of a spot: a blur 3 ball radii wide (sigma 13.5 cells). Two box passes of
# width 33 have that sigma (2 (w^2 - 1) / 12 = 13.5^2) and cost a fifth of the Gaussian
# (three passes of width 27 until the eighth round: a third less time, a triangular kernel
# instead of a near-Gaussian one of the same width).
_BOX = int(round(np.sqrt(6 * (3 * NOMINAL.ball / CELL) ** 2 + 1))) | 1


def _background(x: np.ndarray) -> np.ndarray:
    for _ in range(2):
        x = cv2.blur(x, (_BOX, _BOX))
    return x


SPOT_WINDOW = 40  # columns either side of a peak examined for its extent
_REGION = 8 | cv2.FLOODFILL_MASK_ONLY | (1 << 8)  # 8-connected, the region marked 1
BALL_SIZED = (0.3, 2.5)  # areas (in ball areas) worth locating precisely


def _spot(strip, sm, x, y, pad, per_unit, period, noise, fine=None) -> Spot:
    peak = float(sm[y, x])
    x0 = max(0, x - SPOT_WINDOW)
    win = sm[:, x0:x + SPOT_WINDOW + 1]
    # the region above half the peak that holds it: its size, weighted centroid and spread
    # (8-connected; filled from the peak rather than labelling every region in the window)
    above = np.greater_equal(win, 0.5 * peak).view(np.uint8)  # 0/1, no copy
    mask = np.zeros((above.shape[0] + 2, above.shape[1] + 2), np.uint8)
    count, _, _, (_, top, _, height) = cv2.floodFill(above, mask, (x - x0, y), 1, 0, 0, _REGION)
    # the window's values in the region, zero elsewhere (cv2.copyTo zeroes the new array
    # outside the mask: np.where's values in a third of its time), float32
    m = cv2.moments(cv2.copyTo(win, mask[1:-1, 1:-1]))
    tot = max(m["m00"], 1e-9)
    cx, cy = m["m10"] / tot + x0, m["m01"] / tot
    sxx, syy, sxy = m["mu20"] / tot, m["mu02"] / tot, m["mu11"] / tot
    half_tr, disc = (sxx + syy) / 2, np.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2)
    elong = float(np.sqrt(max(half_tr + disc, 1e-6) / max(half_tr - disc, 1e-6)))
    area = float(count) / BALL_CELLS
    col, top_floor, value = cx - pad, (float("inf"), 0.0), 0.0
    edge = bool(top == 0 or top + height == sm.shape[0])
    # the finer measures only for ball-sized spots (and those the caller may still want)
    if BALL_SIZED[0] <= area <= BALL_SIZED[1] and (fine is None or fine(
            _coarse(strip, col, cy, per_unit, period, peak, noise, area, elong, edge))):
        col, cy = _centre(strip.values, col, cy)
        top_floor = _reference(strip, col, cy, int(round(per_unit)))
        value = float(strip.values[min(max(int(round(cy)), 0), strip.values.shape[0] - 1),
                                   int(round(col)) % strip.values.shape[1]])
    row_r = _row_radius(strip.rows, cy)
    pos = (col / per_unit + strip.positions[0]) % period
    return Spot(col, cy, pos, row_r, peak, peak / noise, area, elong, edge,
                top_floor[0] - top_floor[1], top_floor[0], top_floor[1], value)


def _row_radius(rows: np.ndarray, cy: float) -> float:
    """`np.interp(cy, np.arange(len(rows)), rows)`, as numpy computes it (its slope over
    a unit step, clamped at the ends), without its wrapper: a frame asks ~10 times."""
    last = len(rows) - 1
    if cy <= 0:
        return float(rows[0])
    if cy >= last:
        return float(rows[last])
    j = int(cy)
    low = float(rows[j])
    return low if cy == j else (float(rows[j + 1]) - low) * (cy - j) + low


def _coarse(strip, col, cy, per_unit, period, peak, noise, area, elong, edge) -> Spot:
    """The spot as measured before its finer measures (what `spots(fine=...)` judges)."""
    row_r = _row_radius(strip.rows, cy)
    pos = (col / per_unit + strip.positions[0]) % period
    return Spot(col, cy, pos, row_r, peak, peak / noise, area, elong, edge, float("inf"))


_BALL_CELLS_R = NOMINAL.ball / CELL
_WIN = int(np.ceil(2.5 * _BALL_CELLS_R))
_WY, _WX = np.mgrid[-_WIN:_WIN + 1, -_WIN:_WIN + 1].astype(np.float64)
_WX_ROW, _WY_COL = _WX[:1], _WY[:, :1]
_KERNEL_R = 0.8 * _BALL_CELLS_R + 0.5  # mean-shift window, narrower than the ball
_W1XY = np.stack([np.ones_like(_WX), _WX, _WY])  # 1, x, y over the window (3 x window)


def _centre(values: np.ndarray, col: float, row: float) -> tuple[float, float]:
    """The ball's centre near (col, row): a mean shift of the whiteness above the pocket
    floor, in a window narrower than the ball. Measured on the values, not the residual: a
    fret under the ball is subtracted from the residual and can split it in two halves, and
    the half alone would put the ball off the fret."""
    rows, cols = values.shape
    c0, r0 = int(round(col)), int(round(row))
    # np.minimum/np.maximum rather than np.clip: the same, without its ~10 us of overhead
    ys = np.minimum(np.maximum(np.arange(r0 - _WIN, r0 + _WIN + 1), 0), rows - 1)
    xs = np.arange(c0 - _WIN, c0 + _WIN + 1) % cols
    patch = values[ys[:, None], xs[None, :]].astype(np.float64)
    floor = np.partition(patch.ravel(), int(0.3 * patch.size))[int(0.3 * patch.size)]
    w0 = np.maximum(patch - floor, 0)
    cx, cy = col - c0, row - r0
    prod = np.empty(_W1XY.shape)
    for _ in range(4):
        # the squared offsets along a row and a column, added as a grid: the same values
        # as on the two grids, for two small vectors' work; the kernel then in place
        d2 = (_WX_ROW - cx) ** 2 + (_WY_COL - cy) ** 2
        np.sqrt(d2, out=d2)
        np.subtract(_KERNEL_R, d2, out=d2)
        np.maximum(d2, 0, out=d2)
        np.minimum(d2, 1, out=d2)
        # w, w x and w y in one product and one reduction along rows of 361: the same
        # pairwise sums as w.sum(), (w * _WX).sum(), (w * _WY).sum() (tenth round)
        np.multiply(w0, d2, out=d2)
        np.multiply(d2, _W1XY, out=prod)
        tot, sx, sy = np.add.reduce(prod.reshape(3, -1), 1).tolist()
        if tot <= 0:
            break
        cx, cy = sx / tot, sy / tot
    return c0 + cx, r0 + cy


def _reference(strip: Strip, col: float, row: float, half: int) -> tuple[float, float]:
    """(bright, dark) of the wheel as seen within `half` columns of the spot, leaving out
    the spot itself: polished frets and ring lines, and the pocket floors there, under the
    same light (a lamp's reflection brightens both alike)."""
    cols = np.arange(int(round(col)) - half, int(round(col)) + half + 1)
    win = strip.values[:, cols % strip.values.shape[1]]
    dy = np.arange(win.shape[0])[:, None] - row
    dx = cols[None, :] - col
    seen = win[np.hypot(dx, dy) > 1.6 * _BALL_CELLS_R]
    lo, hi = (int(q * (seen.size - 1)) for q in (0.30, 0.97))
    part = np.partition(seen, [lo, hi])
    return float(part[hi]), float(part[lo])


_HALO = (1.6, 2.4)  # ball radii: the ring around a spot where a ball leaves only the wheel


def halo(strip: Strip, spot: Spot) -> float:
    """The whiteness 1.6-2.4 ball radii around a spot (median) over the whiteness at its
    centre (mean within half a ball radius). Around a ball lies the wheel: floors, frets,
    its shadow (0.89 at most on 300 settled balls of steel and chrome frames). A lamp's
    reflection over the ball is a saturated disc 2.2-3.5 ball radii wide: what the spot
    finder picks in it is a bump on a plateau as bright all around (0.95 or more)."""
    values = strip.values
    rows, cols = values.shape
    reach = int(np.ceil(_HALO[1] * _BALL_CELLS_R))
    c0, r0 = int(round(spot.col)), int(round(spot.row))
    ys = np.arange(max(r0 - reach, 0), min(r0 + reach + 1, rows))
    xs = np.arange(c0 - reach, c0 + reach + 1)
    win = values[ys[:, None], (xs % cols)[None, :]]
    d = np.hypot(xs[None, :] - spot.col, ys[:, None] - spot.row) / _BALL_CELLS_R
    ring, core = win[(d >= _HALO[0]) & (d <= _HALO[1])], win[d <= 0.5]
    if ring.size == 0 or core.size == 0:
        return 0.0
    return median(ring) / max(float(core.mean()), 1.0)


FRETS_BESIDE = np.array([-2.5, -1.5, 1.5, 2.5])  # frets (pockets from the ball's) clear of it
_FRET_COLS = np.arange(PER_POCKET)
_FRET_PHASE = np.exp(-2j * np.pi * (_FRET_COLS - (PER_POCKET - 1) / 2) / PER_POCKET)
FRET_SEEN = 0.5  # a fret whose line is under half the strongest one's is hidden (not used)


def fret_shift(strip: Strip, spot: Spot) -> float:
    """How far (pockets) the frets beside a ball are seen from where the bend puts them: the
    largest of `fret_shifts` among the frets seen (a shadow, a hand or glare over one leaves
    a weak line whose phase is noise)."""
    shifts, strength = fret_shifts(strip, spot)
    return float(np.abs(shifts[strength >= FRET_SEEN * strength.max()]).max())


def fret_shifts(strip: Strip, spot: Spot) -> tuple[np.ndarray, np.ndarray]:
    """Where the frets beside a ball are seen, in pockets from where the bend puts them
    (`FRETS_BESIDE`, each 1.5-2.5 pockets from the ball's pocket, so the ball's own light
    stays out), and how strong each fret's line is (grey levels). Measured at the ball's
    radius (the rows within a ball radius of it): per fret, the phase and amplitude of the
    pocket-period harmonic of the whiteness in a pocket-wide window centred where the fret
    should be (the fret is the bright line in it). The bend is fitted to the number ring's
    boundaries only; where those near the ball were not seen it is extrapolated, and it can
    be wrong there by a large part of a pocket while the fit still looks tidy: seed 561001
    frame 109 of the widened generator, a ball on a fret read as in pocket 36."""
    values = strip.values
    rows, cols = values.shape
    r0 = int(round(spot.row))
    k = float(np.round(spot.position))
    # column of position p: (p - positions[0]) * PER_POCKET (positions[0] is column 0's)
    centres = (k + FRETS_BESIDE - strip.positions[0]) * PER_POCKET
    start = np.ceil(centres - (PER_POCKET - 1) / 2)
    idx = (start.astype(np.intp)[:, None] + _FRET_COLS) % cols
    reach = int(round(_BALL_CELLS_R))
    near = values[max(r0 - reach, 0):min(r0 + reach + 1, rows)]
    profile = (np.add.reduce(near[:, idx.ravel()], 0) / len(near)).reshape(idx.shape)  # mean
    # each window's first column sits `shift` columns off its fret's centre minus 7.5 (none
    # on a pocket strip, whose columns are centred in sixteenths of a pocket)
    shift = start - (centres - (PER_POCKET - 1) / 2)
    phase = _FRET_PHASE if not shift.any() else np.exp(
        -2j * np.pi * (_FRET_COLS + shift[:, None] - (PER_POCKET - 1) / 2) / PER_POCKET)
    z = (profile * phase).sum(1) / PER_POCKET
    return -np.angle(z) / (2 * np.pi), np.abs(z)

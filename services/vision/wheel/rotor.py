"""Read the rotor's orientation from the number ring: which pocket lies in which direction.

1. Phase. Around the number ring the colours follow the layout (red, black, ..., green).
   Sampling the ring in the rectified wheel plane gives per-angle "redness" and "greenness";
   the zero's angle is where the layout's colour template correlates best with them (circular
   cross-correlation by FFT over 0.5 degree bins). Red/black alone repeat every two pockets;
   the green zero(s) and the break of the alternation around them pick the true offset. The
   margin over the best offset at least one pocket away says how sure the reading is.
2. Warp. The rectification is an affine fit to the rotor's ellipse; a tilted camera adds a
   perspective remainder that bends the pocket angles by up to ~4 degrees (half a pocket).
   Each red/black boundary is located to a fraction of a degree and a 5-term model is fitted
   to where they are: a constant, a first harmonic scaled by 1/r (the true centre is seen a
   little off the ellipse centre, which tilts directions more near the middle) and a second
   harmonic (what is left of the ellipse fit). With it, a direction at any radius maps back
   to a position around the rotor, in pockets.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from services.vision.wheel.harmonics import evaluate, robust_fit
from services.vision.wheel.layout import BLACK_C, GREEN_C, RED_C, WheelLayout
from services.vision.wheel.locate import Ellipse, cos_sin, remap

BINS = 720                       # 0.5 degree
_THETA = (np.arange(BINS) + 0.5) * (2 * np.pi / BINS)
_THETA32 = _THETA.astype(np.float32)
_THETA_CS = (np.cos(_THETA32), np.sin(_THETA32))
RING = np.linspace(0.87, 0.97, 6, dtype=np.float32)  # inside the number ring, off its edges
RING_R = float(RING.mean())
GREEN_WEIGHT = 2.0
_RAD2DEG = 180.0 / np.pi
MIN_BOUNDARIES = 12


@dataclass(frozen=True)
class RotorReading:
    layout: WheelLayout
    zero_angle: float        # degrees in the rectified plane: where the zero pocket's centre is
    score: float             # template correlation at the best offset (~0.5 for a clean ring)
    margin: float            # best minus the best offset at least one pocket away
    warp: np.ndarray         # (c0, c1, s1, c2, s2) in radians, see module doc
    boundaries: int          # how many red/black boundaries the warp was fitted to
    residual: float          # their RMS disagreement with the fitted model, degrees
    unseen: tuple[int, ...] = ()  # boundaries k|k+1 not found or not agreeing with the rest
    sectors_off: int = 0     # 30-degree sectors whose own phase disagrees with the fitted bend

    def longest_unseen_run(self) -> tuple[int, int]:
        """(length, first k) of the longest run of consecutive unseen red/black boundaries,
        around the wheel; boundaries next to a green pocket are never measured and are
        skipped over, not counted. A hand or an object over the ring makes a long run."""
        cols, n = self.layout.colours, self.layout.n
        order = [k for k in range(n) if GREEN_C not in (cols[k], cols[(k + 1) % n])]
        hidden = [k in self.unseen for k in order]
        if all(hidden):
            return len(order), order[0]
        s = hidden.index(False)  # start the walk on a seen boundary so runs do not wrap
        order, hidden = order[s:] + order[:s], hidden[s:] + hidden[:s]
        best, run, first = (0, order[0]), 0, order[0]
        for k, h in zip(order, hidden):
            if not h:
                run = 0
                continue
            first = k if run == 0 else first
            run += 1
            best = max(best, (run, first))
        return best

    def bend(self, theta_deg, r):
        """The bend (degrees) of direction `theta_deg` seen at radius `r` (see module doc)."""
        return self._bend(theta_deg, np.maximum(r, 0.2))

    def _bend(self, theta_deg, r_floor):
        """`bend` with `np.maximum(r, 0.2)` already taken (`angle_of` iterates on one r).
        The same operations in the same order as the formula
        c0 + (c1 c + s1 s) RING_R / r + c2 (c^2 - s^2) + s2 (2 s c), in place where the
        shapes allow: half the temporaries (this runs ~16 times a frame)."""
        # float32 trigonometry (10x faster than float64 on the strips' grids); the bend is a
        # few degrees, so its error stays below 1e-6 degree
        c32, s32 = cos_sin(theta_deg)
        c, s = c32.astype(float), s32.astype(float)
        c0, c1, s1, c2, s2 = self.warp
        first = c1 * c
        first += s1 * s
        first *= RING_R
        bend = first / r_floor
        bend += c0  # c0 + x, added the other way round: the same sum
        second = c * c
        second -= s * s
        second *= c2
        bend += second
        third = 2 * s
        third *= c
        third *= s2
        bend += third
        bend *= _RAD2DEG  # = np.rad2deg, the same product, without its slower loop
        return bend

    def position(self, theta_deg, r):
        """Position around the rotor, in pockets from the zero's centre (0.5 = on the fret
        between pocket 0 and pocket 1), of a direction `theta_deg` (degrees, rectified
        plane) seen at radius `r`. Works on floats or numpy arrays."""
        return ((theta_deg - self.zero_angle - self.bend(theta_deg, r)) / self.layout.pitch) \
            % self.layout.n

    def angle_of(self, k, r):
        """Inverse of `position`: the rectified-plane direction (degrees) of position k.
        theta = zero + k * pitch + bend(theta): the bend is small and smooth, a few
        fixed-point steps suffice (no wrapping needed in between: the bend is periodic)."""
        base = self.zero_angle + np.asarray(k, dtype=float) * self.layout.pitch
        theta = base
        r_floor = np.maximum(r, 0.2)
        for _ in range(3):
            theta = base + self._bend(theta, r_floor)
        return theta % 360

    def centre_shift(self) -> tuple[float, float]:
        """Where the wheel's true centre is seen, in the rectified plane (rotor radii): the
        bend's 1/r first harmonic is that shift seen sideways, bend = (t x u) / r."""
        c1, s1 = float(self.warp[1]), float(self.warp[2])
        return -s1 * RING_R, c1 * RING_R

    def radius_grid(self, theta_deg: np.ndarray, rows: np.ndarray,
                    cs: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Rectified-plane radius of the true radius `rows` (one per grid row) in directions
        `theta_deg` (a rows x columns grid). The rectification maps the rotor's edge (r = 1)
        onto the unit circle, but a tilted camera sees the inner circles shifted toward the
        true centre's image t, by (1 - r^2) (t . u) to first order (a projective map of the
        disc onto itself); 0.05 rotor radii at r = 0.75 on a 25-degree camera, more than a
        ball's radius. Without it the pocket ring's edges smear and the ball's radius is off.
        `cs`: `cos_sin(theta_deg)` when already taken (the grid's sampling needs it too)."""
        tx, ty = self.centre_shift()
        c, s = cos_sin(theta_deg) if cs is None else cs
        rr = np.asarray(rows, dtype=np.float32)[:, None]
        out = tx * c  # rr + (1 - rr^2) (tx c + ty s), in place
        out += ty * s
        out *= 1 - rr * rr
        out += rr
        return out

    def angle_grid(self, k: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """`angle_of` for every (row radius, position k): a rows x len(k) grid (degrees, not
        wrapped to 0..360). Solved exactly on the first and last rows; in between the bend
        is linear in 1/r (the model's only radius dependence), so rows are interpolated."""
        ends = self.angle_of(np.array([k, k]), np.array([[rows[0]], [rows[-1]]]))
        inv = 1.0 / np.maximum(rows, 0.2)
        t = ((inv - inv[0]) / (inv[-1] - inv[0]))[:, None]
        step = ((ends[1] - ends[0] + 180) % 360) - 180
        out = t * step[None, :]  # not wrapped: only fed to cos/sin
        out += ends[0][None, :]
        return out


@lru_cache(maxsize=4)
def templates(layout: WheelLayout) -> tuple[np.ndarray, np.ndarray]:
    """Colour templates for a rotor with the zero centred at angle 0."""
    deg = np.rad2deg(_THETA)
    k = np.floor(deg / layout.pitch + 0.5).astype(int) % layout.n
    colour = np.array(layout.colours)[k]
    red = np.where(colour == RED_C, 1.0, np.where(colour == BLACK_C, -1.0, 0.0))
    green = (colour == GREEN_C).astype(float)
    return red - red.mean(), green - green.mean()


def ring_signals(img: np.ndarray, ell: Ellipse) -> tuple[np.ndarray, np.ndarray]:
    """Per-angle redness and greenness of the number ring, z-scored."""
    mx, my = ell.sample_across(RING, _THETA_CS)  # rows: radii, columns: the 720 bins
    p = remap(img, mx, my)
    p = p.astype(np.float32)
    b, g, r = p[..., 0], p[..., 1], p[..., 2]
    # greenness only where green leads: else "not red" (black) would read as a little green
    # and the alternation would drown the zero
    # means over the 6 radii: numpy's sums over them, divided (as .mean(0), without its wrapper)
    green = np.add.reduce(np.maximum(g - np.maximum(r, b), 0), 0) / len(RING)
    return _z(np.add.reduce(r - np.maximum(g, b), 0) / len(RING)), _z(green)


def _z(x: np.ndarray) -> np.ndarray:
    """(x - mean) / standard deviation: the values of `(x - x.mean()) / x.std()` (the same
    sums, in the same order and precision), without numpy's Python-level std (20 us)."""
    n = x.size
    centred = x - np.add.reduce(x) / n
    std = float(np.sqrt(np.add.reduce(centred * centred) / n))
    return centred / max(std, 1e-6)


@lru_cache(maxsize=4)
def _template_spectra(layout: WheelLayout) -> tuple[np.ndarray, float, float]:
    """conj(rfft) of the red and green templates (rows) and their norms: fixed per layout,
    computed once. Read only."""
    t_red, t_green = templates(layout)
    spectra = np.stack([np.conj(np.fft.rfft(t_red)), np.conj(np.fft.rfft(t_green))])
    spectra.flags.writeable = False
    return (spectra, float(np.sqrt((t_red ** 2).sum() * BINS)),
            float(np.sqrt((t_green ** 2).sum() * BINS)))


def _template_scores(red: np.ndarray, green: np.ndarray, layout: WheelLayout) -> np.ndarray:
    """The templates' score with their zero at each bin: red and green correlations over
    their norms, green weighted GREEN_WEIGHT, the sum over 1 + GREEN_WEIGHT. A correlation
    c[j] = sum_b sig[b] * tpl[b - j] (the template's zero moved to bin j) is
    irfft(rfft(sig) * conj(rfft(tpl))); both signals go through numpy's FFTs as the two
    rows of one array (each row by the same plan: the values of one call per signal, in
    half the calls - eleventh round, 100 -> 65 us)."""
    spectra, n_red, n_green = _template_spectra(layout)
    both = np.concatenate((red, green)).reshape(2, BINS)
    c = np.fft.irfft(np.fft.rfft(both) * spectra, BINS)
    score = c[0] / n_red
    score += GREEN_WEIGHT * c[1] / n_green
    score /= 1 + GREEN_WEIGHT
    return score


def phase(red: np.ndarray, green: np.ndarray, layout: WheelLayout) -> tuple[float, float, float]:
    """(zero angle in degrees, score, margin) of the best template offset."""
    score = _template_scores(red, green, layout)
    j = int(score.argmax())
    # bins a pocket or more from j: those from bin 0, turned by j
    second = _far_max(score, j, layout.n)
    y0, y1, y2 = score[j - 1], score[j], score[(j + 1) % BINS]
    den = y0 - 2 * y1 + y2
    frac = 0.5 * (y0 - y2) / den if den < 0 else 0.0
    return ((j + 0.5 + frac) * 360.0 / BINS) % 360.0, float(y1), float(y1) - second


@lru_cache(maxsize=4)
def _bin_positions(pitch: float) -> np.ndarray:
    """The bins' centres in pockets from the zero (np.rad2deg(_THETA) / pitch; read only)."""
    out = np.rad2deg(_THETA) / pitch
    out.flags.writeable = False
    return out


def _far_max(score: np.ndarray, j: int, n: int) -> float:
    """The largest score a pocket or more (BINS / n bins) around the circle from bin j:
    `score[np.roll(_far_from_zero(n), j)].max()`, over the same bins - the arc outside
    j - m .. j + m, as one or two slices (eleventh round: np.roll and a mask cost ~12 us)."""
    m = _near_reach(n)
    start, length = (j + m + 1) % BINS, BINS - 2 * m - 1
    if start + length <= BINS:
        return float(np.maximum.reduce(score[start:start + length]))
    return float(max(np.maximum.reduce(score[start:]),
                     np.maximum.reduce(score[:start + length - BINS])))


@lru_cache(maxsize=4)
def _near_reach(n: int) -> int:
    """How many bins either side of bin 0 are under a pocket from it (`_far_from_zero`'s
    complement is bins -m .. m)."""
    near = BINS - int(np.count_nonzero(_far_from_zero(n)))
    return (near - 1) // 2


@lru_cache(maxsize=4)
def _far_from_zero(n: int) -> np.ndarray:
    """Bins a pocket or more (BINS / n) around the circle from bin 0 (read only)."""
    away = np.abs(((np.arange(BINS) + BINS // 2) % BINS) - BINS // 2)
    far = away >= BINS / n
    far.flags.writeable = False
    return far


@lru_cache(maxsize=4)
def _measurable(layout: WheelLayout) -> tuple[np.ndarray, np.ndarray]:
    """Boundaries k|k+1 between a red and a black pocket, and the sign of the change in
    redness going clockwise across them (+1 black -> red, -1 red -> black)."""
    cols, n = layout.colours, layout.n
    ks = np.array([k for k in range(n) if GREEN_C not in (cols[k], cols[(k + 1) % n])])
    rising = np.array([1.0 if cols[k] == BLACK_C else -1.0 for k in ks])
    return ks, rising


def boundary_angles(red: np.ndarray, centres: np.ndarray, layout: WheelLayout,
                    half_pockets: float) -> tuple[dict[int, float], set[int]]:
    """Observed angle (degrees) of each red/black boundary k|k+1 (in `_measurable` order,
    expected near `centres`, degrees), at the crossing of the local mid-level of the
    redness nearest to the expected place, within `half_pockets`. Also returns the
    boundaries whose window held a single crossing: a white number printed in a segment
    makes a second one, and those are the boundaries that can be picked wrongly."""
    ks, rising = _measurable(layout)
    half = int(np.ceil(half_pockets * layout.pitch * BINS / 360))
    centre = centres * BINS / 360 - 0.5  # in bin-centre units
    bins = np.floor(centre).astype(int)[:, None] + np.arange(-half, half + 2)[None, :]
    v = red[bins % BINS]
    top, bottom = np.maximum.reduce(v, 1), np.minimum.reduce(v, 1)  # = v.max(1), v.min(1)
    span = top - bottom
    s = (v - ((top + bottom) / 2)[:, None]) * rising[:, None]
    cross = (s[:, :-1] < 0) & (s[:, 1:] >= 0)
    dist = np.where(cross, np.abs(bins[:, :-1] + 0.5 - centre[:, None]), np.inf)
    j = np.argmin(dist, 1)
    rows = np.arange(len(ks))
    ok = np.isfinite(dist[rows, j]) & (span >= 0.5)
    s0, s1 = s[rows, j], s[rows, j + 1]
    t = s0 / np.where(s0 != s1, s0 - s1, 1.0)
    ang = (bins[rows, j] + t + 0.5) * 360.0 / BINS
    # as Python numbers first: iterating numpy arrays makes a numpy scalar per element
    found = {k: a for k, a, good in zip(ks.tolist(), ang.tolist(), ok.tolist()) if good}
    single = {k for k, n in zip(ks.tolist(), cross.sum(1).tolist()) if n == 1 and k in found}
    return found, single


def fit_warp(found: dict[int, float], zero: float, layout: WheelLayout
             ) -> tuple[np.ndarray, float, tuple[int, ...]] | None:
    """Robust least squares of the 5-term bend to the boundaries (see module doc)."""
    if len(found) < MIN_BOUNDARIES:
        return None
    order = sorted(found)
    ks = np.array(order)
    obs = np.array([found[k] for k in order])
    dev = np.deg2rad(((obs - zero - (ks + 0.5) * layout.pitch + 180) % 360) - 180)
    # Tukey scales in radians: drop boundaries hidden or confused by a hand, glare or the ball
    fit = robust_fit(np.deg2rad(obs), dev, (0.08, 0.04, 0.02, 0.02), MIN_BOUNDARIES)
    if fit is None:
        return None
    coef, w = fit
    keep = w > 0
    res = (dev - evaluate(coef, np.deg2rad(obs)))[keep]
    return coef, float(np.rad2deg(np.sqrt((res ** 2).mean()))), tuple(ks[keep].tolist())


SECTORS = 12                     # local phase measured per 30 degrees ...
SHIFTS = np.arange(-19, 20)      # ... over +-9.5 degrees (in 0.5 degree bins)


def local_shifts(red: np.ndarray, green: np.ndarray, zero: float,
                 layout: WheelLayout) -> tuple[np.ndarray, np.ndarray]:
    """(sector centre angles, local phase shift) in radians: per sector, the shift of the
    colour template (placed at `zero`) that matches the ring best there. A tilted camera
    bends pocket angles by several degrees around the wheel; this measures the bend from
    the whole pattern, which a white number printed in a segment cannot fool."""
    w_red, w_green = _moved_templates(layout)
    base = int(round(zero * BINS / 360 - 0.5))
    # the template moved by base + shift, for each shift: rows i0 - shift, a slice (a view)
    i0 = (-base) % BINS + BINS
    rows = slice(i0 - int(SHIFTS[-1]), i0 - int(SHIFTS[0]) + 1)
    prod = red[None, :] * w_red[rows][::-1]
    prod += GREEN_WEIGHT * green[None, :] * w_green[rows][::-1]  # the same sum, in place
    scores = np.add.reduce(prod.reshape(len(SHIFTS), SECTORS, -1), 2)  # .sum(2)
    j = np.minimum(np.maximum(np.argmax(scores, 0), 1), len(SHIFTS) - 2)
    cols = np.arange(SECTORS)
    y0, y1, y2 = scores[j - 1, cols], scores[j, cols], scores[j + 1, cols]
    den = y0 - 2 * y1 + y2
    frac = np.where(den < 0, 0.5 * (y0 - y2) / np.where(den < 0, den, -1.0), 0.0)
    shift = (SHIFTS[j] + frac) * (2 * np.pi / BINS)
    centres = (cols + 0.5) * (2 * np.pi / SECTORS)
    return centres, shift


@lru_cache(maxsize=4)
def _moved_templates(layout: WheelLayout) -> tuple[np.ndarray, np.ndarray]:
    """Every circular shift of the templates, as windows on them laid four times end to end:
    row i is the template moved by -i bins (tpl[(b + i) % BINS]), for i up to 3 BINS, so
    the shifts around any offset are a slice of rows (no copy; indexing every bin of every
    shift had cost 3x the products)."""
    return tuple(sliding_window_view(np.tile(t, 4), BINS)  # type: ignore[return-value]
                 for t in templates(layout))


def unwrap_shifts(shift: np.ndarray, zero: float, layout: WheelLayout) -> np.ndarray:
    """Sector shifts made continuous around the wheel. Red/black repeat every two pockets,
    so a sector's own phase is only known modulo that; the bend is smooth, so going round
    from the zero's sector (the one the green pockets fix absolutely), each sector takes the
    value nearest its neighbour's. A strongly tilted camera bends directions by more than a
    pocket, which the +-half-period search alone folds onto the wrong side."""
    first = int(np.radians(zero) // (2 * np.pi / SECTORS)) % SECTORS
    rolled = np.roll(shift, -first)
    return np.roll(np.unwrap(rolled, period=np.radians(2 * layout.pitch)), first)


def read_rotor(img: np.ndarray, ell: Ellipse, layout: WheelLayout) -> RotorReading | None:
    """The rotor's orientation and bend, or None when too few boundaries are visible.
    The bend is first measured sector by sector from the colour pattern, then every
    red/black boundary is located close to where that draft puts it, and the bend refitted
    to them (see module doc). When some sectors disagree with the result, the sector shifts
    are unwrapped around the wheel (`unwrap_shifts`) and that reading kept if it agrees
    better: a single misread sector must not be propagated, a large bend must be followed."""
    red, green = ring_signals(img, ell)
    zero, score, margin = phase(red, green, layout)
    chosen = _read_bend(red, green, layout, zero, score, margin)
    if chosen is None:
        return _opposite(red, green, layout, zero, score, margin) if _two_greens(layout) \
            else None
    reading, best = straightened(red, green, chosen)
    if reading.margin < RETRY_MARGIN:
        # The straightened ring prefers another zero (a strong bend can pull the rigid
        # template's best offset a pocket or two aside, or from 0 to 00): start again from
        # it, with every check, and keep whichever reading is surer.
        again = _read_bend(red, green, layout, reading.angle_of(best, RING_R), score, margin)
        if again is not None:
            other, _ = straightened(red, green, again)
            reading = other if other.margin > reading.margin else reading
    if reading.margin < OPPOSITE_MARGIN and _two_greens(layout):
        across = _opposite(red, green, layout, zero, score, margin)
        reading = across if across is not None and across.margin > reading.margin else reading
    return reading


def _two_greens(layout: WheelLayout) -> bool:
    return layout.colours.count(GREEN_C) == 2


OPPOSITE_MARGIN = 0.35  # an American reading under it is also read from the other green


def _opposite(red: np.ndarray, green: np.ndarray, layout: WheelLayout, zero: float,
              score: float, margin: float) -> RotorReading | None:
    """The reading started from the best rigid offset on the wheel's other side from `zero`
    (straightened), or None. On an American wheel 0 and 00 face each other and the colours
    after 00 are those after 0 swapped, so the template moved half a turn and one pocket
    matches all the red and black and misses only the greens: where the greens read weakly
    (a colour cast on black lacquer or silver pockets, a tilted camera) the two rigid peaks
    half a turn apart scored within 0.02 and the wrong one won. Its bend then took up the
    pocket (its constant term) and it read with 18-21 boundaries, 3-5 sectors off and a
    straightened margin of 0.06-0.2, or found too few boundaries at all, where the other
    side read with 34, 0-1 and 0.54-0.56 (dev-wheel frames 63, 315 and 349, seed 795001).
    Correct straightened readings measure 0.35 or more (`OPPOSITE_MARGIN`); the caller keeps
    the surer reading."""
    scores = _template_scores(red, green, layout)
    # bins within 1.5 pockets of the point opposite `zero`: if `zero` is 00 a pocket aside
    # (red and black matching), the true zero is a pocket from that point, and the rigid
    # peak there can be lower than the one two pockets from it (dev-focus frame 9): the
    # two highest peaks there are read, and the surer one kept
    here = int(zero * BINS / 360.0)
    reach = int(np.ceil(1.5 * layout.pitch * BINS / 360.0))
    near = (here + BINS // 2 + np.arange(-reach - 1, reach + 2)) % BINS
    v = scores[near]
    peaks = np.flatnonzero((v[1:-1] >= v[:-2]) & (v[1:-1] >= v[2:])) + 1
    best: RotorReading | None = None
    for j in near[peaks[np.argsort(-v[peaks])][:2]].tolist():
        again = _read_bend(red, green, layout, (j + 0.5) * 360.0 / BINS, score, margin)
        if again is not None:
            other = straightened(red, green, again)[0]
            best = other if best is None or other.margin > best.margin else best
    return best


def _with(r: RotorReading, **changes: Any) -> RotorReading:
    """`dataclasses.replace` for a RotorReading, without its generic field walk (40 us)."""
    fields: dict[str, Any] = {"layout": r.layout, "zero_angle": r.zero_angle, "score": r.score,
              "margin": r.margin, "warp": r.warp, "boundaries": r.boundaries,
              "residual": r.residual, "unseen": r.unseen, "sectors_off": r.sectors_off}
    fields.update(changes)
    return RotorReading(**fields)


RETRY_MARGIN = 0.2  # below it, the zero the straightened ring prefers is tried too


def _read_bend(red: np.ndarray, green: np.ndarray, layout: WheelLayout, zero: float,
               score: float, margin: float) -> RotorReading | None:
    centres, shift = local_shifts(red, green, zero, layout)
    first = _bend_from(red, zero, score, margin, centres, shift, layout)
    if first is not None and first.sectors_off == 0:
        return first
    unwrapped = unwrap_shifts(shift, zero, layout)
    if np.allclose(unwrapped, shift):
        return first
    second = _bend_from(red, zero, score, margin, centres, unwrapped, layout)
    if second is None or (first is not None and first.sectors_off <= second.sectors_off):
        return first
    return second


def straightened(red: np.ndarray, green: np.ndarray, reading: RotorReading
                 ) -> tuple[RotorReading, float]:
    """The reading's score and margin measured again on the ring with its bend undone.

    A tilted camera bends pocket directions by up to a pocket around the wheel, so a rigid
    template fits only part of the ring at a time; on an American wheel the two green
    pockets sit on opposite sides and are bent opposite ways, and the margin over an offset
    two pockets away (the same red/black) falls to a few hundredths. Sampling the signals
    where the fitted bend puts each template bin (`angle_of`) makes the pattern rigid again;
    the score is then the template's at the fitted zero, and the margin its lead over every
    offset a pocket or more away: negative when the straightened ring prefers another zero.
    Also returns where that ring's best offset is, in pockets from the reading's zero.
    """
    where = reading.angle_of(_bin_positions(reading.layout.pitch), RING_R)
    pos = where * (BINS / 360.0) - 0.5
    i0 = np.floor(pos).astype(int)
    t = pos - i0
    i0, i1 = i0 % BINS, (i0 + 1) % BINS
    r_s = _z(red[i0] * (1 - t) + red[i1] * t)
    g_s = _z(green[i0] * (1 - t) + green[i1] * t)
    score = _template_scores(r_s, g_s, reading.layout)
    # the template's zero sits at bin centre 0.5 on the straightened ring: bins 0 and -1
    here = float(max(score[0], score[-1]))
    other = _far_max(score, 0, reading.layout.n)
    j = int(score.argmax())
    best = ((j + BINS // 2) % BINS - BINS // 2) * (360.0 / BINS) / reading.layout.pitch
    return _with(reading, score=here, margin=here - other), best


def _bend_from(red: np.ndarray, zero: float, score: float, margin: float,
               centres: np.ndarray, shift: np.ndarray, layout: WheelLayout
               ) -> RotorReading | None:
    draft = robust_fit(centres + shift, shift, (0.06, 0.04), 6)
    if draft is None:
        return None
    ks, _ = _measurable(layout)
    rough = RotorReading(layout, zero, score, margin, draft[0], 0, 0.0)
    found, _ = boundary_angles(red, rough.angle_of(ks + 0.5, np.full(len(ks), RING_R)),
                               layout, 0.25)
    fitted = fit_warp(found, zero, layout)
    if fitted is None:
        return None
    coef, residual, kept = fitted
    seen = set(kept)
    unseen = tuple(k for k in range(layout.n) if k not in seen)
    reading = RotorReading(layout, zero, score, margin, coef, len(kept), residual, unseen)
    return _with(reading, sectors_off=_sectors_off(reading, centres, shift))


def _sectors_off(rotor: RotorReading, centres: np.ndarray, shift: np.ndarray) -> int:
    """How many sectors' own phase (`local_shifts`) is further than a quarter pocket from the
    fitted bend. Red/black repeat every two pockets, so a bend beyond what the model can
    follow (a strongly tilted or distorted camera) can lock boundaries onto the pattern two
    pockets away: the fit still looks tidy, but whole sectors then disagree with it."""
    seen = np.rad2deg(centres + shift)
    model = rotor.bend(seen, RING_R)
    diff = np.abs(((np.rad2deg(shift) - model + 180) % 360) - 180)
    return int(np.count_nonzero(diff > rotor.layout.pitch / 4))

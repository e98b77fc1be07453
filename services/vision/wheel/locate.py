"""Find the rotor in a frame: its outer edge is a circle seen slightly off-axis, an ellipse.

1. Coarse centre: every strong edge votes along its gradient at the distances a wheel's
   circles can have; the many concentric circles of a wheel (rim, tracks, rotor, ring lines)
   agree on one point, while straight edges (an arm, a shadow, the table) spread their votes.
2. The number ring is the only band where colour alternates quickly around the circle (red,
   black, green segments, white digits). Per direction from the centre, the outer edge of
   that band is where the rotor ends. A robust (Tukey) fit of r(theta) to a centre shift and
   an ellipticity throws out directions spoiled by a hand, a deflector or the ball.
3. cv2.fitEllipse on the kept edge points; passes from the fitted ellipse tighten it. From a
   poor first guess the circles of the bowl cut the sampling circles obliquely and look busy
   too; when the directions disagree, the first pass is redone with the other edge rule
   (strongest instead of outermost) and the better fit kept.
4. The result must be a rotor a camera over a wheel can show (`plausible`), else None.

All work is on small polar samplings (cv2.remap), so the whole search costs a few ms.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from services.vision.stats import median
from services.vision.wheel.area import shrink_area
from services.vision.wheel.harmonics import Basis, robust_fit

VOTE_SIDE = 120              # coarse centre search on the frame shrunk to this smaller side
# (a 640x480 frame: 1/4 size); the vote distances are in that frame, so they are fractions of
# the frame whatever its resolution: 0.125-0.425 of its smaller side (60..204 px at 480)
VOTE_DIST = np.arange(15, 52, 3.0, dtype=np.float32)
STRONG_EDGES = 0.06          # fraction of the shrunk frame's pixels that vote
_VOTE_D = np.concatenate([VOTE_DIST, -VOTE_DIST])[:, None]
# ... and when the edge search from that centre does not agree (`locate_rotor`): longer
# distances, without the shortest (a near rotor seen far off-axis; see `_far_centre`)
FAR_VOTE_DIST = np.arange(27, 76, 3.0, dtype=np.float32)
_FAR_VOTE_D = np.concatenate([FAR_VOTE_DIST, -FAR_VOTE_DIST])[:, None]
N_DIRS = 120                 # directions sampled around the centre
RECENTRE_BELOW = 0.75        # edge agreement under which the search starts again from its ellipse
ROTOR_SIZE = (0.12, 0.6)     # rotor radius as a fraction of the frame's smaller side (a
                             # close camera shows the rotor whole and the bowl cut)
_TH = np.linspace(0, 2 * np.pi, N_DIRS, endpoint=False).astype(np.float32)
_ROWS = np.arange(N_DIRS)
_TH_BASIS = Basis(_TH)
_TH_CS = (np.cos(_TH), np.sin(_TH))  # the directions' trigonometry, taken once
_TH2_CS = (_TH_CS[0][::2], _TH_CS[1][::2])
_SUM_CHANNELS = np.ones((1, 3), np.float32)


@dataclass(frozen=True)
class Ellipse:
    """Image of a circle of the wheel plane: centre, semi-axes a (along `angle`) and b."""
    cx: float
    cy: float
    a: float
    b: float
    angle: float  # degrees, image coordinates

    @classmethod
    def from_cv(cls, box) -> Ellipse:
        (cx, cy), (w, h), ang = box
        return cls(float(cx), float(cy), float(w) / 2, float(h) / 2, float(ang))

    @property
    def radius(self) -> float:
        return (self.a + self.b) / 2

    def to_image(self) -> np.ndarray:
        """3x3 affine: wheel plane in rotor radii (unit circle = this ellipse) -> image."""
        t = np.deg2rad(self.angle)
        c, s = np.cos(t), np.sin(t)
        return np.array([[c * self.a, -s * self.b, self.cx], [s * self.a, c * self.b, self.cy],
                         [0, 0, 1.0]])

    @cached_property
    def _to_image32(self) -> np.ndarray:
        """`to_image()` in float32, taken once per ellipse (the grids of a frame use it ~7
        times). Read only."""
        m = self.to_image().astype(np.float32)
        m.flags.writeable = False
        return m

    def points(self, theta_deg: np.ndarray, r: np.ndarray,
               cs: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Remap grids for arbitrary same-shaped arrays of plane angles (deg) and radii.
        `cs`: `cos_sin(theta_deg)` when already taken."""
        # all in float32, as the maps are (half the time of float64 on a 34 x 592 strip);
        # the rounding, ~1e-4 px, is below remap's own 1/32 px
        m = self._to_image32
        c, s = cos_sin(theta_deg) if cs is None else cs
        r = np.asarray(r, dtype=np.float32)
        u, v = c * r, s * r
        return _grids(m, u, v)

    def sample(self, theta: np.ndarray, r: np.ndarray,
               cs: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Remap grids (rows: theta, columns: r) for polar sampling in the wheel plane.
        `cs`: the cosines and sines of `theta` (radians, float32) when already taken."""
        m = self._to_image32  # float32 throughout, as `points`
        if cs is None:
            t = np.asarray(theta, dtype=np.float32)
            cs = np.cos(t), np.sin(t)
        r = np.asarray(r, dtype=np.float32)
        u = cs[0][:, None] * r[None, :]
        v = cs[1][:, None] * r[None, :]
        return _grids(m, u, v)

    def sample_across(self, r: np.ndarray, cs: tuple[np.ndarray, np.ndarray]
                      ) -> tuple[np.ndarray, np.ndarray]:
        """`sample` transposed (rows: r, columns: theta), the same values: cv2.remap
        takes 40 % less time on 6 rows of 720 than on 720 rows of 6."""
        m = self._to_image32
        r = np.asarray(r, dtype=np.float32)
        u = r[:, None] * cs[0][None, :]
        v = r[:, None] * cs[1][None, :]
        return _grids(m, u, v)


def _grids(m: np.ndarray, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The maps m[i, 0] * u + m[i, 1] * v + m[i, 2] (i = 0, 1: x and y), formed in that
    order (the values of the plain sums), with `u` and `v` (the callers' own temporaries)
    used up: the second map is formed in `u`, its `m[1, 1] * v` in the first map's
    scratch. Two full-grid allocations fewer a pair (the bowl strip's are 200 kB each:
    above glibc's mmap threshold, fresh pages to fault in)."""
    if np.ndim(u) == 0:  # scalars: nothing to reuse
        return m[0][0] * u + m[0][1] * v + m[0][2], m[1][0] * u + m[1][1] * v + m[1][2]
    mx = m[0][0] * u
    scratch = m[0][1] * v
    mx += scratch
    mx += m[0][2]
    np.multiply(m[1][1], v, out=scratch)
    np.multiply(m[1][0], u, out=u)
    u += scratch
    u += m[1][2]
    return mx, u


def remap(img: np.ndarray, mx: np.ndarray, my: np.ndarray) -> np.ndarray:
    """Bilinear samples of `img` at the float32 grids (mx, my), edges replicated, through
    fixed-point maps (cv2.convertMaps to CV_16SC2: positions rounded to 1/32 pixel):
    20-25 % less time than the float maps with the conversion counted; values within a
    grey level or two of them on a camera's smooth frame (OpenCV 5's float path
    interpolates in floating point)."""
    m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    return cv2.remap(img, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def cos_sin(theta_deg: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """Cosine and sine of angles in degrees, in float32 (the sampling grids' precision).
    cv2.polarToCart on float32 degrees for arrays of 64 or more angles (a third of numpy's
    float32 cos and sin on a strip's grid; within 1e-6 of them), numpy's otherwise."""
    x = np.asarray(theta_deg)
    if x.ndim == 0 or x.size < 64:
        t = radians32(x)
        return np.cos(t), np.sin(t)
    # magnitude None: unit magnitudes (the stubs do not say so)
    c, s = cv2.polarToCart(None, np.asarray(x, np.float32),  # type: ignore[call-overload]
                           angleInDegrees=True)
    return c, s


_DEG = np.pi / 180.0


def radians32(theta_deg) -> np.ndarray:
    """`np.deg2rad(theta_deg).astype(np.float32)`, the same values: for float64 input
    deg2rad is the product by pi/180, here cast to float32 as it is written (one pass
    instead of a float64 temporary and a copy: 25 against 110 us on a strip's grid; on
    under a thousand angles the two plain calls are the quicker)."""
    x = np.asarray(theta_deg)
    if x.dtype != np.float64 or x.size < 1024:
        return np.asarray(np.deg2rad(x), dtype=np.float32)
    out = np.empty(x.shape, np.float32)
    np.multiply(x, _DEG, out=out, casting="same_kind")
    return out


def coarse_centre(img: np.ndarray, dists: np.ndarray = _VOTE_D,
                  edges: StrongEdges | None = None) -> tuple[float, float]:
    """Where the frame's circular edges agree (full-size pixels); `dists`: the vote
    distances in the shrunk frame's pixels, both signs (a column); `edges`: the frame's
    `strong_edges` when already taken (the far vote of `locate_rotor` reuses them)."""
    scale, h, w, xs, ys, ux, uy = strong_edges(img) if edges is None else edges
    # one row per distance, one column per edge pixel: numpy's loops then run along the
    # ~1500 pixels, not the 26 distances
    px, py = _votes(xs, ux, dists), _votes(ys, uy, dists)
    # float32 votes: 40 % faster; inside the frame: as unsigned, a negative is out too
    ok = (px.view(np.uint32) < w) & (py.view(np.uint32) < h)
    flat = py * w
    flat += px
    acc: np.ndarray = np.bincount(flat[ok], minlength=h * w).astype(np.float32)
    acc = acc.reshape(h, w)
    acc = cv2.GaussianBlur(acc, (13, 13), 0)
    _, peak, _, (x, y) = cv2.minMaxLoc(acc)
    # centroid of the peak region: a turret's arms smear the peak into a cross
    x0, y0 = max(0, x - 6), max(0, y - 6)
    sub = np.maximum(acc[y0:y + 7, x0:x + 7] - 0.6 * peak, 0)
    yy, xx = np.arange(sub.shape[0])[:, None], np.arange(sub.shape[1])[None, :]
    tot = float(sub.sum()) or 1.0
    cx, cy = x0 + float((sub * xx).sum()) / tot, y0 + float((sub * yy).sum()) / tot
    return (cx + 0.5) * scale - 0.5, (cy + 0.5) * scale - 0.5


# (scale, shrunk height, width, the strong edges' x, y, and unit gradient x, y)
StrongEdges = tuple[float, int, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def strong_edges(img: np.ndarray) -> StrongEdges:
    """The strongest `STRONG_EDGES` of the shrunk grey frame's pixels and their gradient
    directions: what `coarse_centre` votes from, whatever the distances (taken once a
    frame: the far vote's second pass had shrunk and differentiated the frame again,
    2-3 ms of a 1280x720 frame)."""
    scale = min(img.shape[:2]) / VOTE_SIDE
    g = _shrunk_grey(img, scale)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    # not cv2.magnitude: its IPP path rounds differently with the arrays' alignment in
    # memory, and the same frame read twice could vote (rarely) a pixel apart
    mag = gx * gx
    mag += gy * gy
    np.sqrt(mag, out=mag)
    # the strongest 6 % of the pixels vote (8 % until the eighth round: a quarter fewer
    # votes; the rotor's circles are among the strongest edges of the frame)
    k = int(mag.size * (1 - STRONG_EDGES))
    h, w = g.shape
    part = mag.ravel().copy()
    part.partition(k)
    # the strong edges, in the order np.nonzero gives them, by flat index (gathers from
    # flat arrays cost a third of the two-index ones)
    at = np.flatnonzero(mag > part[k])
    ys, xs = np.divmod(at, w)
    m = mag.ravel()[at]
    ux, uy = gx.ravel()[at] / m, gy.ravel()[at] / m
    return scale, h, w, xs, ys, ux, uy


def _shrunk_grey(img: np.ndarray, scale: float) -> np.ndarray:
    """The frame in grey, shrunk by `scale`. By a power of two (a 640x480 frame: 4) as
    halvings with INTER_LINEAR, each the mean of 2 x 2 pixels: within one grey level of
    INTER_AREA's 4 x 4 mean, in an eighth of its time (25 against 215 us); other factors
    (1280x720: 6) by INTER_AREA as before (where that is not a whole factor of both sides,
    213 x 120 from 1280 x 720, by `area.shrink_area`: the same values, ~2/3 of the time)."""
    h, w = img.shape[:2]
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    if scale in (2.0, 4.0, 8.0) and h % int(scale) == 0 and w % int(scale) == 0:
        while scale > 1:
            h, w, scale = h // 2, w // 2, scale / 2
            g = cv2.resize(g, (w, h), interpolation=cv2.INTER_LINEAR)
        return g
    size = (int(round(w / scale)), int(round(h / scale)))
    if w % size[0] or h % size[1]:  # OpenCV's general area path: its arithmetic, quicker
        return shrink_area(g, *size)
    return cv2.resize(g, size, interpolation=cv2.INTER_AREA)


def _votes(at: np.ndarray, step: np.ndarray, dists: np.ndarray = _VOTE_D) -> np.ndarray:
    """rint(at + d * step) for every vote distance d (rows) and edge pixel (columns), as
    int32: the sum formed in place (the same values, one float32 grid instead of three)."""
    grid = dists * step[None, :]
    grid += at.astype(np.float32)[None, :]
    np.rint(grid, out=grid)
    return grid.astype(np.int32)


def alternation(polar: np.ndarray, smooth: int) -> np.ndarray:
    """How fast colour changes around the circle, per (direction, radius) sample."""
    # rows are directions, around a circle: row i against rows i + 1 and i - 1, wrapped
    d8 = np.empty_like(polar)
    cv2.absdiff(polar[2:], polar[:-2], dst=d8[1:-1])
    cv2.absdiff(polar[1:2], polar[-1:], dst=d8[:1])
    cv2.absdiff(polar[:1], polar[-2:-1], dst=d8[-1:])
    d: np.ndarray = d8.astype(np.float32)
    d = cv2.transform(d, _SUM_CHANNELS)  # = d.sum(2): 9 us instead of 140 us on 120 x 60
    return cv2.boxFilter(d, -1, (1, smooth))


def ring_radius(img: np.ndarray, centre: tuple[float, float]) -> float | None:
    """Outer radius of the band of fastest colour alternation around `centre` (pixels).
    Searched out to 62.5 % of the frame's smaller side (a rotor may reach 60 %, ROTOR_SIZE),
    in steps of 1/160 of it: a fixed 240 px missed the rotor of a close 1280x720 camera."""
    step = min(img.shape[:2]) / 160.0
    rs = np.arange(16 / 3, 100, 1.0, dtype=np.float32) * step
    mx, my = Ellipse(centre[0], centre[1], 1, 1, 0).sample(_TH[::2], rs, _TH2_CS)
    e = alternation(remap(img, mx, my), 5)
    half = (len(e) - 1) // 2  # median over directions (even count: the two middle ones),
    # partitioned along rows of the transposed copy (along columns cost 20 % more)
    # (one kth: numpy's partition with two leaves its SIMD path; the next order statistic is
    # the smallest above the kth)
    part = np.partition(np.ascontiguousarray(e.T), half, axis=1)
    prof = (part[:, half] + part[:, half + 1:].min(1)) / 2  # their mean
    # the ring of the smallest rotor allowed starts at ~0.84 x 12 % of the side: nearer the
    # centre, a turret's arms over a dark cone can alternate as fast (and then win)
    k = int(np.argmax(np.where(rs >= 0.09 * min(img.shape[:2]), prof, -np.inf)))
    if prof[k] <= 0:
        return None
    j = k
    while j + 1 < len(prof) and prof[j + 1] >= 0.5 * prof[k]:
        j += 1
    return float(rs[j])


def _robust_harmonics(r: np.ndarray) -> np.ndarray:
    """Inliers of r(theta) ~ centre shift + ellipticity (Tukey IRLS with a shrinking scale)."""
    med = median(r)
    fit = robust_fit(_TH_BASIS, r, [c * med for c in (0.3, 0.15, 0.08, 0.05)], 20)
    if fit is None:
        return np.zeros(len(r), bool)
    return np.abs(r - _TH_BASIS.evaluate(fit[0])) < 0.03 * med


# the polar sampling grids of a search and the alternation on them (`edge_map`)
EdgeMap = tuple[np.ndarray, np.ndarray, np.ndarray]


def edge_map(img: np.ndarray, guess: Ellipse, lo: float, hi: float, n: int,
             width: float) -> EdgeMap:
    """The sampling grids of `fit_rotor_edge`'s search and the alternation on them: the
    same for both first-pass rules from one guess, so taken once when both run."""
    mx, my = guess.sample(_TH, _radii(lo, hi, n, width), _TH_CS)
    return mx, my, alternation(remap(img, mx, my), 9)


def fit_rotor_edge(img: np.ndarray, guess: Ellipse, lo: float, hi: float, n: int,
                   width: float, outermost: bool = True,
                   sampled: EdgeMap | None = None) -> tuple[Ellipse, float] | None:
    """Refit the rotor edge searching radii lo..hi (in units of the guess). Returns the
    ellipse and the fraction of directions that agreed with it. `sampled`: the
    `edge_map` of these arguments when already taken."""
    rs = _radii(lo, hi, n, width)
    k = max(1, int(round(width / float(rs[1] - rs[0]))))
    mx, my, e = edge_map(img, guess, lo, hi, n, width) if sampled is None else sampled
    c = np.empty((N_DIRS, n + 1), np.float32)  # running sums along each direction, from 0
    c[:, 0] = 0
    np.cumsum(e, 1, out=c[:, 1:])
    idx = np.arange(k, n - k)
    # busy inside, calm out: (c[idx] - c[idx - k]) - (c[idx + k] - c[idx]), on slices
    step = 2 * c[:, k:n - k] - c[:, :n - 2 * k] - c[:, 2 * k:n]
    best = np.maximum.reduce(step, 1, keepdims=True)  # = step.max(1, keepdims=True)
    peak = np.zeros(step.shape, bool)
    peak[:, 1:-1] = (step[:, 1:-1] >= step[:, :-2]) & (step[:, 1:-1] >= step[:, 2:])
    cand = peak & (step >= 0.6 * best) & (best > 0)
    # From a poor guess, circles of the bowl cut the sampling circle obliquely and look
    # busy too: take the strongest edge then. Near the rotor, the outermost strong one
    # (the number ring's inner side can be nearly as strong as its outer edge).
    i = idx[len(idx) - 1 - cand[:, ::-1].argmax(1)] if outermost else idx[step.argmax(1)]
    inl = _robust_harmonics(rs[i] * guess.radius) & np.logical_or.reduce(cand, 1)  # .any(1)
    if np.count_nonzero(inl) < 20:
        return None
    pts = np.empty((N_DIRS, 2), np.float32)  # = np.stack(..., 1), without its wrapper
    pts[:, 0], pts[:, 1] = mx[_ROWS, i], my[_ROWS, i]
    pts = pts[inl]
    return Ellipse.from_cv(cv2.fitEllipse(pts)), np.count_nonzero(inl) / inl.size


@lru_cache(maxsize=16)
def _radii(lo: float, hi: float, n: int, width: float) -> np.ndarray:
    rs = np.linspace(lo - width, hi + width, n).astype(np.float32)
    rs.flags.writeable = False
    return rs


def locate_rotor(img: np.ndarray) -> tuple[Ellipse, float] | None:
    """The rotor's outer edge in a BGR frame, and how many directions agree (0..1)."""
    edges = strong_edges(img)
    best = _located(img, coarse_centre(img, _VOTE_D, edges))
    if best is not None and best[1] < RECENTRE_BELOW:  # (on an empty table: none found)
        far = _located(img, coarse_centre(img, _FAR_VOTE_D, edges))
        if far is not None and far[1] > best[1]:
            best = far
    return best if best is not None and plausible(best[0], img.shape) else None


def _located(img: np.ndarray, centre: tuple[float, float]) -> tuple[Ellipse, float] | None:
    """The rotor's edge searched from a coarse centre: from the circle of the number ring
    around it, by both first-pass rules when the first agrees poorly, and again from the
    ellipse found when it agrees under `RECENTRE_BELOW`.

    When even that stays under it, `locate_rotor` votes for the centre again with longer
    distances, without the shortest (`FAR_VOTE_DIST`: 27-75 pixels of the shrunk frame
    instead of 15-51): a near rotor (270-280 px on a 1280x720 frame, 39 % of its side) seen
    22-30 degrees off-axis had its centre voted ~110 px off by the inner circles' normals,
    and the edge search from there agreed at 0.65 on an ellipse a third too narrow; from the
    longer votes, 1.0 (seed 795008 frames 47 and 302, dev-wheel recipe)."""
    r0 = ring_radius(img, centre)
    if r0 is None:
        return None
    best = _search(img, Ellipse(centre[0], centre[1], r0, r0, 0.0))
    if best is not None and best[1] < RECENTRE_BELOW:
        best = _recentred(img, best)
    return best


def _recentred(img: np.ndarray, found: tuple[Ellipse, float]) -> tuple[Ellipse, float]:
    """The search again from the ellipse it found, when too few directions agreed on it.
    A wheel seen far off-axis (tilt 25-30 degrees, perspective) is an ellipse whose edge
    normals crowd at its evolute's cusps, not at its centre: the coarse centre can land there,
    60-90 px off on a 1280x720 frame, and the first circle guess is then too far off for the
    edge search to agree (0.4-0.6 of the directions). The ellipse it found is near enough:
    searched again from it, 0.98-1.0 agreed (dev-wheel frames 2 and 32, seed 795001)."""
    again = _search(img, found[0])
    return again if again is not None and again[1] > found[1] else found


def _search(img: np.ndarray, start: Ellipse) -> tuple[Ellipse, float] | None:
    """The edge refined from `start` by the outermost rule, and by the other first-pass rule
    too when that agrees poorly (under 0.9); the better agreed. Both rules sample the first
    pass alike (`edge_map`, taken once)."""
    first = edge_map(img, start, *_FIRST_PASS)
    best = _refine(img, start, outermost=True, sampled=first)
    if best is None or best[1] < 0.9:
        other = _refine(img, start, outermost=False, sampled=first)
        if other is not None and (best is None or other[1] > best[1]):
            best = other
    return best


def plausible(ell: Ellipse, shape: tuple[int, ...]) -> bool:
    """A rotor a CCTV camera over a wheel can show: centre in the frame, a radius of 12-60 %
    of the frame's smaller side, seen no more than ~50 degrees off the vertical."""
    h, w = shape[:2]
    side = min(h, w)
    return (0 <= ell.cx < w and 0 <= ell.cy < h and ROTOR_SIZE[0] * side <= ell.radius
            <= ROTOR_SIZE[1] * side and min(ell.a, ell.b) >= 0.6 * max(ell.a, ell.b))


# the first pass only brings the guess near the edge: 40 radii (steps of 0.021 of the
# first radius; 60 before) - the last pass, which gives the ellipse, keeps its 36 over
# a third of the span (README, eighth round)
_FIRST_PASS = (0.7, 1.35, 40, 0.08)


def _refine(img: np.ndarray, start: Ellipse, outermost: bool,
            sampled: EdgeMap | None = None) -> tuple[Ellipse, float] | None:
    """`sampled`: the first pass's `edge_map` from `start`, when already taken."""
    found = fit_rotor_edge(img, start, *_FIRST_PASS, outermost, sampled)
    if found is None:
        return None
    if found[1] < 0.9:  # a tilted wheel is far from the first circle guess: look again
        again = fit_rotor_edge(img, found[0], 0.82, 1.2, 48, 0.07)
        found = again if again is not None and again[1] >= found[1] else found
    return fit_rotor_edge(img, found[0], 0.88, 1.12, 36, 0.06)


def inner_rotor(img: np.ndarray, found: Ellipse) -> tuple[Ellipse, float] | None:
    """The rotor's edge looked for inside `found`, for when the number ring does not read
    on it: a ring of bright deflectors on a dark bowl (black lacquer, 16 of them) alternates
    nearly as fast as the numbers, and its outer side, 1.1-1.25 rotor radii out, can win the
    edge search. Searched from 0.87 of `found`, taking the strongest edge per direction."""
    guess = Ellipse(found.cx, found.cy, found.a * 0.87, found.b * 0.87, found.angle)
    first = fit_rotor_edge(img, guess, 0.9, 1.1, 36, 0.05, outermost=False)
    if first is None:
        return None
    again = fit_rotor_edge(img, first[0], 0.92, 1.08, 32, 0.05, outermost=False)
    best = again if again is not None and again[1] >= first[1] else first
    ok = plausible(best[0], img.shape) and best[0].radius < 0.97 * found.radius
    return best if ok else None

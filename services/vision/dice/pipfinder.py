"""The pip finder: the pips of a frame from a camera nobody calibrated, grouped into faces
(pure OpenCV + numpy; no camera model, no cloth model). What makes a die a die whatever the
camera: round spots of one size on a 3x3 grid, point-symmetric about the face's centre.

1. **Pips** (`find_pips`): a grey top-hat (bright pips) and black-hat (dark pips) with a
   square wider than any pip (21 px: dice up to ~100 px) keep what is small and contrasted;
   its round components of pip size (radius 1.8-10 px) are candidate pips. So are those of
   the hat above CORE_HAT that are not pips found already: a light die's corners stand out of
   a darker cloth in the hat too, and its corner pips run into them; their cores do not.
   `Spots` keeps a frame's hats and pips for its looks: the cores, asked for later, come from
   the same hats.
2. **Faces** (`group`): pips of one polarity and similar size closer than a few pip radii
   form a group; `fit_grids` says whether (and which) valid pattern (`faces.PATTERNS`) they
   make: a face's centre is its pips' mean (every pattern is symmetric), its farthest pip a
   corner, which gives the grid's spacing and turn; every pip must snap to a grid cell.

The reader without a calibration (learned.py) takes its candidates from these
(candidates.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from services.vision.dice.faces import PATTERNS, PIP_OFFSET, PIP_RADIUS

HAT = 21                 # top-hat square (px): wider than any pip
MIN_HAT = 34.0           # grey levels a pip stands out of what is around it
CORE_HAT = 90.0          # ... and the core of a bright pip run into a die's corner (below)
PIP_R = (1.8, 10.0)      # pip radius range (px)
MIN_ROUND = 0.55         # component area / bounding-box area (a disc: 0.785)
LINK = 9.6               # pips closer than this many radii may be one face (2's diagonal 8.9)
SNAP = 0.3               # a pip's distance from its grid cell, in grid steps
PIP_TO_STEP = (0.15, 0.44)  # pip radius / grid step (pips 0.27-0.43; a 6's row as a 3: 0.54)
MIN_HALF = 240           # px: the half-resolution look only when half is this tall
# A spot that is no pip, no wider than STREAK_BOX px, opened with a disc STREAK_OPEN of its
# widest part's diameter (`opened`): what is left of a lamp's streak run into a pip, thinner
# than the pip, is cut off it (first guesses, not tuned: README, "Pips under a lamp's streak")
STREAK_BOX = 4 * PIP_R[1]
STREAK_OPEN = 0.7
# ... and only a spot whose widest part is a pip of about the size asked for (`Spots.streaks`:
# the sure die's pips', as a pair's pips are alike), within STREAK_SIZE times it: blur and
# glare make one die's pips look bigger than the other's (of 9 frames the look read on fresh
# first-generator seeds 857001 and 858001, the group's own size rule, 0.7-1.43, kept 5, this
# 7; README, "Pips under a lamp's streak", for what the limits save)
STREAK_SIZE = (0.5, 2.0)


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    r: float
    dark: bool
    shape: tuple[float, float, float] = (1.0, 0.0, 1.0)  # second moments, determinant 1


def find_pips(image: np.ndarray, cores: bool = True) -> list[Pip]:
    """The frame's pips; `cores`: the cores of bright spots that are no pip too (below)."""
    return Spots(image).pips(cores)


class Spots:
    """One frame's pips, found once for every look at it (views.look asks for them without
    the cores, then, for some frames, with them): the top-hat and black-hat and the pips in
    each are kept, the cores found in the same hats when first asked for. `pips(cores)` is
    find_pips(image, cores): the bright pips then their cores, the dark pips then theirs."""

    def __init__(self, image: np.ndarray) -> None:
        self.grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)   # kept: outline.judge_area's
        grey = cv2.GaussianBlur(self.grey, (3, 3), 0)
        self._hats = [(dark, cv2.morphologyEx(grey, op, HAT_KERNEL))
                      for dark, op in ((False, cv2.MORPH_TOPHAT), (True, cv2.MORPH_BLACKHAT))]
        # each hat's spots above MIN_HAT: the pips, and the outlines of those that are none
        judged = [_judged(hat, MIN_HAT, dark) for dark, hat in self._hats]
        self._found = [found for found, _ in judged]
        self._refused = [refused for _, refused in judged]
        self._cores: list[list[Pip]] | None = None

    def pips(self, cores: bool = True) -> list[Pip]:
        if not cores:
            return [p for found in self._found for p in found]
        return [p for found, more in zip(self._found, self.cores()) for p in found + more]

    def cores(self) -> list[list[Pip]]:
        """The cores that are not pips already found, of each hat (none: `pips` with the
        cores is `pips` without them)."""
        if self._cores is None:
            self._cores = [_apart(spots(hat, CORE_HAT, dark), found)
                           for (dark, hat), found in zip(self._hats, self._found)]
        return self._cores

    def streaks(self, radius: float) -> list[Pip]:
        """The pips of about `radius` (STREAK_SIZE) inside the top-hat's spots above MIN_HAT
        that are no pip (`opened`: a lamp's streak run into a bright pip), that are no pip
        found already (asked once a frame, by the reader's last look: not kept)."""
        # the top-hat's only: a lamp's streak is bright
        return _apart(opened(self._refused[0], False, radius), self._found[0])


def spots(hat: np.ndarray, level: float, dark: bool) -> list[Pip]:
    """The pips among the spots of the top-hat (or black-hat) above `level`."""
    return _judged(hat, level, dark)[0]


def _judged(hat: np.ndarray, level: float, dark: bool) -> tuple[list[Pip], list[np.ndarray]]:
    """The spots of the hat above `level`: the pips, and the outlines of those that are none."""
    mask = cv2.threshold(hat, level, 1, cv2.THRESH_BINARY)[1]  # hat > level
    judged = [(c, _pip(c, dark)) for c in outer_outlines(mask)]
    return [p for _, p in judged if p is not None], [c for c, p in judged if p is None]


def outer_outlines(mask: np.ndarray) -> list[np.ndarray]:
    """Every piece's outer outline (the top level of RETR_CCOMP, CHAIN_APPROX_SIMPLE), also
    of pieces inside a ring: a closed printed line round the landing area is a ring in the
    hat, and RETR_EXTERNAL kept only it (three of four first-generator frames lost pips so)."""
    contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return [] if tree is None else [c for c, t in zip(contours, tree[0]) if t[3] < 0]


def opened(outlines: list[np.ndarray], dark: bool, radius: float) -> list[Pip]:
    """The pips inside spots that are no pip (their `outlines`), each spot no wider than
    STREAK_BOX whose widest part (its distance transform's highest value) is within
    STREAK_SIZE of `radius` opened with a disc STREAK_OPEN of that part's diameter: a pip
    keeps its shape, a lamp's streak run into it (thinner) is cut off, and two pips run
    together by a streak come apart."""
    out = []
    for c in outlines:
        x, y, w, h = cv2.boundingRect(c)
        if max(w, h) > STREAK_BOX or w * h < 2 * _AREA[0]:
            continue
        spot = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(spot, [c - (x - 1, y - 1)], -1, 1, cv2.FILLED)
        widest = float(cv2.distanceTransform(spot, cv2.DIST_L2, 3).max())
        k = 2 * int(round(STREAK_OPEN * widest)) + 1
        if not STREAK_SIZE[0] * radius <= widest <= STREAK_SIZE[1] * radius or k < 3:
            continue
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        out += [p for d in outer_outlines(cv2.morphologyEx(spot, cv2.MORPH_OPEN, disc))
                if (p := _pip(d + (x - 1, y - 1), dark)) is not None]
    return out


def _apart(cores: list[Pip], found: list[Pip]) -> list[Pip]:
    """The cores that are not pips already found (farther from each than the core's radius,
    at least 2 px)."""
    if not found or not cores:
        return cores
    xy = np.array([(p.x, p.y) for p in found])
    return [q for q in cores
            if np.min(np.hypot(xy[:, 0] - q.x, xy[:, 1] - q.y)) > max(q.r, 2.0)]


def _pip(c: np.ndarray, dark: bool) -> Pip | None:
    """The pip an outline is, or None: pip-sized and round (its box filled enough)."""
    if len(c) < 3:
        return None
    x, y, w, h = cv2.boundingRect(c)
    # a long box, or a box too big for a round spot of a pip's area: no outline area (an
    # area within the pip range is below MIN_ROUND * w * h when that is above its top)
    if max(w, h) > 1.7 * min(w, h) or MIN_ROUND * w * h > _AREA[1]:
        return None
    area = max(cv2.contourArea(c), 0.0) + 0.5 * len(c)  # the outline's own pixels
    if not _AREA[0] <= area <= _AREA[1] or area < MIN_ROUND * w * h:
        return None
    m = cv2.moments(c)
    if m["m00"] <= 0:
        return None
    return Pip(m["m10"] / m["m00"], m["m01"] / m["m00"], float(np.sqrt(area / np.pi)), dark,
               _shape(m))


HAT_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (HAT, HAT))
_AREA = (np.pi * PIP_R[0] ** 2, np.pi * PIP_R[1] ** 2)


def _shape(m: dict[str, float]) -> tuple[float, float, float]:
    """A pip's second moments scaled to determinant 1: the ellipse a round pip becomes, which
    is the local foreshortening of the face (the camera's tilt, or a leaning die's)."""
    a, b, c = m["mu20"], m["mu11"], m["mu02"]
    det = a * c - b * b
    if det <= 0:
        return (1.0, 0.0, 1.0)
    k = float(np.sqrt(det))
    return (a / k, b / k, c / k)


def group(pips: list[Pip], link: float = LINK) -> list[list[int]]:
    """Pips of one face: same polarity, similar size, linked within `link` radii."""
    parent = list(range(len(pips)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # All pairs at once (the same float operations as pair by pair; the partition into
    # groups does not depend on the order the links are made in).
    xy = np.array([(p.x, p.y) for p in pips]).reshape(-1, 2)
    r = np.array([p.r for p in pips])
    dark = np.array([p.dark for p in pips], bool)
    first, second = index_pairs(len(pips))
    dx, dy = (xy[second] - xy[first]).T
    d = np.hypot(dx, dy)
    ri, rj = r[first], r[second]
    ratio = rj / ri
    linked = (d < link * ri * 1.15) & (dark[first] == dark[second]) & (ratio > 0.7) & \
        (ratio < 1.43) & (d < link * (ri + rj) / 2)
    for a, b in zip(first[linked].tolist(), second[linked].tolist()):
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in range(len(pips)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


@lru_cache(maxsize=256)
def index_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """np.triu_indices(n, 1), kept (read-only) for each count (every pair of n things)."""
    first, second = np.triu_indices(n, 1)
    first.flags.writeable = second.flags.writeable = False
    return first, second


Fit = tuple[tuple[float, float], float, float, int]


def fit_grids(pips: list[Pip], subsets: list[list[int]]) -> list[Fit | None]:
    """(centre, die side, angle, value) of the pip grid each subset of pips makes, or None: a
    face's centre is its pips' mean (every pattern is symmetric), its farthest pip a corner,
    which gives the grid's spacing and turn; every pip must snap to a grid cell, and the cells
    make a valid pattern. A lone pip is a 1, its side the one its radius gives. Every subset of
    two to six pips is fitted in one batch (a frame has about 35 subsets to fit; one by one,
    numpy's overhead on arrays of two to six pips was a fifth of the reader's time); the same
    values as fitting each alone (a test keeps that code as its reference)."""
    out: list[Fit | None] = [None] * len(subsets)
    many = []
    for j, s in enumerate(subsets):
        if len(s) == 1:
            out[j] = (pips[s[0]].x, pips[s[0]].y), pips[s[0]].r / PIP_RADIUS, 0.0, 1
        elif 2 <= len(s) <= 6:
            many.append(j)
    if many:
        for j, fit in zip(many, _fit_batch(pips, [subsets[j] for j in many])):
            out[j] = fit
    return out


def _fit_batch(pips: list[Pip], subsets: list[list[int]]) -> list[Fit | None]:
    """fit_grids of subsets of two to six pips, padded to six (`real` marks the pips)."""
    n = len(subsets)
    k = np.array([len(s) for s in subsets])
    real = np.arange(6) < k[:, None]
    # each subset's pips (x, y, r), then rows of zeros (the last row) up to six
    pad = [len(pips)] * 6
    xyr = np.array([(p.x, p.y, p.r) for p in pips] + [(0.0, 0.0, 0.0)])[
        [(s + pad)[:6] for s in subsets]]
    total = xyr[:, 0]
    for i in range(1, 6):
        total = total + xyr[:, i]
    r, c = total[:, 2] / k, total[:, :2] / k[:, None]
    rel = xyr[..., :2] - c[:, None, :]
    far = np.argmax(np.where(real, np.hypot(rel[..., 0], rel[..., 1]), -1.0), axis=1)
    corner = rel[np.arange(n), far]
    step = np.hypot(corner[:, 0], corner[:, 1]) / np.sqrt(2)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = r / step
        angle = np.degrees(np.arctan2(corner[:, 1], corner[:, 0])) - 45.0
        t = np.radians(angle)
        cos, sin = np.cos(t), np.sin(t)
        rot = np.stack([np.stack([cos, sin], 1), np.stack([-sin, cos], 1)], 1)
        grid = np.matmul(rel, rot.transpose(0, 2, 1)) / step[:, None, None]
    cells = np.round(grid)
    off = np.where(real[..., None], np.abs(grid - cells), 0.0).max(axis=(1, 2))
    far_cell = np.where(real[..., None], np.abs(cells), 0.0).max(axis=(1, 2))
    ok = (step > 0) & (PIP_TO_STEP[0] <= ratio) & (ratio <= PIP_TO_STEP[1]) & \
        (off <= SNAP) & (far_cell <= 1)
    code = np.where((ok[:, None] & real)[..., None], cells + 1, -1).astype(int)
    bits = np.where(code[..., 0] >= 0, 1 << (3 * code[..., 0] + code[..., 1]).clip(0), 0)
    mask = np.bitwise_or.reduce(bits, axis=1)
    value = np.where(ok & (np.bitwise_count(mask.astype(np.uint16)) == k),
                     _PATTERN_VALUES[mask], 0)
    side = step / PIP_OFFSET
    found = np.flatnonzero(value).tolist()
    out: list[Fit | None] = [None] * n
    for j, (cx, cy), a, v in zip(found, c[found].tolist(), angle[found].tolist(),
                                  value[found].tolist()):
        out[j] = (cx, cy), side[j], a, v
    return out


def _pattern_values() -> np.ndarray:
    """The value of each set of grid cells (a 9-bit mask, cell (x, y) at bit 3(x+1) + y+1),
    0 when it is no die's pattern."""
    values = np.zeros(512, int)
    for pattern, value in PATTERNS.items():
        values[sum(1 << (3 * (x + 1) + y + 1) for x, y in pattern)] = value
    return values


_PATTERN_VALUES = _pattern_values()

"""Find and read dice by their pips, on a frame from a camera nobody calibrated (pure OpenCV +
numpy; no camera model, no cloth model).

What makes a die a die whatever the camera, cloth or lighting: a face of round spots of one
size on a 3x3 grid, point-symmetric about the face's centre, on a body of one colour that
ends, all round, against something else.

1. **Pips** (`find_pips`): a grey top-hat (bright pips) and black-hat (dark pips) with a
   square wider than any pip (21 px: dice up to ~100 px) keep what is small and contrasted;
   its round components of pip size (radius 1.8-10 px) are candidate pips.
2. **Faces** (`group`): pips of one polarity and similar size closer than `LINK` pip radii
   (a 2's diagonal is 8.9) form a face candidate; more than six is a chip's inserts or print.
   A face's centre is its pips' mean (every pattern is symmetric); its farthest pip is a
   corner, which gives the grid's spacing and turn; every pip must snap to a grid cell and the
   cells must make a valid pattern (`faces.PATTERNS`). A lone pip may be a 1.
3. **Check** (`confirm`): the die-sized square on that grid is read again by the calibrated
   reader's face scorer (`reader.score_face`, its margin is the confidence): the value must be
   the same, with margin. The body around the pips must end: most of a ring just outside the
   face differs from the body (a card's suit marks or a chip's middle continue into more of
   the same colour).
4. **Decide**: exactly two faces, each confirmed, apart, and nothing pip-like left over
   beside either (the side face of a leaning die, a die on a die): values. Otherwise no
   decision with the reason (`cocked`, `no_dice`, `single_die`, `too_many_dice`,
   `unreadable`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from services.vision.dice.calibration import DIE_MM, DiceCalibration
from services.vision.dice.faces import PATTERNS, PIP_OFFSET
from services.vision.reading import Reading, no_decision
from services.vision.stats import column_medians, percentile

# face patch (PATCH x PATCH, BGR) -> (value or None, margin): the calibrated reader's scorer
FaceScorer = Callable[[np.ndarray], tuple[int | None, float]]
PATCH = 48               # the face scorer's patch side (reader.PATCH)
Classic = Callable[[np.ndarray, DiceCalibration], Reading]

HAT = 21                 # top-hat square (px): wider than any pip
MIN_HAT = 34.0           # grey levels a pip stands out of what is around it
PIP_R = (1.8, 10.0)      # pip radius range (px)
MIN_ROUND = 0.55         # component area / bounding-box area (a disc: 0.785)
LINK = 9.6               # pips closer than this many radii may be one face (2's diagonal 8.9)
SNAP = 0.3               # a pip's distance from its grid cell, in grid steps
PIP_TO_STEP = (0.15, 0.44)  # pip radius / grid step (pips 0.27-0.43; a 6's row as a 3: 0.54)
MIN_MARGIN = 0.3         # the face scorer's margin needed (reader.MIN_MARGIN)
MIN_EDGE = 0.55          # share of the ring outside the face unlike the body
BODY_SPREAD = 35.0       # chroma (_chroma) between the pips: all but one within this
BODY_DIFF = 28.0         # colour distance (BGR, L2) that counts as unlike the body
CROWD = 1.0              # dice: another pip within this many die sides of a face's centre
SAME_SIZE = 1.3          # two dice of one frame: sides within this ratio (perspective)
EDGE_IN, EDGE_OUT = 0.4, 0.6  # _ends: just inside and outside a face's edge, in sides
HOLE_CHROMA = 25.0       # _hole: a lone pip the colour of what surrounds its die
HOLE_BRIGHT = 1.35
LONE_SIDES = 3           # a lone pip's die ends, in a step, on all four sides (a printed
# letter's counter, a dark hole in white ink, made a 1 on a tuning frame reflected at its edge)
FILL_OFF = 3             # points just inside the face's edges allowed unlike it (a corner: 6)
MIN_HALF = 240           # px: the half-resolution look only when half is this tall
SHAPE_SPREAD = 0.5       # a 2's or 3's pips' shapes (flat faces of tuning seed 720001 up to
# 0.35; a leaning die's side pip with a top pip, tuning seed 710001 frame 324, 0.76)
MAX_TURN = 35.0          # degrees between a face's pip grid and its die's edges
SIDE_SPAN = 2.4          # side_pips: the neighbourhood looked at, in die sides
SIDE_PX = 40             # side_pips: patch pixels per die side
SIDE_SHADE = 0.6         # side_pips: a side face's colour, as a share of the top face's
SIDE_BAND = (0.58, 1.1)  # side_pips: from the centre (a flat face's own pips reach 0.36,
# a lamp's reflection on it 0.43 + 0.05; a leaning die's foreshortened top ends 0.37-0.47)
SIDE_RIM = 0.05          # side_pips: the ring's distance outside a spot's box, in sides
SIDE_RING = 8           # side_pips: of the 9 points round a spot not outward, on the die
SIDE_CONTRAST = 0.35     # side_pips: a side face's pip against the top face's pips
EDGE = 0.75              # a face's centre at least this many sides inside the frame


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    r: float
    dark: bool
    shape: tuple[float, float, float] = (1.0, 0.0, 1.0)  # second moments, determinant 1


@dataclass(frozen=True)
class Face:
    centre: tuple[float, float]
    side: float          # die side, px
    angle: float         # degrees
    value: int
    margin: float
    pips: tuple[int, ...]   # indices into the frame's pips
    grid: np.ndarray = field(default_factory=lambda: np.eye(2))  # grid steps -> pixels


def find_pips(image: np.ndarray) -> list[Pip]:
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    pips: list[Pip] = []
    lo, hi = np.pi * PIP_R[0] ** 2, np.pi * PIP_R[1] ** 2
    for dark, op in ((False, cv2.MORPH_TOPHAT), (True, cv2.MORPH_BLACKHAT)):
        hat = cv2.morphologyEx(grey, op, _HAT_KERNEL)
        mask = cv2.threshold(hat, MIN_HAT, 1, cv2.THRESH_BINARY)[1]  # hat > MIN_HAT
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if len(c) < 3:
                continue
            x, y, w, h = cv2.boundingRect(c)
            area = max(cv2.contourArea(c), 0.0) + 0.5 * len(c)  # the outline's own pixels
            if not lo <= area <= hi or max(w, h) > 1.7 * min(w, h) or \
                    area < MIN_ROUND * w * h:
                continue
            m = cv2.moments(c)
            if m["m00"] <= 0:
                continue
            pips.append(Pip(m["m10"] / m["m00"], m["m01"] / m["m00"],
                            float(np.sqrt(area / np.pi)), dark, _shape(m)))
    return pips


_HAT_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (HAT, HAT))


def _shape(m: dict[str, float]) -> tuple[float, float, float]:
    """A pip's second moments scaled to determinant 1: the ellipse a round pip becomes, which
    is the local foreshortening of the face (the camera's tilt, or a leaning die's)."""
    a, b, c = m["mu20"], m["mu11"], m["mu02"]
    det = a * c - b * b
    if det <= 0:
        return (1.0, 0.0, 1.0)
    k = float(np.sqrt(det))
    return (a / k, b / k, c / k)


def group(pips: list[Pip]) -> list[list[int]]:
    """Pips of one face: same polarity, similar size, linked within LINK radii."""
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
    first, second = np.triu_indices(len(pips), 1)
    dx, dy = (xy[second] - xy[first]).T
    d = np.hypot(dx, dy)
    ri, rj = r[first], r[second]
    ratio = rj / ri
    linked = (d < LINK * ri * 1.15) & (dark[first] == dark[second]) & (ratio > 0.7) & \
        (ratio < 1.43) & (d < LINK * (ri + rj) / 2)
    for a, b in zip(first[linked].tolist(), second[linked].tolist()):
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in range(len(pips)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


Fit = tuple[tuple[float, float], float, float, int]


def fit_face(pips: list[Pip], members: list[int]) -> tuple[Fit, list[int]] | None:
    """The pip grid these pips make, or these pips less one (a lamp's reflection on the die
    or a shadow's spot beside it is pip-like): (fit, the pips used). None when no grid fits,
    or when different pips left out give different values."""
    fit = _fit(pips, members)
    if fit is not None or not 3 <= len(members) <= 7:
        return (fit, members) if fit is not None else None
    found = []
    for drop in members:
        rest = [i for i in members if i != drop]
        f = _fit(pips, rest)
        if f is not None:
            found.append((f, rest))
    if len({f[3] for f, _ in found}) != 1:
        return None
    return found[0]


def _fit(pips: list[Pip], members: list[int]) -> Fit | None:
    """(centre, die side, angle, value) of the pip grid these pips make, or None."""
    if len(members) > 6:
        return None
    xy = np.array([(pips[i].x, pips[i].y) for i in members])
    r = _mean([pips[i].r for i in members])
    if len(members) == 1:
        return (float(xy[0, 0]), float(xy[0, 1])), r / 0.31 / PIP_OFFSET, 0.0, 1
    c = xy.mean(0)
    rel = xy - c
    far = int(np.argmax(np.hypot(*rel.T)))
    step = float(np.hypot(*rel[far])) / np.sqrt(2)
    if step <= 0 or not PIP_TO_STEP[0] <= r / step <= PIP_TO_STEP[1]:
        return None
    angle = float(np.degrees(np.arctan2(rel[far, 1], rel[far, 0]))) - 45.0
    t = np.radians(angle)
    rot = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    grid = rel @ rot.T / step
    cells = np.round(grid)
    if np.abs(grid - cells).max() > SNAP or np.abs(cells).max() > 1:
        return None
    pattern = frozenset((int(x), int(y)) for x, y in cells)
    if len(pattern) != len(members) or pattern not in PATTERNS:
        return None
    return (float(c[0]), float(c[1])), step / PIP_OFFSET, angle, PATTERNS[pattern]


def square(image: np.ndarray, centre: tuple[float, float], side: float, angle: float,
           n: int) -> np.ndarray:
    box = cv2.boxPoints((centre, (side, side), angle)).astype(np.float32)
    m = cv2.getPerspectiveTransform(box, np.array([[0, 0], [n, 0], [n, n], [0, n]],
                                                  np.float32))
    return cv2.warpPerspective(image, m, (n, n), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def grid_maps(pips: list[Pip], used: list[int], fit: Fit) -> list[np.ndarray]:
    """The face's grid in the frame: 2x2 maps from grid steps (a pip cell to the next) to
    pixels, the affine fit of the pips to their cells, so a face foreshortened by a tilted
    camera is rectified. Pips on one diagonal (a 2, a 3) fix one axis; the other is the
    pips' own ellipse (a round pip seen at the same slant). A lone pip (a 1) fixes neither
    turn nor side: its candidate maps at six turns."""
    (cx, cy), side, angle, value = fit
    step = side * PIP_OFFSET
    shape = np.mean([pips[i].shape for i in used], axis=0)
    metric = np.array([[shape[0], shape[1]], [shape[1], shape[2]]])
    root = _sqrtm(metric)
    if value == 1:
        return [step * root @ _rot(a) for a in range(0, 90, 15)]
    t = np.radians(angle)
    rot = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    xy = np.array([(pips[i].x - cx, pips[i].y - cy) for i in used])
    cells = np.round(xy @ rot.T / step)
    if np.linalg.matrix_rank(cells) == 2:
        sol, *_ = np.linalg.lstsq(cells, xy, rcond=None)
        return [sol.T]
    far = int(np.argmax(np.abs(cells).sum(1)))
    g, d = cells[far], xy[far]
    h = np.array([-g[1], g[0]])
    e = root @ _rot(90) @ np.linalg.solve(root, d)
    return [np.column_stack([d, e]) @ np.linalg.inv(np.column_stack([g, h]))]


def _index(v: np.ndarray, size: int) -> np.ndarray:
    """np.clip(np.round(v).astype(int), 0, size - 1), the same indices (np.round to 0
    decimals is np.rint), without np.clip's and np.round's Python wrappers."""
    return np.minimum(np.maximum(np.rint(v).astype(int), 0), size - 1)


def _mean(values: list[float]) -> float:
    """float(np.mean(values)), the same value: below 8 values numpy adds them in turn as
    Python does (pairwise from 8 on), without numpy's overhead on a short list."""
    if len(values) < 8:
        return sum(values) / len(values)
    return float(np.mean(values))


def _shape_spread(pips: list[Pip], used: list[int]) -> float:
    """The largest difference between two pips' shapes (second moments, determinant 1): the
    pips of one face are seen at one slant."""
    shapes = np.array([pips[i].shape for i in used])
    return float(np.abs(shapes[:, None] - shapes[None]).max())


def _rot(deg: float) -> np.ndarray:
    t = np.radians(deg)
    return np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])


def _sqrtm(m: np.ndarray) -> np.ndarray:
    w, v = np.linalg.eigh(m)
    return np.asarray((v * np.sqrt(np.maximum(w, 1e-6))) @ v.T)


def face_patch(image: np.ndarray, centre: tuple[float, float], grid: np.ndarray) -> np.ndarray:
    """The face warped to the scorer's patch: grid cell (gx, gy) lands where the scorer
    looks for it (reader._cell_pixels)."""
    k = PIP_OFFSET * PATCH
    a = grid / k
    c = PATCH / 2 - 0.5
    b = np.array(centre) - a @ np.array([c, c])
    m = np.column_stack([a, b]).astype(np.float64)
    return cv2.warpAffine(image, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR |
                          cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def confirm(image: np.ndarray, centre: tuple[float, float], grid: np.ndarray, value: int,
            score: FaceScorer) -> float:
    """The face scorer's margin for `value` on this grid, or -1 for another value."""
    got, margin = score(face_patch(image, centre, grid))
    if got != value:
        return -1.0
    return margin


def _ends(image: np.ndarray, centre: tuple[float, float], grid: np.ndarray,
          fill: bool = True) -> bool:
    """Does the die's body end all round? The body's colour (the median of 8 points between
    the pip cells, 0.4 of a side from the centre on the diagonals' and axes' halfway marks)
    against 24 points on a square ring 0.7 of a side from the centre. `fill`: the stricter
    checks a lone pip needs (no pip grid vouches for its die): the square is all body, and
    it ends in a step."""
    c = np.array(centre)
    h, w = image.shape[:2]

    def at(uv: np.ndarray) -> np.ndarray:
        xy = c + (uv / PIP_OFFSET) @ grid.T
        x = _index(xy[:, 0], w)
        y = _index(xy[:, 1], h)
        return image[y, x].astype(np.float32)

    inner = at(_BODY_UV)
    body = column_medians(inner)
    hue = _chroma(inner)
    mid = column_medians(hue)
    if np.sort(np.linalg.norm(hue - mid, axis=1))[-2] > BODY_SPREAD:
        return False  # not one body colour between the pips (one point may be a reflection)
    if int((np.linalg.norm(_chroma(at(_CORNER_UV)) - mid, axis=1) > BODY_SPREAD).sum()) > 1:
        return False  # a die is square: its body reaches its corners (a chip's round edge
        # does not: four of its eight inserts make a 4 twice a die's size)
    if fill:
        step = np.linalg.norm(at(_FILL_UV * (EDGE_OUT / 0.42)) -
                              at(_FILL_UV * (EDGE_IN / 0.42)), axis=1)
        if int((column_medians(step.reshape(4, 3).T) > BODY_DIFF).sum()) < LONE_SIDES:
            return False  # the body ends in a step on three sides at least (a lamp's glare
            # on the felt fades: a dot on the felt in glare read as a 1)
    ring = at(_RING_UV)
    unlike = np.linalg.norm(ring - body, axis=1) > BODY_DIFF
    if fill and unlike.any():  # the square must be all die (a 1 is not a pip of a larger face)
        outside = column_medians(ring[unlike])
        inside = at(_FILL_UV)
        off = np.linalg.norm(inside - outside, axis=1) < np.linalg.norm(inside - body, axis=1)
        if int(off.sum()) > FILL_OFF:
            return False
    # Per side of the ring: the body must end on at least three sides (the fourth may show
    # the die's own side face or its shadow to a tilted camera). A face found at a pip of a
    # larger die (its other pips missed) has the die's body on two sides.
    ends = unlike.reshape(4, 6).mean(1) >= 4 / 6
    return int(ends.sum()) >= (LONE_SIDES if fill else 3) and float(unlike.mean()) >= MIN_EDGE


def _chroma(bgr: np.ndarray) -> np.ndarray:
    """Colour without brightness (a soft shadow or the lamp's falloff across a die's top
    face darkens it by up to half, and does not change its chroma); +60 keeps dark colours'
    noise down. Flat dice, tuning seed 720001: the 8 points between the pips within 26 of
    their median (all but one); a 1 read off a printed letter and the stick 61-69."""
    return np.asarray(255 * bgr / (bgr.sum(axis=1, keepdims=True) + 60))


_BODY_UV = np.array([(0.135, 0.135), (-0.135, 0.135), (0.135, -0.135), (-0.135, -0.135),
                     (0.4, 0.135), (-0.4, -0.135), (0.135, -0.4), (-0.135, 0.4)])
_CORNER_UV = np.array([(0.38, 0.38), (-0.38, 0.38), (0.38, -0.38), (-0.38, -0.38)])
_F = np.array([-0.25, 0.0, 0.25])
# 12 points just inside the face's edges, clear of the pips (at most 0.36 of a side out)
_FILL_UV = np.concatenate([np.column_stack([_F, np.full(3, -0.42)]),
                           np.column_stack([np.full(3, 0.42), _F]),
                           np.column_stack([_F, np.full(3, 0.42)]),
                           np.column_stack([np.full(3, -0.42), _F])])
_K = np.linspace(-0.7, 0.7, 7)[:-1]
_RING_UV = np.concatenate([np.column_stack([_K, np.full(6, -0.7)]),
                           np.column_stack([np.full(6, 0.7), _K]),
                           np.column_stack([-_K, np.full(6, 0.7)]),
                           np.column_stack([np.full(6, -0.7), -_K])])


def find_faces(image: np.ndarray, score: FaceScorer) -> tuple[list[Face], list[Pip]]:
    """The faces at the frame's resolution or, when that finds fewer than two, at half of it
    if that finds more (dice over ~90 px have pips wider than the top-hat's square; pips of
    faint or blurred dice stand out better)."""
    faces, pips = _find_faces(image, score)
    if len(faces) >= 2 or min(image.shape[:2]) < 2 * MIN_HALF:
        return faces, pips
    half, half_pips = _find_faces(cv2.pyrDown(image), score)
    if len(half) <= len(faces):
        return faces, pips
    return ([Face((f.centre[0] * 2 + 0.5, f.centre[1] * 2 + 0.5), f.side * 2, f.angle, f.value,
                  f.margin, f.pips, f.grid * 2) for f in half],
            [Pip(p.x * 2 + 0.5, p.y * 2 + 0.5, p.r * 2, p.dark, p.shape) for p in half_pips])


def _find_faces(image: np.ndarray, score: FaceScorer) -> tuple[list[Face], list[Pip]]:
    """Faces of two or more pips first; then lone pips (a 1), sized like those dice."""
    pips = find_pips(image)
    faces: list[Face] = []
    h, w = image.shape[:2]
    ones = []
    for members in group(pips):
        found = fit_face(pips, members)
        if found is None:
            continue
        fit, used = found
        centre, side, angle, value = fit
        if not (EDGE * side <= centre[0] <= w - EDGE * side and
                EDGE * side <= centre[1] <= h - EDGE * side):
            continue  # a die cut by the frame's edge (or the recorder's text in a corner)
        if value == 1:
            ones.append((fit, used))
            continue
        if value in (2, 3) and _shape_spread(pips, used) > SHAPE_SPREAD:
            continue  # one pip round, one squashed: a top face's pip and a side face's
        grid = grid_maps(pips, used, fit)[0]
        if not _ends(image, centre, grid, fill=False) or \
                abs(_edge_turn(image, centre, grid)) > MAX_TURN:
            continue  # the die's edges are not square to its pips' grid: a row of a 6 or
            # two pips side by side taken for a diagonal, a pip and a lamp's reflection
        margin = np.inf
        for k in (1.0, 0.92, 1.08):  # the weakest size decides
            margin = min(margin, confirm(image, centre, grid * k, value, score))
            if margin < MIN_MARGIN:
                break
        if margin >= MIN_MARGIN:
            faces.append(Face(centre, float(np.sqrt(abs(np.linalg.det(grid)))) / PIP_OFFSET,
                              angle, value, float(margin), tuple(used), grid))
    multi = list(faces)
    for fit, used in ones:
        near = min(multi, key=lambda f: np.hypot(f.centre[0] - fit[0][0], f.centre[1] - fit[0][1]),
                   default=None)
        face = _lone(image, pips, fit, used, near, score)
        if face is not None:
            faces.append(face)
    return faces, pips


def _lone(image: np.ndarray, pips: list[Pip], fit: Fit, used: list[int], ref: Face | None,
          score: FaceScorer) -> Face | None:
    """A lone pip read as a 1. Its die's size and slant are the other die's when there is one
    (one camera, one die size; trying 0.9 and 1.1 of it as well let a dot on the felt in a
    lamp's glare pass, first generator seed 7101 frame 198), else guessed from the pip
    (within 25 %): the first size at which a die's body ends round it (`_ends`); its turn is
    the die's own edges' (`_edge_turn`). Scored also at six turns, none may read another
    value with margin (a 3 or 5 whose corner pips were too faint to be found shows them at
    the right turn), nor may the face centred one diagonal step away, a die's body all round
    it (the pip a corner pip of a 2 or 3 whose other pips were missed), and the die's turn
    must read a 1 at 0.92-1.08 of its size."""
    centre = fit[0]
    if ref is not None:
        base = _sqrtm(ref.grid @ ref.grid.T)
        sizes: tuple[float, ...] = (1.0,)
    else:
        base = grid_maps(pips, used, fit)[0]
        sizes = (1.0, 0.9, 1.1, 0.8, 1.25)  # a pip says little about its die's size
    if not _one_body(image, centre, base):
        return None  # cheap first: most lone spots are not on a die at all
    base = base @ _rot(_edge_turn(image, centre, base))
    grid = next((base * k for k in sizes if _ends(image, centre, base * k)), None)
    if grid is None:
        return None  # no die's body ending round the pip in a step at any of those sizes
    if _hole(image, centre, grid, pips[used[0]].dark):
        return None
    # Every test below must pass and none has side effects, so the cheapest and likeliest
    # to fail go first; the face at turn 0 and size 1 is scored once (grid @ _rot(0) and
    # grid * 1.0 are grid, to the bit).
    got, m = score(face_patch(image, centre, grid))
    if got != 1 and m > 0:
        return None
    margin = m if got == 1 else -1.0
    for k in (0.92, 1.08):
        if margin < MIN_MARGIN:
            return None
        got, m = score(face_patch(image, centre, grid * k))
        margin = min(margin, m if got == 1 else -1.0)
    if margin < MIN_MARGIN:
        return None
    for turn in range(15, 90, 15):
        got, m = score(face_patch(image, centre, grid @ _rot(turn)))
        if got != 1 and m > 0:
            return None
    for corner in ((1, 1), (1, -1), (-1, 1), (-1, -1)):  # a corner pip of a 2 or 3?
        middle = tuple(np.array(centre) + grid @ np.array(corner, float))
        got, m = score(face_patch(image, middle, grid))
        if got in (2, 3) and m > MIN_MARGIN and _ends(image, middle, grid):
            return None
    return Face(centre, float(np.sqrt(abs(np.linalg.det(grid)))) / PIP_OFFSET, fit[2], 1,
                float(margin), tuple(used), grid)


def _one_body(image: np.ndarray, centre: tuple[float, float], base: np.ndarray) -> bool:
    """Whatever the die's turn, a 1's body surrounds its pip: 8 points 0.3 of a side round
    it share one chroma (all but one within BODY_SPREAD), as `_ends` asks of the points
    between the pips at the die's turn. Cheaper than the edge turn it spares."""
    h, w = image.shape[:2]
    xy = np.array(centre) + (_AROUND / PIP_OFFSET) @ base.T
    xs = _index(xy[:, 0], w)
    ys = _index(xy[:, 1], h)
    hue = _chroma(image[ys, xs].astype(np.float32))
    return bool(np.sort(np.linalg.norm(hue - column_medians(hue), axis=1))[-2] <= BODY_SPREAD)


_AROUND = 0.3 * np.column_stack([np.cos(np.arange(8) * np.pi / 4),
                                 np.sin(np.arange(8) * np.pi / 4)])


def _hole(image: np.ndarray, centre: tuple[float, float], grid: np.ndarray, dark: bool
          ) -> bool:
    """Is the lone pip a hole through to what lies around the die (a printed letter's counter
    in white ink on the felt reads as a dark pip on a white body)? Its colour (its darkest
    pixel, or brightest for a bright pip, within 2 px of its centre: a small hole is blurred)
    is the colour of the ring 0.7 of a side out (chroma within HOLE_CHROMA, brightness within
    HOLE_BRIGHT times)."""
    h, w = image.shape[:2]
    x, y = int(round(centre[0])), int(round(centre[1]))
    pip = image[max(y - 2, 0):y + 3, max(x - 2, 0):x + 3].reshape(-1, 3).astype(np.float32)
    xy = np.array(centre) + (_RING_UV / PIP_OFFSET) @ grid.T
    xs = _index(xy[:, 0], w)
    ys = _index(xy[:, 1], h)
    around = column_medians(image[ys, xs].astype(np.float32))
    grey = pip.sum(axis=1)
    colour = pip[int(np.argmin(grey) if dark else np.argmax(grey))]
    hue = _chroma(np.array([colour, around]))
    ratio = (float(colour.sum()) + 1) / (float(around.sum()) + 1)
    return bool(np.linalg.norm(hue[0] - hue[1]) < HOLE_CHROMA and
                1 / HOLE_BRIGHT < ratio < HOLE_BRIGHT)


def _edge_turn(image: np.ndarray, centre: tuple[float, float], base: np.ndarray) -> float:
    """How far (degrees) the die's edges are turned in the face's frame `base` (turn 0):
    gradient directions over 1.5 sides around the pip, taken four times (a square's four
    edges agree, the round pip's directions cancel), weighted by gradient strength."""
    p = face_patch(image, centre, base * 1.5).astype(np.float32)  # colour: a red die on
    # green felt can have the felt's grey
    z = cv2.Sobel(p, cv2.CV_32F, 1, 0) + 1j * cv2.Sobel(p, cv2.CV_32F, 0, 1)
    mag = np.abs(z)
    total = (mag * (z / np.maximum(mag, 1e-6)) ** 4).sum()
    return float(np.degrees(np.angle(total)) / 4)


def read_uncalibrated(image: np.ndarray, score: FaceScorer, classic: Classic) -> Reading:
    """Two dice found and read by their pips, or no decision and why. `score`: the face
    scorer at a square of the frame; `classic`: the calibrated reader (the second opinion).
    Both are the reader's (reader.py), passed in so that this module does not import it."""
    faces, pips = find_faces(image, score)
    detail: dict[str, Any] = {"faces": [(f.value, round(f.margin, 3), [round(v) for v in f.centre],
                         round(f.side, 1)) for f in faces]}
    faces = _once(faces)
    used = {i for f in faces for i in f.pips}
    for f in faces:
        stray = _strays(f, pips, used)
        if stray:
            return no_decision("dice", "cocked", stray=stray, **detail)
        side = side_pips(image, f, pips[f.pips[0]].dark)
        if side:
            return no_decision("dice", "cocked", side_pips=side, **detail)
    if len(faces) != 2:
        reason = {0: "no_dice", 1: "single_die"}.get(len(faces), "too_many_dice")
        return no_decision("dice", reason, **detail)
    a, b = faces
    if max(a.side, b.side) > SAME_SIZE * min(a.side, b.side):
        return no_decision("dice", "unreadable", sizes="dice of different sizes", **detail)
    if np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < 1.1 * (a.side + b.side) / 2:
        return no_decision("dice", "overlap", **detail)
    values = sorted((a.value, b.value))
    if SECOND_OPINION:
        second = _classic(image, (a.side + b.side) / 2, classic)
        if second.values is None or sorted(second.values) != values:
            return no_decision("dice", second.reason or "unreadable", second_opinion=second.values,
                               **detail)
    return Reading("dice", values=(values[0], values[1]),
                   confidence=min(1.0, a.margin, b.margin), detail=detail)


SECOND_OPINION = False  # the calibrated reader refuses what it was not tuned on (README)


def _classic(image: np.ndarray, side: float, read_dice: Classic) -> Reading:
    """The calibrated reader's own reading (its cocked, overlap and glare checks) with the
    whole frame as the landing area at the die size the pips gave."""
    h, w = image.shape[:2]
    ppm = side / DIE_MM
    frame = DiceCalibration(((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))),
                            (w / ppm, h / ppm))
    return read_dice(image, frame)


def side_pips(image: np.ndarray, face: Face, dark: bool) -> int:
    """Pip-like spots on a side face beside this top face: the one thing that tells a leaning
    die from a flat one whatever the camera (a tilted camera shows a flat die's sides too, but
    they are plain; a die leaning 20-40 degrees shows a side face with its pips, squashed,
    next to a foreshortened top face). The neighbourhood is rectified with the face's own grid
    (SIDE_SPAN sides across, SIDE_PX pixels a side); a grey top-hat (black-hat for dark pips)
    keeps spots of the face's pips' polarity; a spot counts when it is at least SIDE_CONTRAST
    of the face's own pips' contrast, up to a few pips' size (squashed pips merge), in a band
    beside an edge (SIDE_BAND sides from the centre, within 0.45 of a side along the edge),
    and is ringed by the die (its top face's colour or that in shade), not by the felt."""
    n = int(SIDE_SPAN * SIDE_PX)
    k = SIDE_PX * PIP_OFFSET  # patch pixels per grid step
    a = face.grid / k
    c = n / 2 - 0.5
    b = np.array(face.centre) - a @ np.array([c, c])
    m = np.column_stack([a, b]).astype(np.float64)
    patch = cv2.warpAffine(image, m, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT if dark else cv2.MORPH_TOPHAT, _SIDE_KERNEL)
    own = percentile(hat[_SIDE_INNER], 97)
    if own <= 0:
        return 0
    mask = (hat > SIDE_CONTRAST * own).astype(np.uint8)
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask)
    pip_area = np.pi * (0.085 * SIDE_PX) ** 2
    # the spots in the band beside an edge, of a few pips' size, all at once
    u, v = ((cents[1:] - c) / SIDE_PX).T
    far, across = np.maximum(np.abs(u), np.abs(v)), np.minimum(np.abs(u), np.abs(v))
    area = stats[1:, cv2.CC_STAT_AREA]
    spots = np.nonzero((SIDE_BAND[0] <= far) & (far <= SIDE_BAND[1]) & (across <= 0.45) &
                       (0.12 * pip_area <= area) & (area <= 4 * pip_area) &
                       (np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT])
                        <= 0.6 * SIDE_PX))[0] + 1
    if not len(spots):
        return 0
    felt = column_medians(patch[_SIDE_FAR]).astype(np.float32)
    body = np.median(patch[_SIDE_INNER & (hat < 0.2 * own)], axis=0).astype(np.float32)
    shade = body * SIDE_SHADE
    body_hue, felt_hue = _chroma(np.array([body, felt]))
    found = 0
    for i in spots.tolist():
        u, v = (cents[i] - c) / SIDE_PX
        # On a die's side face, not on the cloth: the colour round the spot is the body in
        # shade (a side face), not the felt (a printed letter, a glare spot).
        # 12 points on an ellipse round the spot's box (a side face's pips are squashed)
        rx = stats[i, cv2.CC_STAT_WIDTH] / 2 + SIDE_RIM * SIDE_PX
        ry = stats[i, cv2.CC_STAT_HEIGHT] / 2 + SIDE_RIM * SIDE_PX
        t = _SIDE_T
        xs = _index(cents[i][0] + rx * np.cos(t), n)
        ys = _index(cents[i][1] + ry * np.sin(t), n)
        ring = patch[ys, xs].astype(np.float32)
        die = np.minimum(np.linalg.norm(ring - shade, axis=1), np.linalg.norm(ring - body, axis=1))
        like = die < np.linalg.norm(ring - felt, axis=1)
        hue = _chroma(ring)  # or the body's chroma in a shade (its own shadow on it)
        like |= (np.linalg.norm(hue - body_hue, axis=1) < np.linalg.norm(hue - felt_hue, axis=1)) \
            & (ring.sum(axis=1) < 0.9 * float(body.sum()))
        # the three points outward (away from the top face) may be the felt: the side face
        # can be narrower than the ring
        out = np.array([np.sign(u), 0.0]) if abs(u) > abs(v) else np.array([0.0, np.sign(v)])
        inward = np.cos(t) * out[0] + np.sin(t) * out[1] < 0.5
        if int(like[inward].sum()) >= SIDE_RING:
            found += 1
    return found


_SIDE_N = int(SIDE_SPAN * SIDE_PX)
_SIDE_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(0.3 * SIDE_PX) | 1,) * 2)
_SIDE_YY, _SIDE_XX = (np.mgrid[0:_SIDE_N, 0:_SIDE_N] - (_SIDE_N / 2 - 0.5)) / SIDE_PX
_SIDE_INNER = (np.abs(_SIDE_XX) < 0.4) & (np.abs(_SIDE_YY) < 0.4)
_SIDE_FAR = np.maximum(np.abs(_SIDE_XX), np.abs(_SIDE_YY)) > 1.0
_SIDE_T = np.linspace(0, 2 * np.pi, 12, endpoint=False)


def _strays(face: Face, pips: list[Pip], used: set[int]) -> int:
    """How many pips, none of any face's, are pips of another face touching this one (the
    side face of a leaning die, a die on a die)? Of the face's pips' polarity and size,
    outside the face's square and within CROWD sides of its centre (all pips at once)."""
    own = [pips[i] for i in face.pips]
    r = _mean([q.r for q in own])
    rest = [p for i, p in enumerate(pips) if i not in used]
    if not rest:
        return 0
    pr = np.array([p.r for p in rest])
    same = np.array([p.dark == own[0].dark for p in rest]) & (pr / r > 0.7) & (pr / r < 1.43)
    t = np.radians(face.angle)
    cos, sin = np.cos(t), np.sin(t)
    dx = np.array([p.x for p in rest]) - face.centre[0]
    dy = np.array([p.y for p in rest]) - face.centre[1]
    u, v = dx * cos + dy * sin, -dx * sin + dy * cos
    beside = (np.maximum(np.abs(u), np.abs(v)) > 0.55 * face.side) & \
        (np.hypot(u, v) < CROWD * face.side)
    return int((same & beside).sum())


def _once(faces: list[Face]) -> list[Face]:
    """A face found twice (a 1 inside another face's pips cannot be, but a lone pip inside a
    body can): keep the one with more pips."""
    kept: list[Face] = []
    for f in sorted(faces, key=lambda f: -len(f.pips)):
        if all(np.hypot(f.centre[0] - k.centre[0], f.centre[1] - k.centre[1]) > 0.5 * k.side
               for k in kept):
            kept.append(f)
    return kept

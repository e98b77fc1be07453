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
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from services.vision.dice.calibration import DIE_MM, DiceCalibration
from services.vision.dice.faces import PATTERNS, PIP_OFFSET
from services.vision.reading import Reading, no_decision

# (image, centre, die side, angle) -> (value or None, margin): the face scorer at that square
FaceScorer = Callable[[np.ndarray, tuple[float, float], float, float], tuple[int | None, float]]
Classic = Callable[[np.ndarray, DiceCalibration], Reading]

HAT = 21                 # top-hat square (px): wider than any pip
MIN_HAT = 34.0           # grey levels a pip stands out of what is around it
PIP_R = (1.8, 10.0)      # pip radius range (px)
MIN_ROUND = 0.55         # component area / bounding-box area (a disc: 0.785)
LINK = 9.6               # pips closer than this many radii may be one face (2's diagonal 8.9)
SNAP = 0.3               # a pip's distance from its grid cell, in grid steps
PIP_TO_STEP = (0.15, 0.55)  # pip radius / grid step (drilled pips ~0.31)
MIN_MARGIN = 0.3         # the face scorer's margin needed (reader.MIN_MARGIN)
MIN_EDGE = 0.55          # share of the ring outside the face unlike the body
BODY_DIFF = 28.0         # colour distance (BGR, L2) that counts as unlike the body
CROWD = 1.15             # dice: another pip within this many die sides of a face's centre
SAME_SIZE = 1.3          # two dice of one frame: sides within this ratio (perspective)
EDGE = 0.75              # a face's centre at least this many sides inside the frame


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    r: float
    dark: bool


@dataclass(frozen=True)
class Face:
    centre: tuple[float, float]
    side: float          # die side, px
    angle: float         # degrees
    value: int
    margin: float
    pips: tuple[int, ...]   # indices into the frame's pips


def find_pips(image: np.ndarray) -> list[Pip]:
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (HAT, HAT))
    pips: list[Pip] = []
    lo, hi = np.pi * PIP_R[0] ** 2, np.pi * PIP_R[1] ** 2
    for dark, op in ((False, cv2.MORPH_TOPHAT), (True, cv2.MORPH_BLACKHAT)):
        hat = cv2.morphologyEx(grey, op, kernel)
        mask = (hat > MIN_HAT).astype(np.uint8)
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
                            float(np.sqrt(area / np.pi)), dark))
    return pips


def group(pips: list[Pip]) -> list[list[int]]:
    """Pips of one face: same polarity, similar size, linked within LINK radii."""
    parent = list(range(len(pips)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    xy = np.array([(p.x, p.y) for p in pips]).reshape(-1, 2)
    for i, p in enumerate(pips):
        d = np.hypot(*(xy[i + 1:] - xy[i]).T)
        for j in np.nonzero(d < LINK * p.r * 1.15)[0] + i + 1:
            q = pips[j]
            if q.dark == p.dark and 0.7 < q.r / p.r < 1.43 and \
                    d[j - i - 1] < LINK * (p.r + q.r) / 2:
                parent[root(i)] = root(int(j))
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
    xy = np.array([(pips[i].x, pips[i].y) for i in members])
    r = float(np.mean([pips[i].r for i in members]))
    if len(members) == 1:
        return (float(xy[0, 0]), float(xy[0, 1])), r / 0.31 / PIP_OFFSET, 0.0, 1
    if len(members) > 6:
        return None
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


def confirm(image: np.ndarray, centre: tuple[float, float], side: float, angle: float,
            value: int, score: FaceScorer) -> float:
    """The face scorer's margin for `value` at this square, or -1 for another value."""
    got, margin = score(image, centre, side, angle)
    if got != value:
        return -1.0
    return margin


def _ends(image: np.ndarray, centre: tuple[float, float], side: float, angle: float) -> bool:
    """Does the die's body end all round? The body's colour (the median of 8 points between
    the pip cells, 0.4 of a side from the centre on the diagonals' and axes' halfway marks)
    against 24 points on a square ring 0.7 of a side from the centre."""
    t = np.radians(angle)
    ax, ay = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    c = np.array(centre)
    body_uv, ring_uv = _BODY_UV, _RING_UV
    h, w = image.shape[:2]

    def at(uv: np.ndarray) -> np.ndarray:
        xy = c + side * (uv[:, :1] * ax + uv[:, 1:] * ay)
        x = np.clip(np.round(xy[:, 0]).astype(int), 0, w - 1)
        y = np.clip(np.round(xy[:, 1]).astype(int), 0, h - 1)
        return image[y, x].astype(np.float32)

    body = np.median(at(body_uv), axis=0)
    unlike = np.linalg.norm(at(ring_uv) - body, axis=1) > BODY_DIFF
    # Per side of the ring: the body must end on at least three sides (the fourth may show
    # the die's own side face or its shadow to a tilted camera). A face found at a pip of a
    # larger die (its other pips missed) has the die's body on two sides.
    ends = unlike.reshape(4, 6).mean(1) >= 4 / 6
    return int(ends.sum()) >= 3 and float(unlike.mean()) >= MIN_EDGE


_BODY_UV = np.array([(0.135, 0.135), (-0.135, 0.135), (0.135, -0.135), (-0.135, -0.135),
                     (0.4, 0.135), (-0.4, -0.135), (0.135, -0.4), (-0.135, 0.4)])
_K = np.linspace(-0.7, 0.7, 7)[:-1]
_RING_UV = np.concatenate([np.column_stack([_K, np.full(6, -0.7)]),
                           np.column_stack([np.full(6, 0.7), _K]),
                           np.column_stack([-_K, np.full(6, 0.7)]),
                           np.column_stack([np.full(6, -0.7), -_K])])


def find_faces(image: np.ndarray, score: FaceScorer) -> tuple[list[Face], list[Pip]]:
    pips = find_pips(image)
    faces: list[Face] = []
    h, w = image.shape[:2]
    for members in group(pips):
        found = fit_face(pips, members)
        if found is None:
            continue
        (centre, side, angle, value), used = found
        if not (EDGE * side <= centre[0] <= w - EDGE * side and
                EDGE * side <= centre[1] <= h - EDGE * side):
            continue  # a die cut by the frame's edge (or the recorder's text in a corner)
        if not _ends(image, centre, side, angle) or \
                (value == 1 and not _ends(image, centre, side * 1.25, angle)):
            continue  # a lone pip: the body must end around any size it may have
        # The value must hold at every plausible size of the die: a lone pip says little
        # about it (the centre pip of a 3 with faint corner pips reads as a 1 at a size where
        # the corners fall off the grid), a grid of pips more.
        scales = (1.0, 0.8, 1.25) if value == 1 else (1.0, 0.9, 1.1)
        margin = np.inf
        for k in scales:  # the weakest size decides: stop at the first without margin
            margin = min(margin, confirm(image, centre, side * k, angle, value, score))
            if margin < MIN_MARGIN:
                break
        if margin >= MIN_MARGIN:
            faces.append(Face(centre, side, angle, value, margin, tuple(used)))
    return faces, pips


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
        stray = [p for i, p in enumerate(pips) if i not in used and _beside(f, p, pips)]
        if stray:
            return no_decision("dice", "cocked", stray=len(stray), **detail)
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


SECOND_OPINION = True


def _classic(image: np.ndarray, side: float, read_dice: Classic) -> Reading:
    """The calibrated reader's own reading (its cocked, overlap and glare checks) with the
    whole frame as the landing area at the die size the pips gave."""
    h, w = image.shape[:2]
    ppm = side / DIE_MM
    frame = DiceCalibration(((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))),
                            (w / ppm, h / ppm))
    return read_dice(image, frame)


def _beside(face: Face, p: Pip, pips: list[Pip]) -> bool:
    """Is this pip, not one of the face's, a pip of another face touching it (the side face
    of a leaning die, a die on a die)? Of the face's pips' polarity and size, outside the
    face's square and within CROWD sides of its centre."""
    own = [pips[i] for i in face.pips]
    r = float(np.mean([q.r for q in own]))
    if p.dark != own[0].dark or not 0.7 < p.r / r < 1.43:
        return False
    t = np.radians(face.angle)
    dx, dy = p.x - face.centre[0], p.y - face.centre[1]
    u, v = dx * np.cos(t) + dy * np.sin(t), -dx * np.sin(t) + dy * np.cos(t)
    return max(abs(u), abs(v)) > 0.55 * face.side and np.hypot(u, v) < CROWD * face.side


def _once(faces: list[Face]) -> list[Face]:
    """A face found twice (a 1 inside another face's pips cannot be, but a lone pip inside a
    body can): keep the one with more pips."""
    kept: list[Face] = []
    for f in sorted(faces, key=lambda f: -len(f.pips)):
        if all(np.hypot(f.centre[0] - k.centre[0], f.centre[1] - k.centre[1]) > 0.5 * k.side
               for k in kept):
            kept.append(f)
    return kept

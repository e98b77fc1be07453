"""Where a die may be, and how big, on a frame from a camera nobody calibrated: one candidate
per group of pips (pipfinder.find_pips, pipfinder.group), each looked at by the face
classifier (classifier.py).

A group whose pips make a valid grid (pipfinder.fit_grids) gives its grid's centre and die
side, and the value the grid says; any other group (a pip missed or one too many, a glare
spot beside the pips, pips of a leaning die's side face) gives the pips' mean and a side
guessed from their radius; a lone pip is a 1's centre. The classifier, trained on these very
candidates (services/scenes/dice_crops.py), tells a die's centre from everything else.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from services.vision.dice import pipfinder
from services.vision.dice.faces import PIP_OFFSET, PIP_RADIUS
from services.vision.dice.pipfinder import MIN_HALF, Pip, find_pips, group
from services.vision.stats import median

CROP = 40            # the classifier's input side (px)
CROP_SIDES = 2.0     # a crop spans this many die sides: the die and what lies round it
MIN_SIDE = 14.0      # px: dice smaller than this have pips too small to find
NEAR = 0.3           # candidates closer than this many sides, and of the same size, are one
SAME_SIZE = 1.3      # sides within this ratio: the same size
LINK = 11.5          # pips this many radii apart may be one face (small pips: a 2's diagonal
# is 2 x 0.29 x sqrt 2 / 0.075 = 10.9 radii)
SPLIT = 0.85         # a group of more than 7 pips: split with the link this much shorter ...
MIN_LINK = 4.5       # ... down to this (a 6's pips are 0.29 / 0.075 = 3.9 radii apart)
# Corner pairs (_corner_subsets) in groups of up to CORNER_GROUP pips: a face's pips lie
# within ON_FACE of the corners' distance from its centre (its corner pips at 0.5; the die's
# edge at 0.66 or more), their radii within ON_FACE_SIZE of the corners' (pipfinder.group's
# link); fewer than two more pips of that size lie within ALONE (1.3 die sides: a leaning
# die's side face beside its top face, the leaning set's frame 108; at 1.0 side it was
# decided).
# Development frames (README, "Corner pairs"): 11 more read of 1,351, no further
# no-decision frame decided; faces of 2 pips too read 9 more but lost 3 flat pairs to
# leaning views of a 6's pips taken two by two.
CORNER_GROUP = 24
ON_FACE = 0.6
ON_FACE_SIZE = 1.43
ALONE = 1.7
# Pairs (`pairs`; views._twos, the second look of a frame with one sure die): two pips
# that may be a 2's diagonal and gave no candidate of their own: sizes PAIR_SIZE times apart
# (one pip run into print or glare beside it, which pipfinder.group's size rule refuses), or
# both in one group of up to PAIR_GROUP pips (a 2 linked to dots of print); pips within AWAY
# of the sure die's side of its centre left out (that die's own). A pair counts only as a 2
# read sure. Development frames (README, "Pairs"): 9 more read of 1,351, no further
# no-decision frame decided; pairing any two pips at a 2's diagonal whatever their sizes
# read 4 more for a third more crops. PAIR_GROUP was 4 until stop 33: a 2 linked to a chip's
# three inserts (first 1068001 frame 180) makes a group of 5, no subset of which is tried as
# a 2. At 7, the most pips `_faces` keeps as one group: development frames +3 (5: +2; 10 and
# any size: the same 3), fresh seeds +1 of 2,800, 0.95 of the speed on first-generator
# frames (0.985 at 5), 0.99 on the TUNING region's.
PAIR_SIZE = (1.43, 2.3)
PAIR_GROUP = 7
# ... with the smaller pip's radius PAIR_TO_STEP of the grid step its diagonal makes: up to
# 0.5, over a grid fit's 0.44 (pipfinder.PIP_TO_STEP), since blur swells a pip (stop 31: a
# fresh first-generator seed, 1038001 frame 194, a green 2 under glare and motion blur, its
# pips 0.48 of their step: no candidate at all, `single_die`). A pair is a 2 or nothing.
PAIR_TO_STEP = (pipfinder.PIP_TO_STEP[0], 0.5)
AWAY = 0.75
ON_DIE = 0.45       # a die's own pips: within this many sides of its centre


@dataclass(frozen=True)
class Candidate:
    x: float
    y: float
    side: float          # die side (px), measured or guessed
    fit: int | None      # the value the pips' grid makes, None when they make none
    pips: int            # how many pips the candidate stands on
    dark: bool           # the pips' polarity
    split: bool = False  # a lone pip taken out of a pair or a three (looked at for a 1 only)


def candidates(image: np.ndarray, half: bool = False, cores: bool = True) -> list[Candidate]:
    """Candidates at the frame's resolution or, `half`, at half of it (big dice: their pips
    are wider than the pip finder's top-hat; blurred dice: their pips stand out better);
    [] when the frame is too small to halve. `cores`: pipfinder.find_pips's."""
    if not half:
        return _at(find_pips(image, cores), image.shape, 1.0)
    if min(image.shape[:2]) < 2 * MIN_HALF:
        return []
    small = cv2.pyrDown(image)
    return _at(find_pips(small, cores), small.shape, 2.0)


class Frame:
    """One frame's candidates for the looks at it (views.look): without the pips' cores,
    with them, at half resolution; `candidates(cores)` and `half()` are candidates(image,
    cores=cores) and candidates(image, half=True). The frame's pips are found once
    (pipfinder.Spots: the cores from the same hats), and when the cores add no pip the
    candidates with them are the ones without them (the same pips make the same
    candidates)."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self._spots = pipfinder.Spots(image)
        self._found: dict[bool, list[Candidate]] = {}
        self.looked_twice = False    # views.second_look was taken (views.look stops early)

    @property
    def grey(self) -> np.ndarray:
        """The frame in grey (cv2.COLOR_BGR2GRAY), as the pip finder took it."""
        return self._spots.grey

    def candidates(self, cores: bool = True) -> list[Candidate]:
        if cores not in self._found:
            if cores and not any(self._spots.cores()) and False in self._found:
                self._found[True] = self._found[False]
            else:
                self._found[cores] = _at(self._spots.pips(cores), self.image.shape, 1.0)
        return self._found[cores]

    def streaked(self, dice: list[Candidate]) -> list[Candidate]:
        """The candidates of the groups of the frame's pips (with the cores) and those inside
        spots that are no pip (pipfinder.Spots.streaks: a lamp's streak run into a bright
        pip) that hold one of the latter, the latter of the size of the bright pips of
        `dice` (the two dice of a roll are a pair); [] when there are none."""
        pips = self._spots.pips(True)
        own = [p.r for p in pips if not p.dark and any(
            np.hypot(p.x - d.x, p.y - d.y) < ON_DIE * d.side for d in dice)]
        more = self._spots.streaks(float(np.median(own))) if own else []
        return _at(pips + more, self.image.shape, 1.0, since=len(pips)) if more else []

    def pips(self) -> list[Pip]:
        """The frame's pips with the cores (pipfinder.Spots.pips)."""
        return self._spots.pips(True)

    def half(self) -> list[Candidate]:
        return candidates(self.image, half=True)

    def pairs(self, dice: list[Candidate]) -> list[Candidate]:
        """`pairs` of the frame's pips with the cores, away from `dice`."""
        return _in_frame(pairs(self._spots.pips(True), dice), self.image.shape, 1.0)


def pairs(pips: list[Pip], dice: list[Candidate]) -> list[Candidate]:
    """A 2's candidate (its centre and side from the pair's diagonal: the smaller pip's
    radius within PAIR_TO_STEP of its grid step) for each pair of pips of one
    polarity whose sizes are PAIR_SIZE apart or which lie in one group of at most PAIR_GROUP
    pips (see PAIR_SIZE), leaving out pips within AWAY of a die of `dice`."""
    pips = [p for p in pips if all(np.hypot(p.x - d.x, p.y - d.y) > AWAY * d.side
                                   for d in dice)]
    if len(pips) < 2:
        return []
    home = np.arange(-1, -len(pips) - 1, -1)   # each pip its own, unless in a small group
    for n, members in enumerate(group(pips, LINK)):
        if len(members) <= PAIR_GROUP:
            home[members] = n
    xy = np.array([(p.x, p.y) for p in pips])
    r = np.array([p.r for p in pips])
    dark = np.array([p.dark for p in pips])
    i, j = pipfinder.index_pairs(len(pips))
    small, ratio = np.minimum(r[i], r[j]), np.maximum(r[i], r[j]) / np.minimum(r[i], r[j])
    step = np.hypot(*(xy[i] - xy[j]).T) / (2 * np.sqrt(2))
    low, high = PAIR_TO_STEP
    ok = (dark[i] == dark[j]) & (low * step <= small) & (small <= high * step) & (
        (home[i] == home[j]) | ((PAIR_SIZE[0] <= ratio) & (ratio <= PAIR_SIZE[1])))
    mid = (xy[i] + xy[j]) / 2
    return [Candidate(float(mid[k, 0]), float(mid[k, 1]), float(step[k] / PIP_OFFSET), 2, 2,
                      bool(dark[i[k]])) for k in np.flatnonzero(ok)]


def at_side(pips: list[Pip], die: Candidate) -> list[Candidate]:
    """The candidates of a second die like `die` (its polarity, its side within SAME_SIZE,
    its pips' size within ON_FACE_SIZE) among the frame's pips, those within AWAY of `die`
    left out: each such pip alone as a 1 (`split`), and each pair of them at a face's
    corners for that side (`_corner_subsets`' rule) with the pips on the face between them,
    whatever lies beside it (a face linked to print, which no group or corner pair of the
    frame's own makes: again._at_side, a look again at a `single_die` frame)."""
    own = [p.r for p in pips if p.dark == die.dark and np.hypot(p.x - die.x, p.y - die.y)
           < ON_DIE * die.side]
    if not own:
        return []
    r = median(np.array(own))
    mine = [p for p in pips if p.dark == die.dark and abs(np.log(p.r / r)) < np.log(ON_FACE_SIZE)
            and np.hypot(p.x - die.x, p.y - die.y) > AWAY * die.side]
    if not mine:
        return []
    lone = [Candidate(p.x, p.y, die.side, 1, 1, die.dark, split=True) for p in mine]
    xy = np.array([(p.x, p.y) for p in mine])
    a, b = pipfinder.index_pairs(len(mine))
    d = np.hypot(*(xy[a] - xy[b]).T)
    corners = 2 * np.sqrt(2) * PIP_OFFSET * die.side
    keep = (d >= corners / SAME_SIZE) & (d <= corners * SAME_SIZE)
    on = _from_centres(xy, a[keep], b[keep], d[keep]) <= ON_FACE
    subsets = sorted({tuple(np.flatnonzero(row).tolist()) for row in on
                      if 2 <= row.sum() <= 6})
    faces = [c for s, f in zip(subsets, pipfinder.fit_grids(mine, [list(t) for t in subsets]))
             if (c := _fit(mine, list(s), die.dark, f)) is not None and same_size(c, die)]
    return lone + faces


def _from_centres(xy: np.ndarray, a: np.ndarray, b: np.ndarray, d: np.ndarray) -> np.ndarray:
    """How far each point of `xy` lies from the midpoint of each pair (a, b) of them, in the
    pair's distances `d` (pairs x points): a face's pips lie within ON_FACE of its corners'."""
    centre = (xy[a] + xy[b]) / 2
    return np.hypot(*(xy[None] - centre[:, None]).transpose(2, 0, 1)) / d[:, None]


def at_pips(pips: list[Pip], shape: tuple[int, ...]) -> list[Candidate]:
    """The candidates of pips found some other way on a frame of this shape (by_body.py)."""
    return _at(pips, shape, 1.0)


def _at(pips: list[Pip], shape: tuple[int, ...], scale: float, since: int = 0
        ) -> list[Candidate]:
    """The distinct candidates of an image's pips, `scale` times the image's size: those of
    the groups' faces and their subsets, then those of the corner pairs (_corner_subsets) of
    each group that is not a face as it is, at a place or size no candidate with a grid
    has; of the groups holding a pip from index `since` on only."""
    groups = [m for m in group(pips, LINK) if max(m) >= since]
    plan = [_subsets(f) for m in groups for f in _faces(pips, m, LINK)]
    fits = pipfinder.fit_grids(pips, [s for subsets in plan for s in subsets])
    first, at, faces = [], 0, set()
    for subsets in plan:
        found, at = fits[at:at + len(subsets)], at + len(subsets)
        first += _candidates(pips, subsets, found)
        if found[0] is not None:
            faces.add(frozenset(subsets[0]))
    known = {frozenset(s) for subsets in plan for s in subsets}
    corners = [c for m in groups if frozenset(m) not in faces
               for c in _corner_subsets(pips, m) if frozenset(c) not in known]
    more = [c for s, f in zip(corners, pipfinder.fit_grids(pips, corners))
            if (c := _fit(pips, s, pips[s[0]].dark, f))]
    kept = _distinct(_in_frame(first, shape, scale))
    # a corner face stands beside a guessed candidate (a group's mean) of its place and size,
    # never in its stead (in its stead it lost a first-generator 6 read at the guess's size)
    return kept + [c for c in _distinct(_in_frame(more, shape, scale))
                   if all(distinct(c, k) or k.fit is None for k in kept)]


def _in_frame(found: list[Candidate], shape: tuple[int, ...], scale: float) -> list[Candidate]:
    """The candidates big enough and with most of the die in the frame, `scale` times the
    image's size."""
    h, w = shape[:2]
    out = []
    for c in found:
        m = 0.45 * c.side  # most of the die in the frame
        if c.side >= MIN_SIDE / scale and m <= c.x <= w - m and m <= c.y <= h - m:
            out.append(Candidate((c.x + 0.5) * scale - 0.5, (c.y + 0.5) * scale - 0.5,
                                 c.side * scale, c.fit, c.pips, c.dark, c.split))
    return out


def _faces(pips: list[Pip], members: list[int], link: float) -> list[list[int]]:
    """A group of at most 7 pips as it is; a bigger one split by ever shorter links (SPLIT
    times the last) until each part has 7 or fewer: two dice a few sides apart link into one
    group (a 4's pips beside a 6's, 46 px apart at a radius of 4.2: 11 radii), whose parts
    are faces. More than 7 pips of two dice make a face of 4 or more, and the dice lie a
    side apart or more; a group split into nothing bigger than 3 (a chip's inserts, uneven
    in a camera's view), into parts closer than a side (a leaning die's top and side
    faces: its top face alone could pass for a flat die's), or still too big at MIN_LINK
    (printed text), is no face."""
    if len(members) <= 7:
        return [members]
    link *= SPLIT
    if link < MIN_LINK:
        return []
    sub = [pips[k] for k in members]
    if _one_group_to_the_end(sub, link):
        return []
    parts = [[members[i] for i in g] for g in group(sub, link)]
    faces = [f for part in parts for f in _faces(pips, part, link)]
    if not any(len(f) >= 4 for f in faces) or _one_die(pips, faces):
        return []
    return faces


def _one_group_to_the_end(pips: list[Pip], link: float) -> bool:
    """Are these pips still one group at the shortest link the split reaches from `link`
    (the last not below MIN_LINK)? Then they are one group at every link between (a shorter
    link only drops links: the same pairwise distances against smaller products), so each
    split finds no part and the group is no face: printed text is known at once, not by
    grouping it at every link in turn."""
    last = link
    while last * SPLIT >= MIN_LINK:
        last *= SPLIT
    return last != link and len(group(pips, last)) == 1


def _one_die(pips: list[Pip], faces: list[list[int]]) -> bool:
    """Do two of these faces lie closer than a die's side (from its pips' radius)?"""
    xy = np.array([np.mean([(pips[i].x, pips[i].y) for i in f], axis=0) for f in faces])
    side = median(np.array([pips[i].r for f in faces for i in f])) / PIP_RADIUS
    apart = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    return bool(np.any(apart[pipfinder.index_pairs(len(faces))] < side))


def _corner_subsets(pips: list[Pip], members: list[int]) -> list[list[int]]:
    """Each pair of the group's pips taken as a face's opposite corners (as far apart as the
    grid's diagonal for their radius), with the group's pips of their size (within
    ON_FACE_SIZE) on that face (within ON_FACE of their distance from its centre), when no
    two more lie beside it (within ALONE): a face of 3 to 6 pips linked to dots or letters
    of print, in a group no subset of which (_subsets, _faces) is the face alone (a 5
    beside a camera's time stamp). fit_grids then says which make a face."""
    if not 3 <= len(members) <= CORNER_GROUP:
        return []
    xy = np.array([(pips[i].x, pips[i].y) for i in members])
    r = np.array([pips[i].r for i in members])
    a, b = pipfinder.index_pairs(len(members))
    d = np.hypot(*(xy[a] - xy[b]).T)
    rr = (r[a] + r[b]) / 2
    low, high = (2 * np.sqrt(2) / q for q in reversed(pipfinder.PIP_TO_STEP))
    keep = (d >= low * rr) & (d <= high * rr)
    a, b, d, rr = a[keep], b[keep], d[keep], rr[keep]
    dist = _from_centres(xy, a, b, d)
    size = np.abs(np.log(r[None] / rr[:, None])) < np.log(ON_FACE_SIZE)
    on = (dist <= ON_FACE) & size
    beside = ((dist > ON_FACE) & size & (dist <= ALONE)).sum(axis=1)
    subsets = {tuple(members[k] for k in np.flatnonzero(row))
               for row, n in zip(on, beside) if n < 2}
    return [list(s) for s in sorted(subsets) if 3 <= len(s) <= 6]


def _subsets(members: list[int]) -> list[list[int]]:
    """The group, then the group less one pip, then less two when it has up to five (a lamp's
    reflection beside a 2 is a third bright spot; a 2's pips linked to pips of another face
    make a 3 or a 4). The pips of a pair or a three each alone too (`split`): a 1's pip
    linked to dots of print beside it (on the TUNING validation 17 of 19 dice with no
    candidate were 1s or 2s so linked)."""
    return [members, *([i for i in members if i not in drop] for k in (1, 2)
                       if len(members) - k >= (1 if len(members) <= 3 else 2)
                       and (k == 1 or len(members) <= 5)
                       for drop in itertools.combinations(members, k))]


def _candidates(pips: list[Pip], subsets: list[list[int]],
                fits: list[pipfinder.Fit | None]) -> list[Candidate]:
    """The valid grids of a group's subsets (_subsets, `fits` their grids), the whole group's
    first; when the whole group makes no grid, the group's mean too."""
    members = subsets[0]
    dark = pips[members[0]].dark
    fit = _fit(pips, members, dark, fits[0])
    if len(members) == 1:
        return [fit] if fit is not None else []
    out = [f for s, found in zip(subsets[1:], fits[1:])
           if (f := _fit(pips, s, dark, found, split=len(s) == 1)) is not None]
    if fit is not None:
        return [fit, *out]
    xy = np.array([(pips[i].x, pips[i].y) for i in members])
    r = median(np.array([pips[i].r for i in members]))
    cx, cy = xy.mean(0)
    return out + [Candidate(float(cx), float(cy), r / PIP_RADIUS, None, len(members), dark)]


def _fit(pips: list[Pip], members: list[int], dark: bool,
         found: pipfinder.Fit | None, split: bool = False) -> Candidate | None:
    if found is None:
        return None
    (cx, cy), side, _angle, value = found
    return Candidate(cx, cy, side, value, len(members), dark, split)


def _distinct(found: list[Candidate]) -> list[Candidate]:
    """One candidate per place and size: a grid's over a guess, more pips over fewer."""
    order = sorted(found, key=lambda c: (c.fit is None, -c.pips))
    if not order:
        return []
    # np.hypot of every pair at once (the same values as pair by pair)
    x, y, side = (np.array([getattr(c, a) for c in order], float) for a in ("x", "y", "side"))
    apart = np.hypot(x[:, None] - x, y[:, None] - y) > NEAR * np.minimum(side[:, None], side)
    other_size = np.maximum(side[:, None], side) > SAME_SIZE * np.minimum(side[:, None], side)
    distinct = (apart | other_size).tolist()
    kept: list[int] = []
    for i in range(len(order)):
        if all(distinct[i][k] for k in kept):
            kept.append(i)
    return [order[i] for i in kept]


def distinct(a: Candidate, b: Candidate) -> bool:
    """Two candidates at distinct places or of distinct sizes (as _distinct tells them)."""
    return bool(np.hypot(a.x - b.x, a.y - b.y) > NEAR * min(a.side, b.side)
                or not same_size(a, b))


def same_size(a: Candidate, b: Candidate) -> bool:
    """Two candidates' sides within SAME_SIZE of each other."""
    return max(a.side, b.side) <= SAME_SIZE * min(a.side, b.side)


def crop(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    """CROP x CROP pixels (BGR) centred on (x, y), CROP_SIDES die sides across, area-averaged
    (a big die is shrunk without aliasing its pips); beyond the frame, its edge repeated."""
    half = CROP_SIDES * side / 2
    x0, y0 = int(round(x - half)), int(round(y - half))
    n = max(int(round(2 * half)), 2)
    h, w = image.shape[:2]
    region = image[max(y0, 0):min(y0 + n, h), max(x0, 0):min(x0 + n, w)]
    if region.shape[:2] != (n, n):  # the frame's edge: only this small region is padded
        top, left = max(-y0, 0), max(-x0, 0)
        region = cv2.copyMakeBorder(region, top, n - region.shape[0] - top, left,
                                    n - region.shape[1] - left, cv2.BORDER_REPLICATE)
    if n > 2 * CROP:   # INTER_AREA at a whole factor is OpenCV's fast path
        region = cv2.resize(region, (2 * CROP, 2 * CROP), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(region, (CROP, CROP), interpolation=cv2.INTER_AREA if n > CROP
                      else cv2.INTER_LINEAR)


def colours_at(image: np.ndarray, cands: list[Candidate], offsets: np.ndarray) -> np.ndarray:
    """The frame's colours (float32, candidates x N x 3) at `offsets` (N x 2, in die sides)
    from each candidate's centre, each at its nearest pixel, the frame's edge repeated."""
    h, w = image.shape[:2]
    side = np.array([c.side for c in cands])
    pts = offsets * side[:, None, None] + np.array([(c.x, c.y) for c in cands])[:, None, :]
    xs = np.clip(np.rint(pts[..., 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(int), 0, h - 1)
    return np.asarray(image[ys, xs], np.float32)

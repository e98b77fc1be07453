"""The learned dice reader's speed-ups give what the plain code gave: the same pip grids, the
same candidates (the face classifier is trained on them: services/scenes/dice_crops.py), the
same probabilities, and a half-resolution look only where it can change the reading."""
from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from services.scenes.foreign import sets
from services.vision.dice import candidates as C
from services.vision.dice import pipfinder as P
from services.vision.dice import views
from services.vision.dice.classifier import classify, prepare
from services.vision.dice.faces import LAYOUT, PATTERNS, PIP_OFFSET, PIP_RADIUS
from services.vision.stats import column_medians, median


def synthetic_pips(rng: np.random.Generator) -> list[P.Pip]:
    """Faces of every value at random places, sizes and turns, pips a little off their cells,
    and stray spots among them."""
    pips = []
    for value in rng.permutation(np.repeat(np.arange(1, 7), 3)):
        side, turn = rng.uniform(15, 90), rng.uniform(0, 2 * np.pi)
        cx, cy = rng.uniform(50, 600, 2)
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        for cell in LAYOUT[int(value)]:
            x, y = rot @ (np.array(cell) * PIP_OFFSET * side) + rng.normal(0, side * 0.02, 2)
            pips.append(P.Pip(float(cx + x), float(cy + y),
                              float(side * PIP_RADIUS * rng.uniform(0.85, 1.15)), False))
    for _ in range(10):
        x, y = rng.uniform(50, 600, 2)
        pips.append(P.Pip(float(x), float(y), float(rng.uniform(2, 8)), False))
    return pips


def reference_fit_grid(pips: list[P.Pip], members: list[int]) -> P.Fit | None:
    """pipfinder.fit_grid as it was before the batch (commit 9ae4ed2), one subset at a time;
    a lone pip's side is the one its radius gives (there it was r / 0.31 / PIP_OFFSET and the
    candidate finder replaced it by r / PIP_RADIUS)."""
    if len(members) > 6:
        return None
    xy = np.array([(pips[i].x, pips[i].y) for i in members])
    r = sum(pips[i].r for i in members) / len(members)  # float(np.mean(...)) below 8 values
    if len(members) == 1:
        return (float(xy[0, 0]), float(xy[0, 1])), pips[members[0]].r / PIP_RADIUS, 0.0, 1
    c = xy.mean(0)
    rel = xy - c
    far = int(np.argmax(np.hypot(*rel.T)))
    step = float(np.hypot(*rel[far])) / np.sqrt(2)
    if step <= 0 or not P.PIP_TO_STEP[0] <= r / step <= P.PIP_TO_STEP[1]:
        return None
    angle = float(np.degrees(np.arctan2(rel[far, 1], rel[far, 0]))) - 45.0
    t = np.radians(angle)
    rot = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    grid = rel @ rot.T / step
    cells = np.round(grid)
    if np.abs(grid - cells).max() > P.SNAP or np.abs(cells).max() > 1:
        return None
    pattern = frozenset((int(x), int(y)) for x, y in cells)
    if len(pattern) != len(members) or pattern not in PATTERNS:
        return None
    return (float(c[0]), float(c[1])), step / PIP_OFFSET, angle, PATTERNS[pattern]


def test_pip_grids_fitted_together_are_the_grids_fitted_one_by_one_bit_for_bit():
    rng = np.random.default_rng(7)
    fitted = 0
    for _ in range(20):
        pips = synthetic_pips(rng)
        subsets = [list(s) for m in P.group(pips, C.LINK) if len(m) <= 7
                   for k in range(1, min(len(m), 7) + 1) for s in itertools.combinations(m, k)]
        subsets += [list(rng.choice(len(pips), int(rng.integers(2, 7)), replace=False))
                    for _ in range(50)]
        together = P.fit_grids(pips, subsets)
        assert together == [reference_fit_grid(pips, s) for s in subsets]
        fitted += sum(f is not None and f[3] > 1 for f in together)
    assert fitted > 300  # the faces of two pips and more are found


def reference_candidates(image: np.ndarray, half: bool) -> list[C.Candidate]:
    """The candidate finder as it was written before it was made faster (commit 9ae4ed2):
    each subset fitted by itself, distances pair by pair; with the split of groups of more
    than 7 pips (candidates._faces) and the lone pips of pairs and threes (`split`) added
    since."""
    scale = 1.0
    if half:
        image, scale = cv2.pyrDown(image), 2.0
    pips = P.find_pips(image)
    h, w = image.shape[:2]

    def fit(members: list[int], dark: bool, split: bool = False) -> C.Candidate | None:
        found = reference_fit_grid(pips, members)
        if found is None:
            return None
        (cx, cy), side, _angle, value = found
        if value == 1:
            side = pips[members[0]].r / PIP_RADIUS
        return C.Candidate(cx, cy, side, value, len(members), dark, split)

    found = []
    for members in (f for g in P.group(pips, C.LINK) for f in C._faces(pips, g, C.LINK)):
        dark = pips[members[0]].dark
        whole = fit(members, dark)
        if len(members) == 1:
            group = [whole] if whole is not None else []
        else:
            least = 1 if len(members) <= 3 else 2   # a pair's or three's pips alone (split)
            out = [f for k in (1, 2) if len(members) - k >= least and (k == 1 or len(members) <= 5)
                   for drop in itertools.combinations(members, k)
                   if (f := fit([i for i in members if i not in drop], dark,
                                len(members) - k == 1)) is not None]
            if whole is not None:
                group = [whole, *out]
            else:
                xy = np.array([(pips[i].x, pips[i].y) for i in members])
                r = median(np.array([pips[i].r for i in members]))
                cx, cy = xy.mean(0)
                group = out + [C.Candidate(float(cx), float(cy), r / PIP_RADIUS, None,
                                           len(members), dark)]
        for c in group:
            m = 0.45 * c.side
            if c.side >= C.MIN_SIDE / scale and m <= c.x <= w - m and m <= c.y <= h - m:
                found.append(C.Candidate((c.x + 0.5) * scale - 0.5, (c.y + 0.5) * scale - 0.5,
                                         c.side * scale, c.fit, c.pips, c.dark, c.split))
    kept: list[C.Candidate] = []
    for c in sorted(found, key=lambda c: (c.fit is None, -c.pips)):
        if all(np.hypot(c.x - k.x, c.y - k.y) > C.NEAR * min(c.side, k.side) or
               not C.same_size(c, k) for k in kept):
            kept.append(c)
    return kept


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    # frames 4 and 29 need the second look; the pips of frame 7 have no cores
    return [sets.render(sets.TUNING, "dice", i)[0] for i in (*range(8), 29)]


def reference_find_pips(image: np.ndarray, cores: bool) -> list[P.Pip]:
    """pipfinder.find_pips as it was before its hats were kept for the second look (commit
    defa003): the hats computed anew for every call."""
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    pips: list[P.Pip] = []
    for dark, op in ((False, cv2.MORPH_TOPHAT), (True, cv2.MORPH_BLACKHAT)):
        hat = cv2.morphologyEx(grey, op, P.HAT_KERNEL)
        found = P.spots(hat, P.MIN_HAT, dark)
        pips += found + (P._apart(P.spots(hat, P.CORE_HAT, dark), found) if cores else [])
    return pips


def test_a_frames_kept_hats_give_the_pips_found_anew_with_and_without_the_cores(frames):
    coreless = 0
    for image in frames + [cv2.pyrDown(f) for f in frames[:2]]:
        spots = P.Spots(image)
        plain, cored = reference_find_pips(image, False), reference_find_pips(image, True)
        assert spots.pips(False) == plain and spots.pips(True) == cored
        assert spots.pips(False) == plain  # asking for the cores leaves the plain pips as
        assert len(cored) == len(plain) + sum(map(len, spots.cores()))
        coreless += cored == plain
    assert coreless >= 1


def test_a_frames_candidates_are_the_ones_found_anew(frames):
    """candidates.Frame: without the cores, with them (from the kept pips, or the same list
    when the cores add none), at half resolution, in the order views.look asks."""
    for image in frames:
        frame = C.Frame(image)
        assert frame.candidates(cores=False) == C.candidates(image, cores=False)
        assert frame.candidates() == C.candidates(image)
        assert frame.half() == C.candidates(image, half=True)
    alone = C.Frame(frames[1])  # with the cores first: found, not taken from the plain ones
    assert alone.candidates() == C.candidates(frames[1]) != C.candidates(frames[1], cores=False)


def reference_look(image: np.ndarray) -> list[views.Seen]:
    """views.look as it was before the frame's pips were kept (commit defa003): candidates
    found anew for each look, the cores' new candidates and the half-resolution ones
    classified apart."""
    first = views._look(image, C.candidates(image, cores=False))
    if len(views._dice(views._sure(first))) >= 2 or \
            any(s.lean >= views.LEAN_P for s in first):
        return first
    known = {s.candidate: s for s in first}
    full = C.candidates(image)
    seen = [known[c] for c in full if c in known] + \
        views._look(image, [c for c in full if c not in known])
    more = [c for c in C.candidates(image, half=True) if not any(
        views._near(c, t.candidate) and C.same_size(c, t.candidate) for t in seen)]
    return seen + views._look(image, more)


def test_what_the_reader_sees_is_what_the_looks_found_anew_see(frames, monkeypatch):
    # the plain views: frame 4's turned views read it in the first look
    monkeypatch.setattr(views, "TURN_P", 0.0)
    # the reference predates the pairs read as 2s (`_twos`, added after the looks): without
    # them (frames 25 and 31 have such a 2) the two must be the same
    monkeypatch.setattr(views, "_twos", lambda image, frame, first: [])
    second = 0
    for image in frames:
        seen = views.look(image)
        assert seen == reference_look(image)
        second += len(seen) > len(views._look(image, C.candidates(image, cores=False)))
    assert second >= 2  # frames 4 and 29 (with faces.onnx of stop 37; 19 with stop 35's)


def test_the_candidates_are_the_ones_the_plain_code_finds_in_the_same_order(frames,
                                                                             monkeypatch):
    # the groups' faces and subsets (the corner pairs: test_corner_pairs.py)
    monkeypatch.setattr(C, "CORNER_GROUP", 0)
    n = 0
    for image in frames[:4]:
        for half in (False, True):
            found = C.candidates(image, half=half)
            assert found == reference_candidates(image, half)
            n += len(found)
    assert n > 20


def test_a_crops_probabilities_do_not_depend_on_the_batch_it_is_in(frames):
    crops = np.stack([C.crop(image, c.x, c.y, c.side) for image in frames[:4]
                      for c in C.candidates(image)])
    assert len(crops) > 20
    together = classify(crops)  # what a crop is, whatever else the frame shows
    assert np.array_equal(together, np.concatenate([classify(c[None]) for c in crops]))
    assert np.array_equal(together[3:9], classify(crops[3:9]))


def reference_faces(pips: list[P.Pip], members: list[int], link: float) -> list[list[int]]:
    """candidates._faces as it was before a group still whole at the shortest link was known
    at once (commit 51d50c5): grouped at every link in turn."""
    if len(members) <= 7:
        return [members]
    link *= C.SPLIT
    if link < C.MIN_LINK:
        return []
    parts = [[members[i] for i in g] for g in P.group([pips[k] for k in members], link)]
    faces = [f for part in parts for f in reference_faces(pips, part, link)]
    if not any(len(f) >= 4 for f in faces) or C._one_die(pips, faces):
        return []
    return faces


def test_big_groups_split_into_the_faces_they_split_into_link_by_link(frames):
    rng = np.random.default_rng(11)
    # printed text: a lattice of dots one group at every link; two 6s side by side: split
    text = [P.Pip(100.0 + 9 * i, 100.0 + 9 * j, 2.0, True) for i in range(5) for j in range(4)]
    sixes = [P.Pip(300.0 + dx + 13 * gx, 300.0 + 13 * gy, 4.2, False) for dx in (0.0, 60.0)
             for gx, gy in LAYOUT[6]]
    sets_ = [text, sixes, text + sixes] + [synthetic_pips(rng) for _ in range(20)]
    sets_ += [P.find_pips(image) for image in frames]
    sets_ += [P.find_pips(cv2.pyrDown(image)) for image in frames]
    big = shortcut = 0
    for pips in sets_:
        for members in P.group(pips, C.LINK):
            assert C._faces(pips, members, C.LINK) == reference_faces(pips, members, C.LINK)
            if len(members) > 7:
                big += 1
                shortcut += C._one_group_to_the_end([pips[k] for k in members],
                                                    C.LINK * C.SPLIT)
    assert C._faces(text, list(range(len(text))), C.LINK) == []
    assert len(C._faces(sixes, list(range(12)), C.LINK)) == 2
    assert big > 30 and 3 <= shortcut < big - 20  # both kinds compared


def reference_plain(image: np.ndarray, c: C.Candidate) -> bool:
    """views._plain as it was before the candidates' rings were read together (commit
    51d50c5): one candidate at a time."""
    h, w = image.shape[:2]
    pts = views._PLAIN_RINGS * c.side + (c.x, c.y)
    xs = np.clip(np.rint(pts[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(pts[:, 1]).astype(int), 0, h - 1)
    v = np.asarray(image[ys, xs], np.float32)
    n = len(v) // 2
    return bool(np.linalg.norm(column_medians(v[:n]) - column_medians(v[n:])) < views.PLAIN)


def test_lone_pips_on_plain_ground_are_the_ones_found_one_by_one(frames):
    plain = other = 0
    for image in frames:
        for half in (False, True):
            lone = [c for c in C.candidates(image, half=half) if c.pips == 1]
            # and the frame's edge: rings beyond it read its last pixels
            lone += [C.Candidate(3.0, 470.0, 30.0, 1, 1, False),
                     C.Candidate(630.5, 2.5, 60.0, 1, 1, True)]
            found = views._plain(image, lone)
            assert found == [reference_plain(image, c) for c in lone]
            plain += sum(found)
            other += len(found) - sum(found)
    assert plain > 20 and other > 20 and views._plain(frames[0], []) == []


def test_the_classifiers_input_is_each_crop_less_its_numpy_mean_over_its_numpy_std(frames):
    crops = np.stack([C.crop(image, c.x, c.y, c.side) for image in frames
                      for half in (False, True) for c in C.candidates(image, half=half)])
    x = crops.astype(np.float32)
    mean, std = x.mean(axis=(1, 2, 3), keepdims=True), x.std(axis=(1, 2, 3), keepdims=True)
    want = np.ascontiguousarray(((x - mean) / (std + 8.0)).transpose(0, 3, 1, 2))
    assert len(crops) > 100 and np.array_equal(prepare(crops), want)
    assert np.array_equal(prepare(crops[:1]), want[:1])


class FakeFrame:
    """candidates.Frame with given candidates, counting what views.look asks of it."""

    def __init__(self, without_cores: list[C.Candidate], with_cores: list[C.Candidate],
                 half: list[C.Candidate]) -> None:
        self.found = {False: without_cores, True: with_cores}
        self.halves = half
        self.asked: list[str] = []

    def candidates(self, cores: bool = True) -> list[C.Candidate]:
        self.asked.append("cores" if cores else "plain")
        return self.found[cores]

    def half(self) -> list[C.Candidate]:
        self.asked.append("half")
        return self.halves

    def pairs(self, dice: list[C.Candidate]) -> list[C.Candidate]:
        self.asked.append("pairs")
        return []


def test_the_half_resolution_look_only_where_the_first_leaves_the_reading_open(monkeypatch):
    die = C.Candidate(100.0, 100.0, 50.0, 3, 3, False)
    # the die again (near, of its size), and a die elsewhere
    frame = FakeFrame([die], [die], [C.Candidate(104.0, 98.0, 55.0, 3, 3, False),
                                     C.Candidate(300.0, 100.0, 50.0, 5, 5, False)])
    looked: list[list[C.Candidate]] = []

    def look(image: np.ndarray, cands: list[C.Candidate], lean: float) -> list[views.Seen]:
        looked.append(cands)
        return [views.Seen(c, c.fit or 0, 0.99, lean) for c in cands]

    image = np.zeros((480, 640, 3), np.uint8)
    monkeypatch.setattr(views, "Frame", lambda image: frame)
    monkeypatch.setattr(views, "_look", lambda i, c: look(i, c, 0.0))
    seen = views.look(image)
    assert frame.asked.count("half") == 1 and [s.candidate.x for s in seen] == [100.0, 300.0]
    assert looked[-1] == [C.Candidate(300.0, 100.0, 50.0, 5, 5, False)]  # not the die again
    assert views.decide(seen).values == (3, 5)
    # a leaning die in the first look: the frame is refused whatever the second would add
    monkeypatch.setattr(views, "_look", lambda i, c: look(i, c, views.LEAN_P))
    seen = views.look(image)
    assert frame.asked.count("half") == 1 and views.decide(seen).reason == "cocked"
    monkeypatch.setattr(views, "_look",
                        lambda i, c: look(i, c, np.nextafter(views.LEAN_P, 0)))
    views.look(image)
    assert frame.asked.count("half") == 2


def test_the_pips_cores_are_looked_at_only_when_the_first_look_leaves_the_reading_open(
        monkeypatch):
    """The second look takes the frame's candidates with the pips' cores anew; one already
    looked at is not looked at again, and the new ones are, in one batch with the new ones of
    half resolution."""
    die, other, big = C.Candidate(100.0, 100.0, 50.0, 3, 3, False), \
        C.Candidate(300.0, 100.0, 50.0, 5, 5, False), C.Candidate(300.0, 300.0, 90.0, 2, 2, False)
    frame = FakeFrame([die], [die, other], [big])
    looked: list[list[C.Candidate]] = []

    def look(image: np.ndarray, cands: list[C.Candidate]) -> list[views.Seen]:
        looked.append(cands)
        return [views.Seen(c, c.fit or 0, 0.99, 0.0) for c in cands]

    monkeypatch.setattr(views, "Frame", lambda image: frame)
    monkeypatch.setattr(views, "_look", look)
    seen = views.look(np.zeros((480, 640, 3), np.uint8))
    assert frame.asked == ["plain", "cores", "half", "pairs"]  # pairs: beside the one die
    assert looked == [[die], [other, big]]
    assert [s.candidate for s in seen] == [die, other, big]
    assert views.decide(seen).reason == "too_many_dice"

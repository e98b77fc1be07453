"""The other die at the sure die's side (candidates.at_side; again._at_side, the look again
at a `single_die` frame, again.AT_SIDE): a face whose pips the frame's groups link to print
beside it (no group, subset or corner pair of the pip finder's own is the face alone) is
found among the pips of the sure die's size and polarity, taken at its side. Synthetic pips, then
development frames (dice_crops.frame: the TUNING region's white style alone, never an
evaluation seed)."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes.dice_crops import frame
from services.vision.dice import again, candidates, rescue, views
from services.vision.dice.candidates import Candidate, Frame, at_side
from services.vision.dice.faces import LAYOUT, PIP_OFFSET, PIP_RADIUS
from services.vision.dice.pipfinder import Pip
from services.vision.dice.reader import read_dice

SIDE = 40.0
R = PIP_RADIUS * SIDE


def face(value: int, x: float, y: float, side: float = SIDE, r: float = R,
         dark: bool = True) -> list[Pip]:
    return [Pip(x + PIP_OFFSET * side * cx, y + PIP_OFFSET * side * cy, r, dark)
            for cx, cy in LAYOUT[value]]


SURE = Candidate(100.0, 100.0, SIDE, 1, 1, True)
# a 6 at (300, 300) with two dots of print of its pips' size half a side beyond its left
# column: one group of 8, which no candidate of the pip finder's own makes a 6 of
PRINT = [Pip(300 - 0.8 * SIDE, 300.0, R, True), Pip(300 - 0.8 * SIDE, 300 + 0.3 * SIDE, R, True)]


def sixes(found: list[Candidate]) -> list[Candidate]:
    return [c for c in found if c.fit == 6 and np.hypot(c.x - 300, c.y - 300) < 2]


def test_a_face_linked_to_print_is_found_at_the_sure_dies_side():
    pips = face(1, 100, 100) + face(6, 300, 300) + PRINT
    assert not sixes(candidates._at(pips, (480, 640, 3), 1.0))
    found = at_side(pips, SURE)
    assert len(sixes(found)) == 1 and sixes(found)[0].side == pytest.approx(SIDE, rel=0.01)
    assert sixes(found)[0].pips == 6
    # each pip of its size alone too, as a 1 (split) at the sure die's side: 6 + 2 of print
    lone = [c for c in found if c.split]
    assert len(lone) == 8 and all(c.side == SIDE and c.fit == 1 for c in lone)


def test_only_pips_like_the_sure_dies_count():
    """Another polarity, pips ON_FACE_SIZE times bigger, a face of another side, or pips
    within AWAY of the sure die: no candidate."""
    assert at_side(face(1, 100, 100) + face(6, 300, 300, dark=False), SURE) == []
    # the sure die's pip smaller than the 6's: just over ON_FACE_SIZE, then just under
    small = face(1, 100, 100, r=R / (candidates.ON_FACE_SIZE * 1.01))
    assert at_side(small + face(6, 300, 300), SURE) == []
    just = face(1, 100, 100, r=R / (candidates.ON_FACE_SIZE * 0.99))
    assert sixes(at_side(just + face(6, 300, 300), SURE))
    far = face(1, 100, 100) + face(6, 300, 300, side=SIDE * candidates.SAME_SIZE * 1.2)
    assert not sixes(at_side(far, SURE))
    near = face(1, 100, 100) + face(6, 100 + candidates.AWAY * SIDE * 0.9, 100)
    assert not [c for c in at_side(near, SURE) if c.fit == 6]
    assert at_side(face(6, 300, 300), SURE) == []     # no pip of the sure die: no size known


def white(index: int):
    return frame("white", 1_346_001, index)


@pytest.mark.parametrize("index, values", [(435, (1, 6)), (26, (1, 6)), (9, (4, 6))])
def test_white_dice_on_print_are_read_by_their_side(monkeypatch, index, values):
    """Frame 435: a white 6 lying by two dark gaps of yellow print, one group of 8 pips with
    them (a face only at the 1's side). Frame 26: the 6's grid is found already, beside the
    group's mean (a guess, read below GUESSED_P) at its place and size, which must not hide
    it. Without the look, `single_die`."""
    img, label = white(index)
    assert tuple(sorted(label["values"])) == values
    assert read_dice(img).values == values
    monkeypatch.setattr(again, "AT_SIDE", False)
    assert read_dice(img).reason == "single_die"


# White 1376001 (stop 37's network; with stop 35's, 1346001 frames 233 and 452)
@pytest.mark.parametrize("index, values", [(421, (4, 4)), (535, (4, 5))])
def test_a_die_found_at_the_sure_dies_side_is_rescued(monkeypatch, index, values):
    """Frame 421: a white 4 on print found at the other 4's side, read 0.87 (below FACE_P),
    its pips' grid making a 4, the two dice fitting one camera by their shaded sides; frame
    535 a 5 read 0.89 so. Without the rescue of that look (again.AT_SIDE_RESCUE),
    `single_die`."""
    img, label = frame("white", 1_376_001, index)
    assert tuple(sorted(label["values"])) == values
    r = read_dice(img)
    assert r.values == values and "one_camera" in r.detail
    monkeypatch.setattr(again, "AT_SIDE_RESCUE", False)
    assert read_dice(img).reason == "single_die"


def test_a_die_found_so_leaning_at_side_lean_is_not_rescued(monkeypatch):
    """Frame 421's dice: at AT_SIDE_LEAN exactly (the more leaning one's lean) they are
    refused, just above it read."""
    img, _ = frame("white", 1_376_001, 421)
    fr = Frame(img)
    seen = views.look(img, fr)
    more = again._at_side(fr, seen)
    lean = max(d.lean for d in views._surest(more, rescue.RESCUE_P, rescue.RESCUE_P))
    monkeypatch.setattr(again, "AT_SIDE_LEAN", lean)
    assert again.decided(img, again._at_side, more)[0].no_decision
    monkeypatch.setattr(again, "AT_SIDE_LEAN", float(np.nextafter(lean, 1.0)))
    assert again.decided(img, again._at_side, more)[0].values == (4, 4)
    # only that look's: another look again is decided at FACE_P alone
    assert again.decided(img, again._one_size, more)[0].no_decision

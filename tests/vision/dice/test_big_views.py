"""A leaning view far bigger than the frame's dice (learned.BIG) does not refuse the frame:
the two dice of a roll are one size, and the crop of a lone spot whose side was guessed
several dice wide shows a die small in the middle of the felt round it, which the classifier
may call leaning. Views made by hand, and development frames (dice_crops.frame: never an
evaluation seed)."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes.dice_crops import frame
from services.vision.dice import learned
from services.vision.dice.candidates import Candidate
from services.vision.dice.classifier import LEANING
from services.vision.dice.reader import read_dice

SIDE = 40.0


def seen(lean_side: float) -> list[learned.Seen]:
    """Two dice read sure by their grids (a 3 and a 5, SIDE px) and a leaning view."""
    return [learned.Seen(Candidate(100.0, 100.0, SIDE, 3, 3, True), 3, 0.99, 0.0),
            learned.Seen(Candidate(300.0, 100.0, SIDE, 5, 5, True), 5, 0.99, 0.0),
            learned.Seen(Candidate(200.0, 300.0, lean_side, 1, 1, True), LEANING, 0.9, 0.9)]


@pytest.mark.parametrize("side, refused", [
    (learned.BIG * SIDE, True),                                   # BIG times a die: kept
    (float(np.nextafter(learned.BIG * SIDE, np.inf)), False),     # bigger: not a die of it
    (SIDE, True),
])
def test_a_leaning_view_bigger_than_big_times_a_die_does_not_refuse(side, refused):
    assert (learned.decide(seen(side)).reason == "cocked") is refused


def test_only_dice_whose_grids_measure_them_set_the_size():
    """A die read from a lone pip (its side a guess from the pip's radius) measures nothing:
    with no other die, any leaning view refuses."""
    views = seen(10 * SIDE)
    views[0] = learned.Seen(Candidate(100.0, 100.0, SIDE, 1, 1, True), 1, 0.99, 0.0)
    views[1] = learned.Seen(Candidate(300.0, 100.0, SIDE, None, 4, True), 4, 0.99, 0.0)
    assert learned.decide(views).reason == "cocked"


def test_a_first_generator_frame_with_a_lone_spot_seen_leaning_five_dice_wide(monkeypatch):
    """A first-generator seed (1298001, frame 186): a flat 2 and 4 (42 px); a lone spot's
    view 234 px wide, 91 px off the 2, reads leaning at 0.87 and refused the frame."""
    img, label = frame("first", 1_298_001, 186)
    assert read_dice(img).values == tuple(sorted(label["values"])) == (2, 4)
    monkeypatch.setattr(learned, "BIG", 0.0)
    assert read_dice(img).reason == "cocked"

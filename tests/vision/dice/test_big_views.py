"""A leaning view far bigger than the frame's dice (views.BIG) does not refuse the frame:
the two dice of a roll are one size, and the crop of a lone spot whose side was guessed
several dice wide shows a die small in the middle of the felt round it, which the classifier
may call leaning. Views made by hand, and development frames (dice_crops.frame: never an
evaluation seed)."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes.dice_crops import frame
from services.vision.dice import views
from services.vision.dice.candidates import Candidate
from services.vision.dice.classifier import LEANING
from services.vision.dice.reader import read_dice

SIDE = 40.0


def seen(lean_side: float) -> list[views.Seen]:
    """Two dice read sure by their grids (a 3 and a 5, SIDE px) and a leaning view."""
    return [views.Seen(Candidate(100.0, 100.0, SIDE, 3, 3, True), 3, 0.99, 0.0),
            views.Seen(Candidate(300.0, 100.0, SIDE, 5, 5, True), 5, 0.99, 0.0),
            views.Seen(Candidate(200.0, 300.0, lean_side, 1, 1, True), LEANING, 0.9, 0.9)]


@pytest.mark.parametrize("side, refused", [
    (views.BIG * SIDE, True),                                   # BIG times a die: kept
    (float(np.nextafter(views.BIG * SIDE, np.inf)), False),     # bigger: not a die of it
    (SIDE, True),
])
def test_a_leaning_view_bigger_than_big_times_a_die_does_not_refuse(side, refused):
    assert (views.decide(seen(side)).reason == "cocked") is refused


def test_only_dice_whose_grids_measure_them_set_the_size():
    """A die read from a lone pip (its side a guess from the pip's radius) measures nothing:
    with no other die, any leaning view refuses."""
    viewed = seen(10 * SIDE)
    viewed[0] = views.Seen(Candidate(100.0, 100.0, SIDE, 1, 1, True), 1, 0.99, 0.0)
    viewed[1] = views.Seen(Candidate(300.0, 100.0, SIDE, None, 4, True), 4, 0.99, 0.0)
    assert views.decide(viewed).reason == "cocked"


def test_a_first_generator_frame_with_a_lone_spot_seen_leaning_five_dice_wide(monkeypatch):
    """A first-generator seed (1298001, frame 186): a flat 2 and 4 (42 px); a lone spot's
    view 234 px wide, 91 px off the 2, reads leaning at 0.87 and refused the frame."""
    img, label = frame("first", 1_298_001, 186)
    assert read_dice(img).values == tuple(sorted(label["values"])) == (2, 4)
    monkeypatch.setattr(views, "BIG", 0.0)
    assert read_dice(img).reason == "cocked"

"""Pips under a lamp's streak (pipfinder.opened, Spots.streaks, Frame.streaked,
again._streaked): a thin bright streak run into a pip makes one long spot that is no
pip, and the die lost a pip; the spot opened with a disc a little narrower than its widest
part is the pip again. Drawn dice, and development frames (dice_crops.frame: never an
evaluation seed) that only the look at these pips reads."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from services.scenes.dice_crops import VALIDATION, frame
from services.vision.dice import again, learned, views
from services.vision.dice.candidates import Candidate, Frame
from services.vision.dice.pipfinder import Spots
from services.vision.dice.reader import read_dice

CLOTH, RED, WHITE = (110, 60, 20), (40, 40, 190), (235, 235, 235)
RADIUS = 4


def two(streak: bool, pip: bool = True) -> np.ndarray:
    """A red 2 of 48 px with white pips, and a red 4 beside it (the sure die); `streak`: a
    white line 2 px wide across the 2's lower pip (`pip`: that pip drawn at all)."""
    image = np.full((240, 320, 3), CLOTH, np.uint8)
    cv2.rectangle(image, (76, 56), (124, 104), RED, -1)
    cv2.circle(image, (86, 66), RADIUS, WHITE, -1, cv2.LINE_AA)
    if pip:
        cv2.circle(image, (114, 94), RADIUS, WHITE, -1, cv2.LINE_AA)
    if streak:
        cv2.line(image, (100, 100), (122, 84), WHITE, 2, cv2.LINE_AA)
    cv2.rectangle(image, (196, 136), (244, 184), RED, -1)
    for dx in (-13, 13):
        for dy in (-13, 13):
            cv2.circle(image, (220 + dx, 160 + dy), RADIUS, WHITE, -1, cv2.LINE_AA)
    return image


SURE = Candidate(220.0, 160.0, 48.0, 4, 4, False)


def near(pips: list, x: float, y: float) -> list:
    return [p for p in pips if np.hypot(p.x - x, p.y - y) < 3]


def test_a_pip_under_a_streak_is_found_again():
    spots = Spots(two(streak=True))
    assert near(spots.pips(), 114, 94) == []           # the pip and the streak: no pip
    assert near(spots.pips(), 86, 66)                   # the other pip is found as it is
    found = spots.streaks(RADIUS)
    assert len(found) == 1
    assert abs(found[0].x - 114) < 1.5 and abs(found[0].y - 94) < 1.5
    assert abs(found[0].r - RADIUS) < 1.2


def test_only_pips_of_about_the_size_asked_for():
    spots = Spots(two(streak=True))
    assert spots.streaks(RADIUS / 3) == []              # its widest part 3 times too wide
    assert spots.streaks(RADIUS * 3) == []


def test_the_die_is_a_candidate_again_beside_the_sure_die():
    frame = Frame(two(streak=True))
    assert not [c for c in frame.candidates() if c.fit == 2]
    twos = [c for c in frame.streaked([SURE]) if c.fit == 2]
    assert len(twos) == 1
    assert abs(twos[0].x - 100) < 2 and abs(twos[0].y - 80) < 2
    assert 40 < twos[0].side < 56


def test_a_streak_alone_is_no_pip():
    assert Spots(two(streak=True, pip=False)).streaks(RADIUS) == []


def test_no_streak_nothing_more():
    assert Spots(two(streak=False)).streaks(RADIUS) == []
    assert Frame(two(streak=False)).streaked([SURE]) == []


def test_dice_with_dark_pips_are_not_looked_at_so():
    """A lamp's streak is bright: beside a sure die with dark pips (the other die of the
    pair has dark pips too) the look adds nothing."""
    image = two(streak=True)
    dark = views.Seen(Candidate(220.0, 160.0, 48.0, 4, 4, True), 4, 0.99, 0.0)
    assert again._streaked(Frame(image), [dark]) == [dark]
    bright = views.Seen(SURE, 4, 0.99, 0.0)
    assert [s.candidate.fit for s in again._streaked(Frame(image), [bright])[1:]].count(2) == 1




@pytest.mark.parametrize("source, index, values", [
    ("wide", 19, (2, 3)),      # an orange 2 with a glare beside a pip
])
def test_frames_only_the_streak_look_reads(monkeypatch, source, index, values):
    """The first generator's and its widening's validation seeds (`casino vision eval --set
    dev-first|dev-wide`): one die read sure, the other's pips lost in glare."""
    image, label = frame(source, VALIDATION[source], index)
    assert tuple(sorted(label["values"])) == values
    assert read_dice(image).values == values
    monkeypatch.setattr(learned, "AGAIN", {reason: tuple(f for f in looks
                                                         if f is not again._streaked)
                                           for reason, looks in again.AGAIN.items()})
    assert read_dice(image).reason == "single_die"

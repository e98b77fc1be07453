"""Pairs (candidates.pairs, views.look's second look): two pips at a 2's diagonal that gave
no candidate (one pip run into print, so their sizes differ; or both linked to dots of
print) get a 2's candidate, which counts only when the classifier reads it a sure 2.
Pips made by hand, and development frames (dice_crops.frame: never an evaluation seed)."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes.dice_crops import VALIDATION, frame
from services.vision.dice import again, classifier, learned, views
from services.vision.dice import candidates as C
from services.vision.dice.pipfinder import Pip
from services.vision.dice.reader import read_dice

STEP = 12.0                         # the grid step: a die of 12 / 0.27 = 44 px
DIAGONAL = 2 * np.sqrt(2) * STEP    # a 2's pips this far apart


def two(r1: float, r2: float, dark: bool = False, apart: float = DIAGONAL) -> list[Pip]:
    return [Pip(100.0, 100.0, r1, dark), Pip(100.0 + apart / np.sqrt(2),
                                             100.0 + apart / np.sqrt(2), r2, dark)]


def test_a_pair_of_two_sizes_is_a_twos_candidate_at_its_middle():
    [c] = C.pairs(two(3.5, 6.0), [])
    assert (c.fit, c.pips, c.dark) == (2, 2, False)
    assert c.x == pytest.approx(100 + DIAGONAL / np.sqrt(8))
    assert c.y == pytest.approx(100 + DIAGONAL / np.sqrt(8))
    assert c.side == pytest.approx(STEP / 0.27)


@pytest.mark.parametrize("pips", [
    two(3.5, 3.5 * 2.4),                          # sizes too far apart: a pip and a chip's dot
    two(3.5, 6.0, apart=3 * DIAGONAL),            # too far apart for pips that size
    two(3.5, 6.0, apart=DIAGONAL / 3),            # too close: two spots of one pip
    [two(3.5, 6.0)[0], two(3.5, 6.0, dark=True)[1]],  # a white pip and a black one
])
def test_no_pair(pips):
    assert C.pairs(pips, []) == []


@pytest.mark.parametrize("share, off, paired", [
    (0.5, 0.0, True),                  # PAIR_TO_STEP's top, exactly
    (0.5, 0.01, False),
    (0.15, 0.0, True),                 # ... and its bottom
    (0.15, -0.01, False),
])
def test_the_smaller_pip_within_pair_to_step_of_the_grid_step(share, off, paired):
    """Blur swells a 2's pips past a grid fit's 0.44 of their step; a pair takes up to 0.5
    (the larger pip 1.5 times the smaller: PAIR_SIZE)."""
    assert C.PAIR_TO_STEP == (0.15, 0.5)
    a, b = two(1.0, 1.0)
    step = np.hypot(a.x - b.x, a.y - b.y) / (2 * np.sqrt(2))   # as `pairs` measures it
    radius = share * step + off
    assert (len(C.pairs(two(radius, 1.5 * radius), [])) == 1) is paired


def test_a_blurred_two_is_read_as_a_pair(monkeypatch):
    """A first-generator seed (1038001, frame 194): a green 2 under glare and motion blur, its
    pips 0.48 of their grid step, beside a sure 4: no candidate but the pair's."""
    img, label = frame("first", 1_038_001, 194)
    assert read_dice(img).values == tuple(sorted(label["values"])) == (2, 4)
    monkeypatch.setattr(C, "PAIR_TO_STEP", (0.15, 0.44))
    assert read_dice(img).reason == "single_die"


def test_pips_of_one_small_group_pair_whatever_their_sizes():
    """Equal pips linked with two dots of print beside them: one group of four."""
    pips = two(4.0, 4.0) + [Pip(100.0 - 20, 100.0, 4.0, False), Pip(100.0 - 40, 100.0, 4.0, False)]
    assert any(c.x == pytest.approx(100 + DIAGONAL / np.sqrt(8)) for c in C.pairs(pips, []))


@pytest.mark.parametrize("more, paired", [(5, True), (6, False)])
def test_pips_of_a_group_a_face_may_be_pair(more, paired):
    """The pair and `more` pips linked to it (a chip's inserts in a row 20 px apart): a
    group of PAIR_GROUP (7) pips pairs, one of 8 does not (printed text, or two dice)."""
    assert C.PAIR_GROUP == 7
    pips = two(4.0, 4.0) + [Pip(100.0 - 20 * (k + 1), 100.0, 4.0, False) for k in range(more)]
    assert len(C.group(pips, C.LINK)) == 1
    found = any(c.x == pytest.approx(100 + DIAGONAL / np.sqrt(8)) and
                c.y == pytest.approx(100 + DIAGONAL / np.sqrt(8)) for c in C.pairs(pips, []))
    assert found is paired


def test_a_two_linked_to_a_chips_inserts_is_read_as_a_pair(monkeypatch):
    """A fresh first-generator seed (1068001, frame 180): a red 2 with a lamp's streak by one
    pip, its two pips linked to three white inserts of a red chip above it (one group of 5:
    no grid, and no subset of it is a 2). With pairs from groups of 4 at most, `single_die`."""
    img, label = frame("first", 1_068_001, 180)
    assert read_dice(img).values == tuple(sorted(label["values"])) == (2, 2)
    monkeypatch.setattr(C, "PAIR_GROUP", 4)
    monkeypatch.setattr(again, "AT_SIDE", False)   # that look (stop 36) finds the 2 too
    assert read_dice(img).reason == "single_die"


def test_pips_of_a_sure_die_are_not_paired():
    die = C.Candidate(100.0, 100.0, 44.0, 4, 4, False)
    assert C.pairs(two(3.5, 6.0), [die]) == []


@pytest.mark.parametrize("source, seed, index, rule", [
    ("tuning", VALIDATION["tuning"], 256, "PAIR_SIZE"),  # a 2 whose pips differ 1.45 times
    ("wide", VALIDATION["wide"], 54, "PAIR_SIZE"),       # a 2's pip run into print
    ("tuning", 710_001, 210, "PAIR_GROUP"),  # a 2 in a group of 5-7 pips (single_die at 4)
])
def test_development_frames_only_a_pair_reads(monkeypatch, source, seed, index, rule):
    img, label = frame(source, seed, index)
    assert read_dice(img).values == tuple(sorted(label["values"]))
    monkeypatch.setattr(C, rule, (9.0, 9.0) if rule == "PAIR_SIZE" else 0)
    # the look at pips under a lamp's streak reads wide 54 too (its 2's pip run into print)
    monkeypatch.setattr(learned, "AGAIN", {reason: tuple(f for f in looks
                                                         if f is not again._streaked)
                                           for reason, looks in again.AGAIN.items()})
    monkeypatch.setattr(again, "AT_SIDE", False)   # tuning 210: that look finds its 2 too
    assert read_dice(img).no_decision


def test_a_pair_counts_only_as_a_sure_two(monkeypatch):
    """Whatever else the classifier says of a pair (a leaning die, another face, a 2 below
    FACE_P) is not kept: a pair adds a die and never refuses a frame."""
    img, _ = frame("tuning", VALIDATION["tuning"], 256)
    fr = C.Frame(img)
    first = views._look(img, fr.candidates(cores=False))
    assert len(views._surest(first)) == 1
    found = fr.pairs([views._surest(first)[0].candidate])
    says = {0: (2, 0.95), 1: (2, 0.85), 2: (classifier.LEANING, 0.99), 3: (3, 0.99)}

    def classify(crops: np.ndarray) -> np.ndarray:
        out = np.zeros((len(crops), 8), np.float32)
        for k in range(len(crops)):
            cls, p = says.get(k, (0, 1.0))
            out[k, cls] = p
            out[k, 0] += 1 - p
        return out

    monkeypatch.setattr(views, "classify", classify)
    monkeypatch.setattr(views, "_plain", lambda image, cands: [False] * len(cands))
    assert len(found) >= 4
    twos = views._twos(img, fr, first)
    assert [(s.candidate, s.value, s.belief) for s in twos] == [(found[0], 2, pytest.approx(0.95))]

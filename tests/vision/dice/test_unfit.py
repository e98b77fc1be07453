"""A decided frame whose two dice fit no one camera by both measures (guard.UNFIT): the
whole silhouettes and the shaded sides alone each leave a misfit of UNFIT or more. A flat
white die on white print spoils the whole silhouette only (the print joins it), a side lit as
brightly as the top is missed by the shaded part only; a die cocked on the cloth, its side
face pointing where it leans, spoils both. Development frames (dice_crops.frame: never an
evaluation seed): the TUNING region's white style alone, `white` and `white_leaning`."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from services.scenes.dice_crops import frame
from services.vision.dice import camera, guard, rescue, views
from services.vision.dice.candidates import Candidate
from services.vision.dice.reader import read_dice

DICE = [views.Seen(Candidate(100.0, 100.0, 40.0, 3, 3, True), 3, 0.95, 0.0),
        views.Seen(Candidate(300.0, 100.0, 40.0, 5, 5, True), 5, 0.95, 0.0)]
AT = guard.UNFIT
BELOW = float(np.nextafter(AT, 0.0))


@pytest.mark.parametrize("whole, shaded, refused", [
    (AT, AT, True),            # both at UNFIT: refused
    (BELOW, 1.0, False),       # the whole silhouettes fit: a side lit as the top, missed
    (1.0, BELOW, False),       # the shaded sides fit: print joined to the silhouette
    (None, 1.0, False),        # one measure not taken: nothing to refuse on
    (1.0, None, False),
])
def test_a_pair_is_refused_only_when_both_measures_misfit(monkeypatch, whole, shaded, refused):
    monkeypatch.setattr(camera, "misfits", lambda image, a, b: (whole, shaded))
    monkeypatch.setattr(guard, "_pale", lambda image, die: True)
    off = guard._unfit(np.zeros((10, 10, 3), np.uint8), DICE)
    assert (off is not None) is refused
    if refused:
        assert off == AT


@pytest.mark.parametrize("belief, asked", [
    (float(np.nextafter(guard.UNFIT_BELOW, 0.0)), True),
    (guard.UNFIT_BELOW, False),   # both dice read this sure: not asked
])
def test_only_a_pair_with_a_die_read_below_unfit_below_is_asked(monkeypatch, belief, asked):
    monkeypatch.setattr(camera, "misfits", lambda image, a, b: (1.0, 1.0))
    monkeypatch.setattr(guard, "_pale", lambda image, die: True)
    dice = [dataclasses.replace(DICE[0], belief=0.999), dataclasses.replace(DICE[1], belief=belief)]
    assert (guard._unfit(np.zeros((10, 10, 3), np.uint8), dice) is not None) is asked


@pytest.mark.parametrize("index, whole, shaded", [(4, 0.998, 0.034), (11, 1.722, 0.022)])
def test_both_measures_come_from_one_look_at_each_die(index, whole, shaded):
    """camera.side_vectors gives a die's whole and shaded vectors at once: the pair's misfits
    are those camera.side_vector measured one at a time before it (white dice on white print:
    the print joins the whole silhouettes, not the shaded parts)."""
    img, _ = frame("white", 1_346_001, index)
    a, b = (d.candidate for d in views._surest(views.look(img))[:2])
    assert camera.misfits(img, a, b) == pytest.approx((whole, shaded), abs=0.0005)


# With stop 37's network the first decision's check refuses this one frame alone of the
# white and white_leaning development sets (dev_sets, UNFIT_BELOW=0; with stop 35's,
# white_leaning 1397001 frame 56)
@pytest.mark.parametrize("source, seed, index", [
    ("white_leaning", 1_377_001, 570),   # a white 4 cocked beside a flat 5 (misfit 0.35)
])
def test_a_cocked_white_die_read_flat_is_refused(monkeypatch, source, seed, index):
    img, label = frame(source, seed, index)
    assert label["no_decision"]
    r = read_dice(img)
    assert r.reason == "cocked" and r.detail["misfit"] >= guard.UNFIT
    monkeypatch.setattr(guard, "UNFIT", 0.0)
    assert not read_dice(img).no_decision


@pytest.mark.parametrize("index", [4, 11])
def test_a_flat_white_die_on_white_print_is_still_read(index):
    """Its whole silhouette takes the print in (misfits 1.0 and 1.7), its shaded sides fit
    one camera (0.03, 0.02)."""
    img, label = frame("white", 1_346_001, index)
    r = read_dice(img)
    assert r.values == tuple(sorted(label["values"]))
    a, b = views._surest(views.look(img))[:2]
    whole = camera.misfit(img, a.candidate, b.candidate)
    assert whole is not None and whole > 2 * guard.UNFIT


# (White_leaning 1417001 frame 484 was here too: with stop 37's network its rescue is refused
# before the shaded sides are asked. No other frame of the leaning, white_leaning and
# cocked development sets (19 sets, 10,600 no-decision frames) is rescued but for them.)
@pytest.mark.parametrize("seed, index", [(1_347_001, 550)])
def test_a_rescued_pair_whose_shaded_sides_misfit_is_refused(monkeypatch, seed, index):
    """A white die cocked beside a flat one, read below FACE_P and rescued: the whole
    silhouettes fit one camera (a wide lens with its foot at the flat die), the shaded
    sides misfit by UNFIT or more (rescue.RESCUE_UNFIT)."""
    img, label = frame("white_leaning", seed, index)
    assert label["no_decision"] and read_dice(img).no_decision
    seen = views.look(img)
    assert rescue._rescue(img, seen) is None
    monkeypatch.setattr(rescue, "RESCUE_UNFIT", False)
    assert rescue._rescue(img, seen) is not None
    monkeypatch.setattr(guard, "LATER_SHADED", False)   # which refuses these too
    assert not read_dice(img).no_decision


# With stop 35's network white_leaning 1357001 frame 41 and 1397001 frame 277 (misfits 0.62,
# 0.32); with stop 37's each cocked die is seen leaning (0.72, 0.98) and refused at the first
# decision, and LATER_SHADED off decides this one frame alone of the 25 white, white_leaning,
# leaning and cocked development sets.
@pytest.mark.parametrize("seed, index", [(1_417_001, 484)])
def test_pale_dice_read_after_the_first_decision_need_their_shaded_sides_to_fit(
        monkeypatch, seed, index):
    """White dice, a 6 cocked beside a flat 6, read as a tilted camera's (`_tilted`: the
    whole silhouettes fitting one camera with sides alike); their shaded sides misfit by
    0.35 (guard.LATER_SHADED)."""
    img, label = frame("white_leaning", seed, index)
    assert label["no_decision"]
    r = read_dice(img)
    assert r.reason == "cocked" and r.detail["misfit"] >= guard.UNFIT and r.detail["tilted"]
    monkeypatch.setattr(guard, "LATER_SHADED", False)
    assert not read_dice(img).no_decision


def test_pale_dice_decided_later_need_their_shaded_sides_to_fit(monkeypatch):
    """Pale dice decided after the first decision, both read surer than UNFIT_BELOW: their
    shaded sides misfitting by UNFIT exactly refuse them (LATER_SHADED), just under it not;
    at the first decision, or without the rule, dice read so sure are not asked."""
    image = np.zeros((10, 10, 3), np.uint8)
    sure = [dataclasses.replace(d, belief=guard.UNFIT_BELOW) for d in DICE]
    monkeypatch.setattr(guard, "_pale", lambda image, die: True)
    monkeypatch.setattr(camera, "misfits", lambda image, a, b: (1.0, 1.0))
    monkeypatch.setattr(camera, "misfit", lambda image, a, b, shaded=False: guard.UNFIT)
    assert guard._unfit(image, sure, later=True) == guard.UNFIT
    assert guard._unfit(image, sure) is None
    monkeypatch.setattr(camera, "misfit",
                        lambda image, a, b, shaded=False: float(np.nextafter(guard.UNFIT, 0)))
    assert guard._unfit(image, sure, later=True) is None
    monkeypatch.setattr(camera, "misfit", lambda image, a, b, shaded=False: guard.UNFIT)
    monkeypatch.setattr(guard, "LATER_SHADED", False)
    assert guard._unfit(image, sure, later=True) is None


def test_only_pale_dice_are_asked(monkeypatch):
    """A pair whose dice are not both pale (translucent, black) is never refused so."""
    monkeypatch.setattr(camera, "misfits", lambda image, a, b: (1.0, 1.0))
    monkeypatch.setattr(guard, "_pale", lambda image, die: die is DICE[0].candidate)
    assert guard._unfit(np.zeros((10, 10, 3), np.uint8), DICE) is None
    assert guard._unfit(np.zeros((10, 10, 3), np.uint8), DICE, later=True) is None
    monkeypatch.setattr(guard, "UNFIT_PALE", False)
    assert guard._unfit(np.zeros((10, 10, 3), np.uint8), DICE) == 1.0


@pytest.mark.parametrize("source, seed, index, pale", [
    ("white", 1_346_001, 4, True),        # white dice (a 6 and a 4)
    ("tuning", 1_366_001, 451, False),    # green translucent
    ("tuning", 1_366_001, 7, False),      # black
])
def test_pale_dice_are_white_ones(source, seed, index, pale):
    img, _ = frame(source, seed, index)
    dice = views._surest(views.look(img), rescue.RESCUE_P, rescue.RESCUE_P)
    assert len(dice) >= 1 and all(guard._pale(img, d.candidate) is pale for d in dice)

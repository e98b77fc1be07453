"""Misses found on the wheel development set `dev-wheel` (services/scenes/named_sets.py:
the first generator widened toward other cameras, development seed 795001; never the
foreign or held-out frames), each fixed in services/vision/wheel and pinned here."""
from __future__ import annotations

from functools import lru_cache

import pytest

from services.scenes import named_sets
from services.vision.wheel import reader as R
from services.vision.wheel import rotor as RO
from services.vision.wheel.locate import RECENTRE_BELOW, locate_rotor
from services.vision.wheel.reader import read_wheel


@lru_cache(maxsize=8)
def _dev(i: int):
    return named_sets.wheel_dev_frame("dev-wheel", i)


@pytest.mark.parametrize("i", [2, 32])
def test_far_tilted_wheel_found_again_from_the_ellipse_first_found(i):
    # 1280x720, rotor ~250-260 px, tilt 24-30 degrees seen: the coarse centre landed
    # 50-90 px off (the ellipse's edge normals crowd at its evolute's cusps) and only
    # 0.5-0.6 of the directions agreed on the edge (no_wheel); searched again, ~1.0
    image, label = _dev(i)
    assert label["conditions"]["size"] == "1280x720" and not label["no_decision"]
    found = locate_rotor(image)
    assert found is not None and found[1] >= 0.9 > RECENTRE_BELOW
    reading = read_wheel(image, label["variant"])
    assert reading.pocket == label["pocket"], reading.reason


@pytest.mark.parametrize("i", [63, 315, 349])
def test_american_zero_not_taken_for_the_double_zero_across_the_wheel(i):
    # the rigid template's two peaks half a turn apart (0 and 00 + a pocket) scored within
    # 0.02 and the wrong one won: read with 18-21 boundaries, or none, and refused
    image, label = _dev(i)
    assert label["variant"] == "american" and not label["no_decision"]
    reading = read_wheel(image, "american")
    assert reading.pocket == label["pocket"], reading.reason
    assert reading.scores["rotor_margin"] >= RO.OPPOSITE_MARGIN
    assert reading.scores["boundaries"] >= 30


def _focus(i: int):
    """dev-wheel's weakest conditions alone (development seed 795004): American wheels,
    rotors of 90-120 px, cameras tilted up to 30 degrees, every style in turn."""
    import numpy as np

    from services.scenes import nuisances as nz
    from services.scenes.wheel.scene import render_wheel_scene
    from services.scenes.wheel.style import EXTRA_STYLES, STYLES
    rng = np.random.default_rng([795_004, i])
    names = nz.pick(rng, nz.NUISANCES)
    return render_wheel_scene(rng, "american", style=sorted(STYLES | EXTRA_STYLES)[i % 7],
                              nuisances=names, pocket_rate=0.7, tilt_max=30.0, dist_min=2.5,
                              rotor_px=(90.0, 120.0))


@pytest.mark.parametrize("i", [9, 47])
def test_zero_looked_for_across_from_the_rigid_peak_not_from_a_retried_reading(i):
    # 47: the retry from the zero the straightened ring preferred already sat on the other
    # side; looking across from it went back to the wrong one (margin 0.076, ball_on_fret).
    # 9: across the wheel two rigid peaks two pockets apart; the higher one read with 18
    # boundaries, the lower one with 34 (margin 0.55)
    image, label = _focus(i)
    assert not label.no_decision
    reading = read_wheel(image, "american")
    assert reading.pocket == label.pocket, reading.reason
    assert reading.scores["rotor_margin"] >= RO.OPPOSITE_MARGIN


@pytest.mark.parametrize("i", [40, 167])
def test_settled_ball_on_a_small_rotor_under_camera_blur_is_at_rest(i):
    # rotors of 86-91 px, the camera's 3-7 px blur: elongation 1.59-1.61 (ball_moving before)
    image, label = _focus(i)
    assert "motion_blur" in label.nuisances and not label.no_decision
    reading = read_wheel(image, "american")
    assert reading.pocket == label.pocket, reading.reason
    assert R.AT_REST["elongation"] < reading.scores["ball_elongation"] \
        <= R.at_rest_elongation(90.0)


def test_the_small_rotor_allowance_is_bounded_and_for_white_balls_only():
    assert R.at_rest_elongation(140.0) == R.at_rest_elongation(125.0) == R.AT_REST["elongation"]
    assert R.at_rest_elongation(60.0) == R.at_rest_elongation(90.0) == pytest.approx(1.70)
    # a moving ball on a 98 px rotor (no-decision frames with camera blur, seed 795005,
    # frame 154): elongation 1.78, whiteness 0.88, in the middle of a pocket
    import numpy as np

    from services.scenes import nuisances as nz
    from services.scenes.wheel.scene import render_wheel_scene
    from services.scenes.wheel.style import EXTRA_STYLES, STYLES
    rng = np.random.default_rng([795_005, 154])
    names = sorted(set(nz.pick(rng, nz.NUISANCES)) | {"motion_blur"}, key=nz.NUISANCES.index)
    image, label = render_wheel_scene(rng, "european", style=sorted(STYLES | EXTRA_STYLES)[0],
                                      nuisances=names, pocket_rate=0.0, tilt_max=30.0,
                                      dist_min=2.5, rotor_px=(85.0, 125.0))
    assert label.case == "ball_moving"
    reading = read_wheel(image, "european")
    assert reading.no_decision and reading.reason == "ball_moving"
    assert reading.scores["ball_whiteness"] < R.SMALL_ROTOR_WHITENESS


def test_the_small_rotor_allowance_counts_a_1280x720_frames_pixels_as_a_640x480_camera(
        monkeypatch):
    # the dev-wheel recipe at seed 795006, frame 272: 1280x720, rotor 137 px (91 px as a
    # 640x480 camera with the same field of view sees it), camera blur: elongation 1.57
    monkeypatch.setitem(named_sets.WHEEL_DEV, "dev-wheel-795006", (795_006, 400))
    image, label = named_sets.wheel_dev_frame("dev-wheel-795006", 272)
    assert image.shape[:2] == (720, 1280) and "motion_blur" in label["nuisances"]
    reading = read_wheel(image, label["variant"])
    assert reading.pocket == label["pocket"], reading.reason
    assert reading.scores["ball_elongation"] > R.AT_REST["elongation"]


@pytest.mark.parametrize("i", [47, 302])
def test_near_rotor_far_off_axis_found_from_longer_centre_votes(i, monkeypatch):
    # the dev-wheel recipe at seed 795008: 1280x720, rotors of 278-280 px seen 22-30
    # degrees off-axis; the coarse centre ~110 px off, the edge search from it (and again
    # from its ellipse) agreed at 0.65 on an ellipse a third too narrow (no_wheel)
    monkeypatch.setitem(named_sets.WHEEL_DEV, "dev-wheel-795008", (795_008, 400))
    image, label = named_sets.wheel_dev_frame("dev-wheel-795008", i)
    assert image.shape[:2] == (720, 1280) and label["conditions"]["rotor_px"] > 250
    found = locate_rotor(image)
    assert found is not None and found[1] >= 0.9
    reading = read_wheel(image, label["variant"])
    assert reading.pocket == label["pocket"], reading.reason

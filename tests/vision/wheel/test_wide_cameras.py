"""Cameras and wheels the labelled sets do not show (issue 14): a near, steeply tilted camera
over an American wheel, plain silver pockets, 16 bright deflectors on black lacquer. Frames
from the widened first generator (tuning seeds 515003 and 515031, never the held-out range)
and from the foreign renderer's tuning region (services/scenes/foreign/sets.py)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from services.scenes import nuisances as nz
from services.scenes.foreign import sets
from services.scenes.wheel.scene import render_wheel_scene
from services.scenes.wheel.style import EXTRA_STYLES, STYLES, pick_style
from services.vision.wheel import reader as R
from services.vision.wheel.reader import read_wheel


@lru_cache(maxsize=8)
def _wide(seed: int, index: int, style: str | None, pocket_rate: float = 0.7,
          variant: str | None = None):
    """The dev harness's recipe: half the nuisances, cameras tilted up to 25 degrees and as
    near as 2.5 rotor radii, European or American (drawn unless given)."""
    rng = np.random.default_rng([seed, index])
    names = [x for x in nz.NUISANCES if rng.random() < 0.5]
    variant = variant or ("american" if rng.random() < 0.5 else "european")
    image, label = render_wheel_scene(rng, variant, style=style, nuisances=names,
                                      pocket_rate=pocket_rate, tilt_max=25, dist_min=2.5)
    return image, label


@pytest.mark.parametrize("index", [14, 25])
def test_american_wheel_under_a_near_tilted_camera_keeps_its_margin(index):
    # the two green pockets are bent opposite ways: the rigid template's margin was
    # 0.05-0.06 (rotor_unreadable); on the straightened ring it is ~0.5
    image, label = _wide(515003, index, None)
    assert label.variant == "american" and not label.no_decision
    reading = read_wheel(image, "american")
    assert reading.pocket == label.pocket, reading.reason
    assert reading.scores["rotor_margin"] > 2 * R.ROTOR_MARGIN_MIN


def test_ball_on_plain_silver_pockets_is_read():
    image, label = _wide(515031, 4, "steel")
    reading = read_wheel(image, label.variant)
    assert reading.pocket == label.pocket, reading.reason


def test_rotor_found_inside_a_ring_of_bright_deflectors():
    image, label = sets.render(sets.TUNING, "wheel", 239)  # black lacquer, 16 deflectors
    assert label["style"] == "black_lacquer" and not label["no_decision"]
    reading = read_wheel(image, label["variant"])
    assert reading.pocket == label["pocket"], reading.reason
    assert reading.rotor_ellipse is not None
    assert abs(reading.rotor_ellipse[2] + reading.rotor_ellipse[3]) / 2 \
        < 1.05 * label["rotor_px"]


def test_wider_generator_options_leave_the_labelled_sets_alone():
    a, la = render_wheel_scene(np.random.default_rng(77), "european", nuisances=("noise",))
    b, lb = render_wheel_scene(np.random.default_rng(77), "european", nuisances=("noise",),
                               tilt_max=14.0, dist_min=5.0, rotor_px=(118.0, 142.0))
    assert np.array_equal(a, b) and la == lb
    _, small = render_wheel_scene(np.random.default_rng(77), "european", nuisances=("noise",),
                                  rotor_px=(95.0, 95.0))
    for label, radius in ((la, (118, 142)), (small, (95, 95))):
        h = np.array(label.plane_to_image)
        ends = h @ np.array([[0.0, 1.0, 0.0, -1.0], [0.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0]])
        xy = ends[:2] / ends[2]
        seen = np.hypot(*(xy[:, 1:] - xy[:, :1])).mean()  # rotor radius in the image, px
        assert 0.85 * radius[0] < seen < 1.15 * radius[1], seen
    drawn = {pick_style(np.random.default_rng(i)).name for i in range(200)}
    assert drawn == set(STYLES) and not drawn & set(EXTRA_STYLES)
    assert pick_style(np.random.default_rng(0), "steel").name == "steel"
    with pytest.raises(ValueError, match="style"):
        pick_style(np.random.default_rng(0), "unknown")


def test_zero_read_again_where_the_straightened_ring_puts_it():
    # the rigid template's best zero was wrong here: straightened margin -0.68, refused;
    # read again from the zero the straightened ring prefers, it is right and sure
    image, label = _wide(515110, 57, None, 0.7, "american")
    reading = read_wheel(image, "american")
    assert reading.pocket == label.pocket, reading.reason
    assert reading.scores["rotor_margin"] > 2 * R.ROTOR_MARGIN_MIN


def test_hand_beside_the_ball_is_occluded_not_decided():
    image, label = _wide(515130, 20, None, 0.0)
    assert label.reason == "occluded"
    reading = read_wheel(image, label.variant)
    assert reading.pocket is None and reading.reason == "occluded"


def test_lamp_glare_over_the_ball_on_silver_pockets_is_not_a_ball():
    # a saturated reflection hides the ball; a bump on it passed as a settled ball (whiteness
    # 2.1, elongation 1.49) and was given pocket 4. Around it the wheel is as bright as its
    # centre (halo ~1.0; settled balls 0.89 at most)
    image, label = _wide(515062, 30, "steel", 0.0)
    assert label.reason == "glare"
    reading = read_wheel(image, label.variant)
    assert reading.pocket is None and reading.reason == "glare"
    assert reading.scores["halo"] >= R.GLARE_HALO_MIN


def test_green_zero_plateau_does_not_repeat_a_ball_on_chrome_pockets():
    # around the dark green zero among silver pockets the local measure leaves a plateau
    # (12-16 ball areas, cut by the strip's edges) 14 pockets from the ball: it was taken
    # for the ring's pattern repeating the ball, and the settled ball refused (ball_moving)
    image, label = _wide(530003, 35, "chrome", 1.0)
    assert not label.no_decision
    reading = read_wheel(image, label.variant)
    assert reading.pocket == label.pocket, reading.reason


def test_ball_read_where_glare_elsewhere_makes_a_chrome_ring_noisy():
    # glare across a third of the ring put the strip's noise at 13 grey levels: the ball
    # (28 above the wheel; the noise near it ~5) stood 2.2 noise levels high: never a candidate
    image, label = _wide(530003, 3, "chrome", 1.0)
    assert not label.no_decision
    reading = read_wheel(image, label.variant)
    assert reading.pocket == label.pocket, reading.reason
    assert reading.scores["ball_contrast"] >= R.BALL_CONTRAST_MIN


def test_ball_on_a_fret_is_not_read_through_a_bend_wrong_near_it():
    # American wheel, motion blur: the bend, fitted to 21 boundaries (none seen just beside
    # the ball), put the ball 0.27 pocket from a pocket centre (limit 0.28): pocket 36. The
    # frets beside it were seen up to 0.38 pocket from where that bend put them, and the
    # frets' check (`FRET_SHIFT_MAX`) refused it. That bend had been read from 00 taken for
    # 0 (the zero across the wheel, rotor._opposite, branch wheel-dev): read from the right
    # zero, 34 boundaries, the ball is 0.46 pocket from a pocket centre, on the fret
    image, label = _wide(561001, 109, None)
    assert label.reason == "ball_on_fret"
    reading = read_wheel(image, label.variant)
    assert reading.pocket is None and reading.reason == "ball_on_fret"
    assert reading.scores["boundaries"] >= 30
    assert abs(reading.scores["offset"]) > R.FRET_LIMIT


def test_two_bumps_of_a_blurred_moving_ball_are_not_a_settled_ball():
    # motion blur and glare: the moving ball's streak left two ball-like bumps 3 ball radii
    # apart (contrast 4.14 and 4.03); the rounder one had been read as settled in pocket 13
    image, label = _wide(561004, 100, None, 0.0)
    assert label.reason == "ball_moving"
    reading = read_wheel(image, label.variant)
    assert reading.pocket is None and reading.reason == "ball_moving"
    assert reading.scores["ball_contrast"] >= R.BALL_CONTRAST_MIN  # a ball-like spot was there


def test_ball_on_a_noisy_silver_floor_is_read_from_its_brightness():
    # motion blur and camera noise over chrome pockets: the settled ball stands 3.4 noise
    # levels above the floor (under the 4 asked elsewhere) but is as bright as the frets
    # and round, which on plain silver floors is the evidence (`PLAIN`)
    image, label = _wide(580006, 1, "chrome", 1.0)
    assert not label.no_decision
    reading = read_wheel(image, label.variant)
    assert reading.pocket == label.pocket, reading.reason
    assert R.PLAIN["contrast"] <= reading.scores["ball_contrast"] < R.BALL_CONTRAST_MIN
    assert reading.scores["floor_level"] >= R.PLAIN["floor_level"]

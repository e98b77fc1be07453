"""Without a calibration the frame's printed landing-area outline judges where the dice lie
(services/vision/dice/outline.py): one die off it is `out_of_area`, never a reading."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from services.vision.dice.outline import OFF_BY, judge_area, printed_area
from services.vision.reading import Reading

SIDE = 40.0
BOX = (120, 110, 540, 400)  # the printed outline: x0, y0, x1, y1


def table(outline: bool = True) -> np.ndarray:
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = (45, 115, 30)
    noise = np.random.default_rng(3).normal(0, 4, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    if outline:
        x0, y0, x1, y1 = BOX
        cv2.rectangle(image, (x0, y0), (x1, y1), (215, 220, 220), 3, cv2.LINE_AA)
    return image


def decided(*centres: tuple[float, float]) -> Reading:
    dice = [{"value": 3, "belief": 0.99, "centre": list(c), "side": SIDE, "pips_grid": 3}
            for c in centres]
    return Reading("dice", values=(3, 3), confidence=0.99, detail={"dice": dice})


def test_one_die_off_the_printed_outline_is_out_of_area():
    reading = judge_area(table(), decided((300, 250), (300, 60)))
    assert reading.no_decision and reading.reason == "out_of_area"
    assert len(reading.detail["outline"]) == 4


def test_both_dice_inside_the_outline_keep_their_reading():
    reading = decided((300, 250), (420, 300))
    assert judge_area(table(), reading) is reading


@pytest.mark.parametrize("outline", [True, False])
def test_both_dice_off_it_or_no_outline_at_all_leave_the_reading_alone(outline):
    reading = decided((60, 60), (600, 450))
    assert judge_area(table(outline), reading) is reading
    one_off = decided((300, 250), (300, 60))
    assert (judge_area(table(outline), one_off) is one_off) is not outline


def test_a_die_just_over_half_a_side_off_the_line_is_off_and_one_on_it_is_not():
    # The drawn line is 3 px wide about y = 110: its outer edge, where the finder's outline
    # runs, is about 1.5 px above.
    edge = BOX[1] - 1.5
    on = judge_area(table(), decided((300, 250), (300, edge - OFF_BY * SIDE + 3)))
    off = judge_area(table(), decided((300, 250), (300, edge - OFF_BY * SIDE - 3)))
    assert not on.no_decision
    assert off.reason == "out_of_area"


def test_a_no_decision_is_passed_through_untouched():
    from services.vision.reading import no_decision
    refused = no_decision("dice", "cocked")
    assert judge_area(table(), refused) is refused


def test_the_outline_found_on_generated_frames_is_the_printed_one():
    """First-generator frames (a seed outside the held-out ones) with the camera's nuisances,
    cards, chips and the stick on or beside the line: where an outline is found its corners
    are the label's, within a third of a die (the line's pieces under a card or a chip fit
    a little off); wrong outlines here were the stick's bright edge taken for a side."""
    from services.scenes import dataset as D
    from services.vision.dice.outline import printed_area

    spec = D.SetSpec("dice", 24, 12345, D.HELDOUT["dice"].nuisances, 0.25)
    found = 0
    for i in range(spec.n):
        image, label = D.render(spec, i)
        quad = printed_area(image)
        if quad is not None:
            found += 1
            assert np.abs(quad - np.array(label["landing_area_px"])).max() < 14, i
    assert found >= 18


def test_the_outline_is_found_when_the_stick_is_the_longest_line_in_view():
    # A development frame of the first generator (seed 791001, not a held-out seed): the
    # stick lies across the area at a slant, its edges longer than any side, so the outline's
    # sides run at neither its direction nor across it. Its dice: one on, one off the area.
    from services.scenes import dataset
    from services.scenes import nuisances as nz
    from services.scenes.dice import scene
    from services.vision.dice.reader import read_dice
    rng = np.random.default_rng([791_001, 24])
    image, label = scene.render(rng, nz.pick(rng, dataset.HELDOUT["dice"].nuisances),
                                "out_of_area")
    assert "stick" in label["distractors"]
    assert read_dice(image).reason == "out_of_area"


def test_the_outline_is_found_when_chips_hide_all_four_corners():
    # Each side is then a piece of its own, straight along the rows or columns: its box is
    # as thin as the line.
    image = table()
    for x, y in ((BOX[0], BOX[1]), (BOX[2], BOX[1]), (BOX[2], BOX[3]), (BOX[0], BOX[3])):
        cv2.circle(image, (x, y), 28, (30, 30, 30), -1, cv2.LINE_AA)
    reading = judge_area(image, decided((300, 250), (300, 60)))
    assert reading.reason == "out_of_area"


def corner_only(width: int) -> np.ndarray:
    """The outline's top-left corner, the rest of it too faint to see (in a shadow, say):
    its top and left sides end inside the frame (`width`: the printed line's, px; the
    generators' is 1.5 px for a 42 px die)."""
    image = table(outline=False)
    x0, y0 = BOX[:2]
    cv2.line(image, (x0, y0), (x0 + 320, y0 + 5), (215, 220, 220), width, cv2.LINE_AA)
    cv2.line(image, (x0, y0), (x0 - 3, y0 + 200), (215, 220, 220), width, cv2.LINE_AA)
    return image


def test_with_only_a_corner_in_view_a_die_beyond_its_side_is_out_of_area():
    image = corner_only(2)
    assert printed_area(image) is None
    above = judge_area(image, decided((300, 250), (300, 60)))
    left = judge_area(image, decided((300, 250), (60, 260)))
    assert above.reason == left.reason == "out_of_area"
    assert np.allclose(above.detail["corner"], BOX[:2], atol=3)
    inside = decided((300, 250), (400, 290))
    assert judge_area(image, inside) is inside


def test_a_broad_line_of_the_layout_meeting_another_is_no_corner_of_the_outline():
    # The layout's lines are 3-7 mm wide (a sixth to a third of a die); the outline's 0.7 mm.
    image = corner_only(12)
    one_off = decided((300, 250), (300, 60))
    assert judge_area(image, one_off) is one_off


def test_two_lines_meeting_at_a_sharp_angle_are_no_corner():
    # An outline's corner is a right angle on the table; a camera sees it at 80 degrees or
    # more. Here the left side leans 50 degrees off it.
    image = table(outline=False)
    x0, y0 = BOX[:2]
    cv2.line(image, (x0, y0), (x0 + 320, y0 + 5), (215, 220, 220), 2, cv2.LINE_AA)
    cv2.line(image, (x0, y0), (x0 + 160, y0 + 190), (215, 220, 220), 2, cv2.LINE_AA)
    one_off = decided((400, 250), (300, 60))
    assert judge_area(image, one_off) is one_off


def test_two_lines_crossing_are_no_corner():
    image = corner_only(2)
    x0, y0 = BOX[:2]
    cv2.line(image, (x0, y0), (x0 - 80, y0 - 1), (215, 220, 220), 2, cv2.LINE_AA)  # goes on
    one_off = decided((300, 250), (300, 60))
    assert judge_area(image, one_off) is one_off


@pytest.mark.parametrize("width, centres, refused", [
    (2, ((300, 300), (300, 150)), True),     # one die either side, each well off the line
    (2, ((300, 300), (300, 220)), False),    # one on the line (within half a die of it)
    (2, ((300, 300), (450, 400)), False),    # both on one side
    (12, ((300, 300), (300, 150)), False),   # a broad line of the layout
])
def test_a_side_crossing_the_whole_view_has_the_dice_either_side_out_of_area(
        width, centres, refused):
    # A zoomed frame showing one side of the outline, from edge to edge: one die lies off
    # the area, whichever side of it the area is.
    image = table(outline=False)
    cv2.line(image, (0, 150), (639, 330), (215, 220, 220), width, cv2.LINE_AA)
    reading = decided(*centres)
    judged = judge_area(image, reading)
    assert (judged.reason == "out_of_area") if refused else (judged is reading)


def out_of_area(seed: int, index: int, wide: bool) -> tuple[np.ndarray, dict]:
    """A development frame (seeds 772001 / 792001-2: not held out) with one die off the
    landing area, of the first generator or its widened one (zoomed)."""
    from services.scenes import dataset
    from services.scenes import nuisances as nz
    from services.scenes.dice import scene
    rng = np.random.default_rng([seed, index])
    return scene.render(rng, nz.pick(rng, dataset.HELDOUT["dice"].nuisances), "out_of_area",
                        scene.WIDE if wide else None)


@pytest.mark.parametrize("index", [2, 0])
def test_a_zoomed_frame_showing_part_of_the_outline_is_out_of_area(index):
    # 2: its top-right corner only in view, a die above it; 0: three sides, the fourth out
    # of the frame, a die beyond one of them
    from services.vision.dice.reader import read_dice
    image, label = out_of_area(772_001, index, wide=True)
    assert printed_area(image) is None
    reading = read_dice(image)
    assert reading.reason == "out_of_area"
    corner = np.array(reading.detail["corner"])
    assert np.hypot(*(np.array(label["landing_area_px"]) - corner).T).min() < 6


def test_the_outline_stops_at_its_corners():
    # The stick lies across the area along its left side, and the top and bottom sides'
    # lines cross its edge: they go on beyond it, so it makes no corner with them.
    from services.vision.dice.reader import read_dice
    image, label = out_of_area(792_002, 38, wide=False)
    assert np.abs(printed_area(image) - np.array(label["landing_area_px"])).max() < 14
    assert read_dice(image).reason == "out_of_area"


def test_of_outlines_as_good_at_their_weakest_side_the_better_on_all_sides_is_taken():
    # The rail's edge is a light line too: with the left and right sides drawn on to it
    # across the cloth it makes an outline whose weakest side is the same as the true one's
    # (the bottom, under a card and the stick); a die between the rail and the top side.
    from services.vision.dice.reader import read_dice
    image, label = out_of_area(792_003, 79, wide=False)
    assert np.abs(printed_area(image) - np.array(label["landing_area_px"])).max() < 14
    assert read_dice(image).reason == "out_of_area"


@pytest.mark.parametrize("seed, index, wide", [(772_001, 19, True), (792_001, 112, False)])
def test_what_lies_just_beyond_a_corner_is_no_side_going_on(seed, index, wide):
    # 19: zoomed, one corner in view, the stick just beyond it (a broad line, not the side's
    # thin one); 112: a card hides the top right corner, and a die lies just beyond the top
    # left one, its pips on the left side's line.
    from services.vision.dice.reader import read_dice
    image, _ = out_of_area(seed, index, wide)
    assert read_dice(image).reason == "out_of_area"


def test_a_readable_tuning_frame_with_the_layouts_lines_meeting_is_read():
    # The foreign renderer's TUNING region (seed 730002, a development seed): two broad
    # printed lines meet at a right angle between the dice.
    from services.scenes.dice_crops import frame
    from services.vision.dice.reader import read_dice
    image, label = frame("tuning", 730_002, 229)
    reading = read_dice(image)
    assert not reading.no_decision
    assert reading.values == tuple(label["values"])


def test_the_outline_is_found_round_a_crowd_of_rings():
    """Chips' rings inside the outline (light thin lines too): the outline's own pixels fill
    its box little, all the line pixels in its box did not (`_own_pixels`, THIN)."""
    image = table()
    for i in range(4):
        for j in range(3):
            cv2.circle(image, (175 + 95 * i, 160 + 95 * j), 26, (215, 220, 220), 3,
                       cv2.LINE_AA)
    quad = printed_area(image)
    assert quad is not None
    assert np.abs(quad - [[BOX[0], BOX[1]], [BOX[2], BOX[1]], [BOX[2], BOX[3]],
                          [BOX[0], BOX[3]]]).max() < 3
    assert judge_area(image, decided((215, 207), (300, 60))).reason == "out_of_area"


def test_a_first_generator_frame_with_chips_inside_the_outline_is_out_of_area():
    """A fresh first-generator development seed (846001, frame 6): a 1 beyond the outline's
    top-right corner, two chips and the stick inside it; read (1, 5) before `_own_pixels`."""
    from services.scenes.dice_crops import frame
    from services.vision.dice.reader import read_dice
    image, label = frame("first", 846_001, 6)
    assert label["reason"] == "out_of_area"
    assert read_dice(image).reason == "out_of_area"


def test_a_motion_blurred_outline_still_makes_a_corner(monkeypatch):
    """A fresh first-generator seed (998001, frame 164): a 5 beyond the outline's bottom side
    near its bottom-left corner; motion blur widens the printed line to 0.153 of a die where
    it is half as bright over the cloth. Under THIN_FWHM (0.15) it is no corner's arm, and
    the frame was read (5, 6); within it, `out_of_area` at the corner."""
    from services.scenes.dice_crops import frame
    from services.vision.dice import corners
    from services.vision.dice.reader import read_dice
    image, label = frame("first", 998_001, 164)
    assert label["reason"] == "out_of_area" and "motion_blur" in label["nuisances"]
    got = read_dice(image)
    assert got.reason == "out_of_area"
    assert np.allclose(got.detail["corner"], label["landing_area_px"][3], atol=4)
    monkeypatch.setattr(corners, "THIN_FWHM", 0.12)
    assert read_dice(image).values == (5, 6)

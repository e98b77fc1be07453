"""The real dice reader on generated frames: values equal the labels, no-decision cases give
the right reason, distractors and nuisances never produce a wrong value."""
import cv2
import numpy as np
import pytest

from services.scenes import dataset as D
from services.scenes import nuisances as nz
from services.scenes.dice import scene as dice_scene
from services.scenes.dice.scene import NO_DECISION_REASONS
from services.vision.dice import calibration as cal
from services.vision.dice.faces import LAYOUT, PIP_OFFSET, PIP_RADIUS
from services.vision.dice.reader import MIN_MARGIN, read_dice, score_face
from tests.vision.conftest import dice_frame


def _read(img, label):
    return read_dice(img, cal.DiceCalibration.from_json(label["calibration"]))


def _read_tuning_frame(seed: int, index: int, values: list[int], size: int = 2000,
                       rate: float = 0.2):
    """Render frame `index` of a tuning set (every nuisance), check its label, read it and
    assert the reader gives exactly `values`; the reading, for further checks."""
    img, label = D.render(D.SetSpec("dice", size, seed, nz.NUISANCES, rate), index)
    assert label["values"] == values
    r = _read(img, label)
    assert not r.no_decision and list(r.values) == values, (r.reason, r.detail)
    return r


def test_clean_frames_read_exactly():
    for i in range(30):
        img, label = dice_frame(i)
        r = _read(img, label)
        assert not r.no_decision, (i, r.reason, r.detail)
        assert list(r.values) == label["values"], (i, r.detail)
        assert 0 < r.confidence <= 1


@pytest.mark.parametrize("reason", NO_DECISION_REASONS)
def test_each_no_decision_case_gives_its_reason(reason):
    right = 0
    for i in range(12):
        img, label = dice_frame(100 + i, reason)
        r = _read(img, label)
        assert r.no_decision, (reason, i, r.values)  # never a guess
        right += r.reason == reason
    # Leaning and stacked dice can look alike from above; the reason must still be right for
    # nearly all (the evaluation reports the confusion).
    assert right >= 10, (reason, right)


def test_distractors_do_not_change_the_reading():
    """Frames rich in chips, cards, the stick and dots on the felt still read right."""
    seen = set()
    for i in range(60):
        img, label = dice_frame(300 + i)
        if not label["distractors"]:
            continue
        seen.update(label["distractors"])
        r = _read(img, label)
        assert r.no_decision or list(r.values) == label["values"], (i, r.values, label)
        assert not r.no_decision, (i, r.reason, label["distractors"])
    assert {"chip", "card", "stick", "dots"} <= seen


def test_glare_and_all_nuisances_never_give_a_wrong_value():
    decided = 0
    for i in range(60):
        rng = np.random.default_rng([77, i])
        img, label = dice_frame(500 + i, nuisances=nz.pick(rng, nz.NUISANCES, 0.6))
        r = _read(img, label)
        if not r.no_decision:
            decided += 1
            assert list(r.values) == label["values"], (i, label["nuisances"])
    assert decided >= 54  # and most are read (the benchmark measures the exact rate)


def _face(value: int, highlight: tuple[int, int] | None = None,
          colours=((45, 40, 190), (235, 235, 235)), glow_level: float = 80) -> np.ndarray:
    """A flat rendered face patch, 48 px, red with white pips unless told."""
    body, pip = colours
    patch = np.full((48, 48, 3), body, np.uint8)
    for gx, gy in LAYOUT[value]:
        c = (int(24 + gx * PIP_OFFSET * 48), int(24 + gy * PIP_OFFSET * 48))
        cv2.circle(patch, c, int(PIP_RADIUS * 48), pip, -1, cv2.LINE_AA)
    if highlight:  # a lamp reflection: white added to the body, soft and elongated
        glow: np.ndarray = np.zeros((48, 48), np.float32)
        cv2.ellipse(glow, highlight, (9, 3), 30, 0, 360, 1.0, -1)
        glow = cv2.GaussianBlur(glow, (5, 5), 0)
        patch = np.clip(patch + glow_level * glow[..., None], 0, 255).astype(np.uint8)
    return patch


@pytest.mark.parametrize("value", range(1, 7))
def test_score_face_reads_every_value_and_quarter_turns(value):
    patch = _face(value)
    for k in range(4):
        v, margin = score_face(np.ascontiguousarray(np.rot90(patch, k)))
        assert v == value and margin > 0.5


def test_a_reflection_on_an_empty_cell_is_not_a_pip():
    v, margin = score_face(_face(4, highlight=(24, 24)))  # where the 5's centre pip would be
    assert v == 4 and margin > 0.3


def test_a_reflection_half_hiding_a_dark_pip_does_not_remove_it():
    """Yellow die, dark pips: a reflection across the 3's centre pip leaves a 2's pattern with
    a wide margin; the dark rim of the pip beside the streak makes the face unreadable."""
    yellow = ((60, 200, 225), (25, 25, 25))
    v, margin = score_face(_face(3, (24, 24), yellow, glow_level=100))
    assert v != 2 or margin < MIN_MARGIN, (v, margin)
    # The same reflection on the empty centre of a 2 is not a pip and does not hide one.
    v, margin = score_face(_face(2, (24, 24), yellow, glow_level=100))
    assert v == 2 and margin > 0.9


def test_a_pip_under_a_reflection_in_a_real_frame_is_read_by_its_dark_rim():
    # Tuning seed 123, frame 1322: a yellow 3 whose centre pip is half under a reflection was
    # read as a 2 (margin 0.56) before the dark-rim check, then refused; its dark rim now
    # scores the pip (margin 0.68).
    img, label = D.render(D.SetSpec("dice", 1500, 123, nz.NUISANCES, 0.25), 1322)
    assert label["values"] == [2, 3]
    r = _read(img, label)
    assert not r.no_decision and list(r.values) == [2, 3], (r.values, r.detail)


def test_a_face_turned_from_its_blob_is_read_by_a_second_look_at_its_edges():
    # Tuning seed 7101, frame 506: a green 2 in glare whose blob angle is 14 degrees off the
    # die's was read as a 6 at margin -0.15; turned to the die's edges it reads 2 at 0.93.
    img, label = D.render(D.SetSpec("dice", 2000, 7101, nz.NUISANCES, 0.2), 506)
    assert label["values"] == [2, 5]
    r = _read(img, label)
    assert not r.no_decision and list(r.values) == [2, 5], (r.values, r.detail)


def test_blank_face_is_unreadable():
    assert score_face(np.full((48, 48, 3), (45, 40, 190), np.uint8))[0] is None


def test_empty_frame_and_grey_input():
    with pytest.raises(ValueError, match="image: empty frame"):
        read_dice(np.zeros((0, 0, 3), np.uint8))
    img, label = dice_frame(1)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    r = read_dice(grey, cal.DiceCalibration.from_json(label["calibration"]))
    assert r.no_decision or (r.values is not None and list(r.values) == label["values"])


def test_no_dice_on_an_empty_table():
    img, label = dice_frame(2, "single_die")
    # paint over the one die with the felt colour around it: nothing left to read
    r = _read(img, label)
    assert r.reason == "single_die"
    felt = np.median(img[200:260, 300:340].reshape(-1, 3), axis=0).astype(np.uint8)
    empty = np.full_like(img, felt)
    assert _read(empty, label).reason == "no_dice"


@pytest.mark.parametrize("index, values", [(77, [1, 2]), (1295, [2, 6])])
def test_a_chip_half_in_shadow_is_not_dice_on_dice(index, values):
    # Tuning seed 456: a chip the felt's colour, half in a shadow, showed a crescent the size
    # of two stacked dice and the frame was called `overlap`; a crescent is not compact.
    _read_tuning_frame(456, index, values, size=1500, rate=0.25)


def test_a_die_inside_a_glare_halo_is_cut_free():
    # Tuning seed 123, frame 1345: a white die inside a lamp's glare on the felt formed one
    # blob with the halo that neither the opening nor the higher threshold could split.
    img, label = D.render(D.SetSpec("dice", 1500, 123, nz.NUISANCES, 0.25), 1345)
    assert label["values"] == [2, 6] and "glare" in label["nuisances"]
    r = _read(img, label)
    assert not r.no_decision and list(r.values) == [2, 6], (r.reason, r.detail)


def test_a_piece_of_a_card_is_not_a_die():
    # Tuning seed 456, frame 843: a card cut by the frame edge is a white rim around a hole
    # (its middle became the local felt); a red suit mark with the rim around it was cut free
    # as a third "die".
    img, label = D.render(D.SetSpec("dice", 1500, 456, nz.NUISANCES, 0.25), 843)
    assert label["values"] == [2, 4] and "card" in label["distractors"]
    r = _read(img, label)
    assert not r.no_decision and list(r.values) == [2, 4], (r.reason, r.detail)


def test_a_leaning_die_in_glare_is_not_cut_into_a_flat_one():
    # Tuning seed 9191, cocked frame 637: a leaning die joined to a glare halo; the opening
    # showed it leaning, the higher threshold stripped its side face and found a flat "2".
    rng = np.random.default_rng([9191, 637])
    img, label = dice_scene.render(rng, nz.pick(rng, nz.NUISANCES), "cocked")
    r = _read(img, label)
    assert r.no_decision, (r.values, r.detail)


def test_a_die_leaning_15_degrees_is_never_given_a_value():
    # Tuning seed 6161, cocked frame 126: the leaning die's blob is only 1.15 times longer
    # than wide, so it passes as a flat die; its top face, read at the blob's end, gave a
    # confident 3. Centred on the blob the face does not read: no decision.
    rng = np.random.default_rng([6161, 126])
    img, label = dice_scene.render(rng, nz.pick(rng, nz.NUISANCES), "cocked")
    r = _read(img, label)
    assert r.no_decision, (r.values, r.detail)


@pytest.mark.parametrize("seed, index, values", [(2024, 118, [2, 6]), (456, 610, [1, 6])])
def test_a_die_in_a_glare_band_or_beside_the_stick_is_cut_free(seed, index, values):
    # Tuning frames where a die in glare joined a blob with the stick (seed 2024, frame 118)
    # or lay in glare that only the line openings remove (seed 456, frame 610): what is longer
    # than 2.8 dice leaves the top-hat; the stick is thin everywhere and away from the die.
    _read_tuning_frame(seed, index, values, size=1500, rate=0.25)


def test_a_leaning_die_the_size_of_a_flat_one_is_refused_by_its_side_strip():
    # Tuning seed 44, cocked frame 329: a yellow die leaning ~15 degrees whose darker side
    # face fell under the threshold; its blob was die-sized and square and the old reader gave
    # values [1, 5]. The side face just outside the die-sized square is die-coloured.
    rng = np.random.default_rng([44, 329])
    img, label = dice_scene.render(rng, nz.pick(rng, nz.NUISANCES), "cocked")
    r = _read(img, label)
    assert r.no_decision and r.reason == "cocked", (r.values, r.reason, r.detail)


@pytest.mark.parametrize("seed, index, values", [
    (7202, 662, [3, 3]), (7202, 1791, [3, 5]),  # two dice joined by their shadows: not touching
    (7101, 26, [3, 4]),   # a chip cut by the frame edge: its rest is not soft, no die cut from it
    (7101, 531, [1, 6]), (7404, 1960, [1, 5]),  # a glare lump beside a die is not a side face
    (7101, 1512, [2, 3]),  # a die on a halo reaching half its contrast: cut at 0.6 of its peak
])
def test_a_die_joined_to_a_shadow_or_glare_is_read(seed, index, values):
    # Tuning frames (2000-frame sets, no-decision rate 0.2) that were missed: see segment.py
    # `_mark_touching`, `_sharpness`, `_stripped_side` and HALO_SHARE.
    _read_tuning_frame(seed, index, values)


@pytest.mark.parametrize("seed, index, values", [(7404, 1372, [1, 4]), (7404, 1696, [1, 2])])
def test_a_chip_piece_shaped_like_dice_on_dice_far_from_two_flat_dice_is_ignored(
        seed, index, values):
    # Tuning frames refused as `overlap`: a blue chip with its shadow on blue felt, and a
    # chip's piece in a lamp's glare, made compact blobs of 1.6-2.1 dice far from both flat
    # dice. One die on the other cannot be 2 dice away from both (reader.STRAY_GAP).
    r = _read_tuning_frame(seed, index, values)
    assert ("cluster", ) in {(k,) for k, _ in r.detail["blobs"]}  # the blob is still seen


@pytest.mark.parametrize("seed, index, values", [
    (7202, 79, [1, 4]), (7606, 1054, [1, 2]),  # a halo crossed by the printed line
    (7505, 1819, [1, 5]),                       # a halo joining the die to the outline
    (7404, 261, [1, 5]), (7505, 1526, [2, 3]), (7707, 613, [1, 2]),  # ... to a chip
    (7707, 1666, [2, 5]),  # two dice in glare: a later cut frees both (not the neck's cut)
])
def test_a_die_joined_by_a_soft_neck_to_a_chip_or_the_line_is_read(seed, index, values):
    # Tuning frames read `single_die`: the die in glare or a shadow's edge was cut free, but
    # the rest (a chip, the printed line) is sharp and thick; it touches the die only through
    # a soft neck (neck.py). In seed 7202 frame 79 a chip's middle also cuts free as a "die";
    # its rest, the chip's rim, is a sharp neck and it stays a chip.
    _read_tuning_frame(seed, index, values)


def test_dice_on_dice_are_refused_even_beside_a_flat_looking_die():
    # The stray-cluster rule needs two flat dice apart from the cluster; an overlap scene has
    # at most one (3000 rendered overlap scenes, seeds 8700-8705: none decided).
    for i in range(40):
        rng = np.random.default_rng([8799, i])
        img, label = dice_scene.render(rng, nz.pick(rng, nz.NUISANCES), "overlap")
        assert _read(img, label).no_decision


def test_a_die_inside_the_printed_outline_is_counted_once():
    # Tuning seed 7111 frame 1360: the outline's filled contour holds both dice, and its
    # second look (with the soft neck) cut them out again: four dice, `too_many_dice`.
    r = _read_tuning_frame(7111, 1360, [1, 5])
    assert len(r.detail["blobs"]) == 2

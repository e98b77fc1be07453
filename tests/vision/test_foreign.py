"""The second renderer (services/scenes/foreign), the dice reader without a calibration
(dice/learned.py), calibration from ordinary play (learn.py) and `casino vision eval --set`."""
from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
from click.testing import CliRunner

from services.cli.vision import vision
from services.scenes.foreign import dice as FD
from services.scenes.foreign import sets
from services.vision import learn
from services.vision.dice.reader import read_dice

# One fixed camera: 50 px dice, looking straight down, no lens distortion.
FIXED = dataclasses.replace(sets.TUNING.dice, die_px=(50.0, 50.001), tilt=(0.0, 0.001),
                            k1=(0.0, 0.0001), cocked_rate=0.0)


def test_frames_are_reproducible_and_the_tuning_region_keeps_out_what_it_says():
    a, la = sets.render(sets.TUNING, "dice", 3)
    b, lb = sets.render(sets.TUNING, "dice", 3)
    assert np.array_equal(a, b) and la == lb
    for i in range(6):
        image, label = sets.render(sets.TUNING, "dice", i)
        assert image.shape == (480, 640, 3) and label["style"] in sets.TUNING.dice.styles
        assert label["felt"] in ("green", "blue") and label["tilt"] <= 15
        assert label["no_decision"] or sorted(label["values"]) == label["values"]


def test_without_a_calibration_the_dice_reader_reads_or_abstains_and_never_guesses():
    read = 0
    for i in range(12):
        image, label = FD.render(np.random.default_rng([42, i]), FIXED)
        reading = read_dice(image)  # no calibration: nothing assumed about the camera
        if reading.values is not None:
            assert list(reading.values) == label["values"], (i, reading)
            read += 1
        else:
            assert reading.reason
    assert read >= 1
    felt = np.full((480, 640, 3), (40, 110, 35), np.uint8)
    assert read_dice(felt).reason == "no_dice"


def test_dice_calibration_learnt_from_play_finds_the_die_size_and_the_rest_area():
    frames, centres = [], []
    for i in range(10):
        image, label = FD.render(np.random.default_rng([43, i]), FIXED)
        frames.append(image)
        centres += label["centres_px"]
    learned = learn.learn_dice(frames)
    assert abs(learned.detail["die_px"] - 50) < 0.15 * 50
    (x0, y0), _, (x1, y1), _ = learned.calibration.landing_area_px
    seen = [c for c in centres if x0 <= c[0] <= x1 and y0 <= c[1] <= y1]
    assert len(seen) >= 0.8 * len(centres)
    felt = [np.full((480, 640, 3), (40, 110, 35), np.uint8)] * 5
    try:
        learn.learn_dice(felt)
    except ValueError as exc:
        assert "frames" in str(exc)
    else:
        raise AssertionError("learnt a camera from frames without dice")


def test_calibrate_from_a_folder_and_eval_a_named_set(tmp_path):
    for i in range(8):
        image, _ = FD.render(np.random.default_rng([43, i]), FIXED)
        cv2.imwrite(str(tmp_path / f"f{i}.png"), image)
    runner = CliRunner()
    out = tmp_path / "cam.json"
    res = runner.invoke(vision, ["calibrate", str(tmp_path), "--kind", "dice", "--out",
                                 str(out)])
    assert res.exit_code == 0, res.output
    row = json.loads(res.output.splitlines()[-1])
    assert row["learned_from"]["frames"] == 8 and json.loads(out.read_text())["kind"] == "dice"
    res = runner.invoke(vision, ["eval", "--set", "tuning", "--kind", "dice", "-n", "3",
                                 "--jobs", "1", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads([x for x in res.output.splitlines() if x.startswith("{")][0])
    assert report["dice"]["frames"] == 3
    res = runner.invoke(vision, ["eval", "--set", "tuning", str(tmp_path)])
    assert res.exit_code != 0  # SET_DIR or --set, not both

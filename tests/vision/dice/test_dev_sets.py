"""tests/vision/dice/dev_sets.py, the development sets' reader: on a folder of two frames."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from services.scenes.dice_crops import VALIDATION, frame
from tests.vision.dice import dev_sets


def test_read_writes_each_frame_s_outcome_and_diff_lists_changes(tmp_path, capsys):
    folder = tmp_path / "dev-tuning"
    folder.mkdir()
    labels = {}
    for index in (243, 88):  # a (1, 3) read right; a (5, 6) missed (single_die)
        image, labels[index] = frame("tuning", VALIDATION["tuning"], index)
        cv2.imwrite(str(folder / f"{index:05d}.png"), image)
    (folder / "labels.json").write_text(json.dumps(labels))
    out = tmp_path / "now.json"
    assert dev_sets.main(["read", str(tmp_path), str(out), "--sets", "dev-tuning"]) == 0
    found = json.loads(out.read_text())["dev-tuning"]
    assert found["243"][:2] == ["ok", [1, 3]]
    assert found["88"][0] == "miss" and found["88"][2] == "single_die"
    assert "read 1 of 2, wrong 0" in capsys.readouterr().out
    found["88"] = ["ok", [5, 6], None]
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"dev-tuning": found}))
    assert dev_sets.main(["diff", str(out), str(other)]) == 0
    assert capsys.readouterr().out.startswith("dev-tuning 88 ['miss', None, 'single_die'] ->")


def test_outcome():
    readable = {"no_decision": False, "values": [3, 1]}
    void = {"no_decision": True, "values": None}
    assert dev_sets.outcome((1, 3), readable) == "ok"
    assert dev_sets.outcome((1, 4), readable) == "wrong"
    assert dev_sets.outcome(None, readable) == "miss"
    assert dev_sets.outcome(None, void) == "nd_ok"
    assert dev_sets.outcome((1, 3), void) == "nd_decided"


def test_more_frames_are_cached_as_the_tests_render_them_and_read_with_a_rule_set(tmp_path,
                                                                                   capsys):
    """`cache --more` writes dice_crops.frame's frames as a set named SOURCE-SEED; `read --set`
    sets a constant in the reading processes: LEAN_P 0 takes every view for a leaning die."""
    assert dev_sets.main(["cache", str(tmp_path), "--more", "tuning:730002:2"]) == 0
    name = "tuning-730002"
    labels = json.loads((tmp_path / name / "labels.json").read_text())
    image, label = frame("tuning", VALIDATION["tuning"], 1)
    assert labels["1"]["values"] == label["values"]
    cached = cv2.imread(str(tmp_path / name / "00001.png"))
    assert cached is not None and np.array_equal(cached, image)
    out = tmp_path / "off.json"
    assert dev_sets.main(["read", str(tmp_path), str(out), "--sets", name,
                          "--set", "views.LEAN_P=0.0"]) == 0
    found = json.loads(out.read_text())[name]
    assert [found[i][2] for i in ("0", "1")] == ["cocked", "cocked"]


def test_a_set_naming_no_constant_is_refused_with_the_reason(tmp_path, capsys):
    for bad, reason in (("learned.NO_SUCH=1", "has no NO_SUCH"),
                        ("LONELY=0", "expected MODULE.NAME=VALUE"),
                        ("rescue.LONELY=zero", "malformed")):
        with pytest.raises(SystemExit) as stop:
            dev_sets.main(["read", str(tmp_path), str(tmp_path / "x.json"), "--sets",
                           "dev-tuning", "--set", bad])
        assert stop.value.code == 2 and reason in capsys.readouterr().err

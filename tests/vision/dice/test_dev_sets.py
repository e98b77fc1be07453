"""tests/vision/dice/dev_sets.py, the development sets' reader: on a folder of two frames."""
from __future__ import annotations

import json

import cv2

from services.scenes.dice_crops import VALIDATION, frame
from tests.vision.dice import dev_sets


def test_read_writes_each_frame_s_outcome_and_diff_lists_changes(tmp_path, capsys):
    folder = tmp_path / "dev-tuning"
    folder.mkdir()
    labels = {}
    for index in (243, 55):  # a (1, 3) read right; a (1, 6) missed (single_die)
        image, labels[index] = frame("tuning", VALIDATION["tuning"], index)
        cv2.imwrite(str(folder / f"{index:05d}.png"), image)
    (folder / "labels.json").write_text(json.dumps(labels))
    out = tmp_path / "now.json"
    assert dev_sets.main(["read", str(tmp_path), str(out), "--sets", "dev-tuning"]) == 0
    found = json.loads(out.read_text())["dev-tuning"]
    assert found["243"][:2] == ["ok", [1, 3]]
    assert found["55"][0] == "miss" and found["55"][2] == "single_die"
    assert "read 1 of 2, wrong 0" in capsys.readouterr().out
    found["55"] = ["ok", [1, 5], None]
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"dev-tuning": found}))
    assert dev_sets.main(["diff", str(out), str(other)]) == 0
    assert capsys.readouterr().out.startswith("dev-tuning 55 ['miss', None, 'single_die'] ->")


def test_outcome():
    readable = {"no_decision": False, "values": [3, 1]}
    void = {"no_decision": True, "values": None}
    assert dev_sets.outcome((1, 3), readable) == "ok"
    assert dev_sets.outcome((1, 4), readable) == "wrong"
    assert dev_sets.outcome(None, readable) == "miss"
    assert dev_sets.outcome(None, void) == "nd_ok"
    assert dev_sets.outcome((1, 3), void) == "nd_decided"

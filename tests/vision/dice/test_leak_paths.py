"""tests/vision/dice/leak_paths.py: the way a frame was decided, on development frames."""
from __future__ import annotations

import json

from services.scenes.dice_crops import VALIDATION, frame
from services.vision.dice import learned, views
from tests.vision.dice import leak_paths


def way(source: str, index: int) -> str:
    image, _ = frame(source, VALIDATION[source], index)
    reading = learned.read_learned(image)
    assert not reading.no_decision
    return leak_paths.path(image, reading.detail)


def test_the_way_a_frame_was_decided():
    assert way("tuning", 243) == "first"     # a (1, 3) read sure at once
    assert way("tuning", 9) == "camera"      # a die read at 0.50, rescued (misfit 0.114)
    assert way("solid", 5) == "tilted"       # both dice seen leaning under a tilted camera


def test_the_leaning_dies_view_and_the_summary(capsys):
    image, label = frame("leaning", VALIDATION["leaning"], 2)   # refused: cocked
    view = leak_paths.leaning_view(image, label)
    assert view is not None and view["lean"] > 0.4 and view["belief"] < views.FACE_P
    assert leak_paths.main(["--json", "leaning:760002:3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["frames"] == 3 and out["decided"] == len(out["leaks"]) == 0

"""One size for both dice (again._one_size): a frame with one sure die is decided again
with every other candidate also looked at at that die's side. Development frames (the first
generator's validation seed and a seed of the foreign renderer's tuning region,
dice_crops.frame: never an evaluation seed)."""
from __future__ import annotations

import pytest

from services.scenes.dice_crops import frame
from services.vision.dice import again, camera, guard, learned


@pytest.mark.parametrize("source, seed, index, values", [
    ("first", 750002, 93, (1, 3)),      # stop 35's network (755001 frame 118 before it)
    ("tuning", 710001, 171, (1, 5)),     # frame 106 before the shaded rescue (stop 35)
])
def test_a_die_seen_at_the_other_die_s_side_is_read(monkeypatch, source, seed, index, values):
    img, label = frame(source, seed, index)
    assert tuple(sorted(label["values"])) == values
    assert learned.read_learned(img).values == values
    monkeypatch.setattr(again, "RESIZED", float("inf"))
    monkeypatch.setattr(again, "AT_SIDE", False)  # tuning 171: that look reads its 1 too
    assert learned.read_learned(img).reason == "single_die"


def test_a_frame_read_at_one_size_keeps_the_guard(monkeypatch):
    """The second decision is the guard's too: with a leaning view beside a die it would
    need the dice to fit one camera (GUARD_LEAN at 0 makes every decided frame ask)."""
    img, _ = frame("first", 750002, 93)
    monkeypatch.setattr(guard, "GUARD_LEAN", 0.0)
    monkeypatch.setattr(camera, "FIT", 0.0)
    assert learned.read_learned(img).reason == "cocked"

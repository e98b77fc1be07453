"""The uncalibrated dice reader's readings pinned on six tuning frames (seed 710001), so that
a speed-up cannot change a reading: values, reason, confidence (within 1e-6) and the faces
found. The frames take the paths that were made faster: a lone pip read as a 1 beside
another die and without one (the half-resolution look), a side face's pips, a stray pip, a
frame without dice. Pinned from the reader before the speed-ups (2026-11-25); the same
readings on 600 development frames (README, "Calibration")."""
from __future__ import annotations

from typing import Any

import pytest

from services.scenes.foreign import sets
from services.vision.dice.reader import read_dice

PINNED: dict[int, tuple[tuple[int, int] | None, str | None, float, dict[str, Any]]] = {
    1: ((1, 5), None, 0.6286227703094482,
        {"faces": [(5, 0.629, [416, 306], 47.1), (1, 0.899, [546, 75], 47.1)]}),
    9: (None, "cocked", 0.0, {"side_pips": 1, "faces": [(2, 0.432, [121, 212], 57.4)]}),
    11: (None, "no_dice", 0.0, {"faces": []}),
    16: (None, "cocked", 0.0,
         {"stray": 2, "faces": [(5, 0.739, [411, 92], 64.0), (1, 0.981, [149, 80], 64.0)]}),
    21: (None, "single_die", 0.0, {"faces": [(1, 0.995, [534, 104], 84.3)]}),
    25: ((1, 2), None, 0.37043052911758423,
         {"faces": [(2, 0.37, [550, 235], 68.7), (1, 0.995, [552, 415], 68.7)]}),
}


@pytest.mark.parametrize("index", sorted(PINNED))
def test_uncalibrated_readings_are_pinned(index: int) -> None:
    image, _ = sets.render(sets.TUNING, "dice", index)
    values, reason, confidence, detail = PINNED[index]
    reading = read_dice(image)
    assert (reading.values, reading.reason) == (values, reason), reading
    assert reading.confidence == pytest.approx(confidence, abs=1e-6)
    assert reading.detail == detail

"""The development sets of `casino vision eval --set dev-*` (services/scenes/named_sets.py):
the validation seeds of the face classifier's training sources, dice only."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes import dice_crops, named_sets


def test_a_dev_set_is_its_sources_validation_seed_frame_by_frame():
    frames = list(named_sets.frames("dev-first", "dice", 2, jobs=1))
    assert [f for f, _, _ in frames] == ["dev-first_dice_00000", "dev-first_dice_00001"]
    for i, (_, image, label) in enumerate(frames):
        want, want_label = dice_crops.frame("first", dice_crops.FIRST_SEED + 1, i)
        assert np.array_equal(image, want) and label == want_label


def test_dev_sets_have_their_sizes_and_no_wheel_frames():
    assert named_sets.size("dev-leaning", "dice", None) == 150
    assert named_sets.size("dev-wide", "dice", None) == 300
    assert named_sets.size("dev-wide", "dice", 7) == 7
    with pytest.raises(ValueError, match="dice frames only"):
        next(named_sets.frames("dev-tuning", "wheel", 1, jobs=1))
    with pytest.raises(ValueError, match="unknown"):
        next(named_sets.frames("dev-nothing", "dice", 1, jobs=1))

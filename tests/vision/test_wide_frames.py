"""The first generator widened for training (services/scenes/dice/scene.py `Widening`): its
frames show the dice where their labels say, at the zoom and size drawn, in the colours
given, and a frame rendered without a widening is the held-out camera's (test_heldout.py
checks those pixels against the committed hashes)."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes.dice import scene as S

WHITE_ON_GREEN = S.Widening(dice={"white": S.DICE_COLOURS["white"]},
                            felts={"green": S.FELTS["green"]}, clashes=frozenset())


@pytest.mark.parametrize("zoom", [0.72, 1.0, 2.1])
def test_a_zoomed_frame_labels_each_die_at_its_place_and_size(zoom):
    wide = S.Widening(dice=WHITE_ON_GREEN.dice, felts=WHITE_ON_GREEN.felts,
                      clashes=frozenset(), zoom=(zoom, zoom))
    for k in range(4):
        image, label = S.render(np.random.default_rng([5, k]), (), None, wide)
        assert image.shape == (480, 640, 3)
        felt = np.array(S.FELTS["green"], float)
        for die in label["dice_px"]:
            assert die["side"] == pytest.approx(zoom * S.DIE_PX, rel=0.01)
            x, y = die["centre"]
            r = 0.15 * die["side"]
            assert die["side"] / 2 <= x <= 640 - die["side"] / 2
            assert die["side"] / 2 <= y <= 480 - die["side"] / 2
            patch = image[int(y - r):int(y + r) + 1, int(x - r):int(x + r) + 1]
            # The die's white body or its black centre pip, never the green cloth.
            assert np.linalg.norm(patch.reshape(-1, 3).mean(0) - felt) > 60


def test_a_wide_frame_of_1280_by_720_is_zoomed_enough_to_fill_it():
    wide = S.Widening(zoom=(0.72, 2.1), sizes=((1280, 720),))
    for k in range(4):
        image, label = S.render(np.random.default_rng([6, k]), ("noise",), None, wide)
        assert image.shape == (720, 1280, 3)
        assert all(die["side"] >= 0.75 * 2 * S.DIE_PX * 0.99 for die in label["dice_px"])


def test_a_widened_frame_draws_its_colours_from_the_widening_only():
    seen = {S.render(np.random.default_rng([7, k]), (), None, S.WIDE)[1]["dice_colour"]
            for k in range(30)}
    assert seen <= set(S.WIDE.dice)
    assert seen - set(S.DICE_COLOURS), "no widened style in 30 frames"
    only = {S.render(np.random.default_rng([7, k]), (), None, WHITE_ON_GREEN)[1]["felt"]
            for k in range(5)}
    assert only == {"green"}

"""Shared helpers for the vision tests: render synthetic dice frames (tuning seeds only)."""
from __future__ import annotations

import numpy as np

from services.scenes.dice import scene as dice_scene

TEST_SEED = 4242  # not in RESERVED_SEEDS: never the held-out set


def dice_frame(index: int, reason: str | None = None, nuisances=(), seed: int = TEST_SEED):
    rng = np.random.default_rng([seed, index])
    return dice_scene.render(rng, list(nuisances), reason)

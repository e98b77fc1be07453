"""Shared helpers for the wheel tests: frames rendered from tuning seeds (never the held-out
range 900000-900999 reserved in services/scenes/dataset.py), cached per session."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from services.scenes.wheel.scene import render_wheel_scene

TEST_SEED = 5151


@lru_cache(maxsize=256)
def _frame(variant: str, case: str, style: str | None, nuisances: tuple[str, ...], index: int):
    rng = np.random.default_rng([TEST_SEED, index, len(case), len(nuisances)])
    return render_wheel_scene(rng, variant, case=case, style=style, nuisances=nuisances)


@pytest.fixture(scope="session")
def wheel_frame():
    """wheel_frame(variant, case, style=None, nuisances=(), index=0) -> (image, label)."""
    def make(variant: str, case: str, style: str | None = None, nuisances=(), index: int = 0):
        return _frame(variant, case, style, tuple(nuisances), index)
    return make

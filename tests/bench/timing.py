"""Timing helpers shared by the benchmarks."""
from __future__ import annotations

import time
from collections.abc import Callable


def timings(fn: Callable[[], object], repeats: int = 3,
            before: Callable[[], object] | None = None) -> list[float]:
    """Wall seconds of `repeats` calls of `fn` (`before` runs untimed ahead of each, e.g. to
    clear a cache so every call is cold)."""
    out = []
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def best(fn: Callable[[], object], repeats: int = 3) -> float:
    """The fastest of `repeats` calls: the least disturbed by a shared, noisy machine."""
    return min(timings(fn, repeats))

"""The named evaluation sets of `casino vision eval --set NAME`, rendered on demand.

- `foreign`: the second renderer's evaluation set (services/scenes/foreign/sets.py);
- `tuning`: the second renderer's tuning region (the only one a reader is developed on);
- `heldout`: the first generator's held-out sets (dataset.HELDOUT; the wheel's continued to
  1000 frames, as the benchmark reads it).
Frames are rendered by `jobs` processes (rendering costs far more than reading).
"""
from __future__ import annotations

import dataclasses
import multiprocessing
from collections.abc import Iterator
from typing import Any

import numpy as np

from services.scenes import dataset as D
from services.scenes.foreign import sets as F

HELDOUT_N = {"dice": 1000, "wheel": 1000}

Item = tuple[str, np.ndarray, dict[str, Any]]


def size(name: str, kind: str, n: int | None) -> int:
    if n is not None:
        return n
    return HELDOUT_N[kind] if name == "heldout" else F.SIZES[kind]


def render(args: tuple[str, str, int]) -> Item:
    name, kind, i = args
    if name == "heldout":
        spec = dataclasses.replace(D.HELDOUT[kind], n=HELDOUT_N[kind])
        image, label = D.render(spec, i)
        return f"heldout_{kind}_{i:05d}", image, label
    image, label = F.render(F.REGIONS[name], kind, i)
    return f"{name}_{kind}_{i:05d}", image, label


def frames(name: str, kind: str, n: int | None = None, jobs: int = 2) -> Iterator[Item]:
    """The set's frames in order."""
    if name not in ("heldout", *F.REGIONS):
        raise ValueError(f"set: unknown {name!r}")
    work = [(name, kind, i) for i in range(size(name, kind, n))]
    if jobs <= 1:
        yield from map(render, work)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(render, work, chunksize=4)

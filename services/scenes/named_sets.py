"""The named evaluation sets of `casino vision eval --set NAME`, rendered on demand.

- `foreign`: the second renderer's evaluation set (services/scenes/foreign/sets.py);
- `tuning`: the second renderer's tuning region (the only one a reader is developed on);
- `heldout`: the first generator's held-out sets (dataset.HELDOUT; the wheel's continued to
  1000 frames, as the benchmark reads it);
- `dev-tuning`, `dev-first`, `dev-wide`, `dev-leaning`, `dev-solid` (dice only): the
  validation seeds of the face classifier's training sources (dice_crops.py: the seed after
  each training seed), where the vision README's development figures are measured.
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
DEV = {"dev-tuning": ("tuning", 300), "dev-first": ("first", 300), "dev-wide": ("wide", 300),
       "dev-leaning": ("leaning", 150),
       "dev-solid": ("solid", 300)}  # name -> (dice_crops source, frames)
NAMES = ("foreign", "heldout", "tuning", *DEV)

Item = tuple[str, np.ndarray, dict[str, Any]]


def size(name: str, kind: str, n: int | None) -> int:
    if n is not None:
        return n
    if name in DEV:
        return DEV[name][1]
    return HELDOUT_N[kind] if name == "heldout" else F.SIZES[kind]


def render(args: tuple[str, str, int]) -> Item:
    name, kind, i = args
    if name in DEV:
        from services.scenes import dice_crops
        source = DEV[name][0]
        image, label = dice_crops.frame(source, dice_crops.SEEDS[source] + 1, i)
        return f"{name}_{kind}_{i:05d}", image, label
    if name == "heldout":
        spec = dataclasses.replace(D.HELDOUT[kind], n=HELDOUT_N[kind])
        image, label = D.render(spec, i)
        return f"heldout_{kind}_{i:05d}", image, label
    image, label = F.render(F.REGIONS[name], kind, i)
    return f"{name}_{kind}_{i:05d}", image, label


def frames(name: str, kind: str, n: int | None = None, jobs: int = 2) -> Iterator[Item]:
    """The set's frames in order."""
    if name not in NAMES:
        raise ValueError(f"set: unknown {name!r}")
    if name in DEV and kind != "dice":
        raise ValueError(f"set: {name!r} has dice frames only")
    work = [(name, kind, i) for i in range(size(name, kind, n))]
    if jobs <= 1:
        yield from map(render, work)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(render, work, chunksize=4)

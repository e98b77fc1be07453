"""Labelled crops for the dice face classifier (services/vision/dice/classifier.py).

Each frame is rendered by a generator with its dice labelled (`dice_px`: centre, value, pose);
the reader's own candidate finder (services/vision/dice/candidates.py) runs on it, and each
candidate's crop is labelled by the die it stands on:

- class 1-6: a flat die's face, the candidate within NEAR of its centre and about its size;
- class 7 (`LEANING`): within LEAN_NEAR of a die leaning on something (`cocked`: its top
  face's pips and its side face's) or of a die lying on the other die;
- class 0 (`NOTHING`): everything else: the felt, print, chips, cards, the stick, and a flat
  die seen off its centre (two pips of a 6 make a 2's grid a quarter of a side away), which
  the reader looks at too and must not take for a die.

Besides the candidates, every die gives one crop at its true centre, shifted and sized a
little at random, so that a die whose candidate was found slightly off still teaches.

Only development data: the foreign renderer's TUNING region with its own seeds (never the
foreign set's seeds) and the first generator with seeds outside the held-out ones.

    .venv/bin/python -m services.scenes.dice_crops OUT.npz --frames 3000 --jobs 2
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from services.scenes import dataset
from services.scenes import nuisances as nz
from services.scenes.dice import scene as dice_scene
from services.scenes.foreign import dice as foreign_dice
from services.scenes.foreign.sets import FOREIGN_SEEDS, TUNING
from services.vision.dice.candidates import candidates, crop

NOTHING, LEANING = 0, 7
NEAR = 0.2                  # die sides from a flat die's centre: its face
LEAN_NEAR = 0.8             # from a leaning die's centre (its top and side faces)
SIZE = (0.6, 1.6)           # a candidate's side / the die's, for a face class
# Training seeds: new ones for the TUNING region, and first-generator seeds outside
# dataset.RESERVED_SEEDS. Validation uses the next seed of each.
FOREIGN_TUNING_SEED = 730_001
FIRST_SEED = 750_001
LEANING_SEED = 760_001
WIDE_SEED = 770_001
SOLID_SEED = 780_001
COCKED_SEED = 940_001
WHITE_SEED = 1_436_001
WHITE_LEANING_SEED = 1_437_001
SEEDS = {"tuning": FOREIGN_TUNING_SEED, "first": FIRST_SEED, "leaning": LEANING_SEED,
         "wide": WIDE_SEED, "solid": SOLID_SEED, "cocked": COCKED_SEED,
         "white": WHITE_SEED, "white_leaning": WHITE_LEANING_SEED}
# ... and the classifier's validation seed of each: the development sets (casino vision eval
# --set dev-..., the readers' tests and A/B tools)
VALIDATION = {source: seed + 1 for source, seed in SEEDS.items()}
# Frames of each source for every `--frames` (the source's index is its place here)
SHARES = {"tuning": 1.0, "first": 2 / 3, "leaning": 1 / 4, "wide": 2 / 3, "solid": 2 / 3,
          "cocked": 1 / 2, "white": 1 / 2, "white_leaning": 1 / 4}
_COCKED = ("first", "wide", "solid")   # the generators a 'cocked' frame comes from, in turn
_WIDENING = {"wide": dice_scene.WIDE, "solid": dice_scene.SOLID}
# The sources drawn from the foreign renderer's TUNING region (never beyond it)
_TUNING_PARAMS = {"tuning": TUNING.dice,
                  "leaning": dataclasses.replace(TUNING.dice, cocked_rate=1.0),
                  "white": dataclasses.replace(TUNING.dice, styles=("white_black_pips",)),
                  "white_leaning": dataclasses.replace(TUNING.dice, styles=("white_black_pips",),
                                                       cocked_rate=1.0)}
_FIRST = dataset.SetSpec("dice", 1, FIRST_SEED, dataset.HELDOUT["dice"].nuisances, 0.25)


def frame(source: str, seed: int, index: int) -> tuple[np.ndarray, dict[str, Any]]:
    """Frame `index` of a development source: 'tuning' (the foreign renderer's TUNING region),
    'leaning' (the same, every frame with a leaning die), 'first' (the first generator,
    every nuisance in its pool), 'wide' (the same, widened: more dice styles and cloths,
    dice 30-88 px, some frames 1280x720; dice_scene.WIDE) or 'solid' (the widened dice as
    cubes under a pinhole camera 0.35-2.5 m up, tilted up to 32 degrees; dice_scene.SOLID),
    or 'cocked' (the first, wide and solid generators in turn, every frame with a die cocked
    at 15-40 degrees, its top face foreshortened and a side face showing: the leaning dice
    the reader took for flat ones came from these three), or 'white' (the TUNING region's
    one white style, white_black_pips, alone: the style the reader missed most; a training
    source since stop 35) or 'white_leaning' (the same, a die leaning in every frame)."""
    if seed in FOREIGN_SEEDS.values() or seed in dataset.RESERVED_SEEDS:
        raise ValueError(f"seed: {seed} is an evaluation seed, never used for training")
    if source in _TUNING_PARAMS:
        params = _TUNING_PARAMS[source]
        image, label = foreign_dice.render(np.random.default_rng([seed, index]), params)
        for d in label["dice_px"]:
            d["side"] = label["die_px"]
        return image, label
    if source == "cocked":
        return _cocked(seed, index)
    widening = _WIDENING.get(source)
    spec = dataset.SetSpec("dice", 1, seed, _FIRST.nuisances, _FIRST.no_decision_rate,
                           widening=widening)
    return dataset.render(spec, index)


def _cocked(seed: int, index: int) -> tuple[np.ndarray, dict[str, Any]]:
    """A frame of the first, wide or solid generator in turn, with a leaning die."""
    rng = np.random.default_rng([seed, index])
    widening = _WIDENING.get(_COCKED[index % 3])
    return dice_scene.render(rng, nz.pick(rng, _FIRST.nuisances), "cocked", widening)


def label_of(x: float, y: float, side: float, dice: list[dict[str, Any]]) -> int | None:
    """The class of a candidate at (x, y) of this side, or None (a flat die's centre seen at
    a size far from its own: not taught either way)."""
    for d in dice:
        dist = np.hypot(x - d["centre"][0], y - d["centre"][1]) / d["side"]
        if d["pose"] != "flat":
            if dist <= LEAN_NEAR:
                return LEANING
        elif dist <= NEAR:
            return int(d["value"]) if SIZE[0] <= side / d["side"] <= SIZE[1] else None
    return NOTHING


def crops(image: np.ndarray, label: dict[str, Any], rng: np.random.Generator
          ) -> Iterator[tuple[np.ndarray, int, int]]:
    """(crop, class, from a candidate 1 / jittered truth 0) for one frame."""
    dice = label["dice_px"]
    for c in candidates(image) + candidates(image, half=True):
        cls = label_of(c.x, c.y, c.side, dice)
        if cls is not None:
            yield crop(image, c.x, c.y, c.side), cls, 1
    for d in dice:
        side = d["side"] * rng.uniform(0.85, 1.18)
        x, y = np.array(d["centre"]) + rng.normal(0, 0.06, 2) * d["side"]
        cls = LEANING if d["pose"] != "flat" else int(d["value"])
        yield crop(image, float(x), float(y), side), cls, 0


def _chunk(args: tuple[str, int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    source, seed, start, stop = args
    rng = np.random.default_rng([seed, start, 7])
    xs, ys, kinds = [], [], []
    for i in range(start, stop):
        image, label = frame(source, seed, i)
        for x, y, k in crops(image, label, rng):
            xs.append(x)
            ys.append(y)
            kinds.append(k)
    return (np.array(xs, np.uint8).reshape(-1, *(xs[0].shape if xs else (0,))),
            np.array(ys, np.int8), np.array(kinds, np.int8))


def build(source: str, seed: int, n: int, jobs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    step = 50
    parts = [(source, seed, a, min(a + step, n)) for a in range(0, n, step)]
    with ProcessPoolExecutor(jobs) as pool:
        done = []
        for k, part in enumerate(pool.map(_chunk, parts)):
            done.append(part)
            print(f"{source}: {min((k + 1) * step, n)}/{n} frames", file=sys.stderr, flush=True)
    return (np.concatenate([d[0] for d in done]), np.concatenate([d[1] for d in done]),
            np.concatenate([d[2] for d in done]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="the .npz file written (x: crops, y: classes, kind, source)")
    ap.add_argument("--frames", type=int, default=3000, help="frames per source")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--validation", action="store_true",
                    help="the validation seeds (the training seeds + 1)")
    ap.add_argument("--sources", default=",".join(SHARES),
                    help=f"comma-separated, of {', '.join(SHARES)} (default: all)")
    ap.add_argument("--seed", action="append", default=[], metavar="SOURCE=SEED",
                    help="another draw of a source: its frames from this seed instead "
                         "(never an evaluation seed); repeatable")
    a = ap.parse_args(argv)
    seeds = dict(VALIDATION if a.validation else SEEDS)
    for spec in a.seed:
        source, _, seed = spec.partition("=")
        if source not in SHARES or not seed.isdigit():
            ap.error(f"--seed: {spec!r} is not SOURCE=SEED with a source of "
                     f"{', '.join(SHARES)}")
        seeds[source] = int(seed)
    names = [n for n in a.sources.split(",") if n]
    unknown = [n for n in names if n not in SHARES]
    if unknown:
        ap.error(f"--sources: unknown {', '.join(unknown)}")
    parts = [build(n, seeds[n], int(round(a.frames * SHARES[n])), a.jobs) for n in names]
    index = list(SHARES)
    np.savez_compressed(a.out, x=np.concatenate([p[0] for p in parts]),
                        y=np.concatenate([p[1] for p in parts]),
                        kind=np.concatenate([p[2] for p in parts]),
                        source=np.concatenate([np.full(len(p[1]), index.index(n), np.int8)
                                               for n, p in zip(names, parts)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

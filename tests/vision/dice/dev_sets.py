"""The dice reader without a calibration on the six development sets, rendered once to a
folder and read there in a minute: what the vision README's development figures count.

    .venv/bin/python -m tests.vision.dice.dev_sets cache DIR      # render (about 4 minutes)
    .venv/bin/python -m tests.vision.dice.dev_sets read DIR OUT.json
    .venv/bin/python -m tests.vision.dice.dev_sets diff A.json B.json
    # a rule switched off: which frames does it change?
    .venv/bin/python -m tests.vision.dice.dev_sets read DIR OFF.json --set rescue.LONELY=0
    # other development frames, as the tests render them (dice_crops.frame): set solid-786001
    .venv/bin/python -m tests.vision.dice.dev_sets cache DIR --more solid:786001:300

The sets are `casino vision eval --set` names (services/scenes/named_sets.py): the foreign
renderer's tuning region and the face classifier's validation seeds (`dev-*`); never an
evaluation set. `read` reads each frame with read_dice(image) (learned.py, judged by the
printed outline) in two processes, prints per set the frames read right of the readable
ones, the values read wrong and the no-decision frames decided, and writes every frame's
outcome, values and reason; it exits 1 when a value is read wrong. `diff` lists the frames
whose outcome or values differ between two such files. `read --set MODULE.NAME=VALUE` sets a
module constant of services/vision/dice (views, rescue, tilted, again, guard, candidates,
camera...) in each reading process first: how the tests' frames were found (a rule switched
off, the frames whose outcome changes). The reader's modules read each threshold from the
module that defines it when they use it (learned.py), so one --set changes it for every rule.
`cache --more SOURCE:SEED:N` renders N frames of a development source (dice_crops.frame, as
the tests render them) as the set SOURCE-SEED instead of the six; `read --sets` takes it.
"""
from __future__ import annotations

import argparse
import ast
import collections
import importlib
import json
import multiprocessing
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np

SETS = ("tuning", "dev-tuning", "dev-first", "dev-wide", "dev-solid", "dev-leaning")


def cache(folder: Path) -> None:
    """Each set's frames as DIR/<set>/<index:05d>.png and their labels in labels.json."""
    from services.scenes import named_sets
    for name in SETS:
        if not (folder / name / "labels.json").exists():
            write_set(folder / name, ((int(key.rsplit("_", 1)[1]), image, label) for key, image,
                                      label in named_sets.frames(name, "dice", None, jobs=2)))


def cache_more(folder: Path, spec: str) -> str:
    """N frames of dice_crops.frame(SOURCE, SEED, i) as DIR/SOURCE-SEED: the set's name.
    Their labels keep what `read` judges by (the renderer's own may hold numpy numbers)."""
    from services.scenes.dice_crops import frame
    source, seed, n = spec.split(":")

    def frames() -> Iterator[tuple[int, np.ndarray, dict[str, Any]]]:
        for index in range(int(n)):
            image, label = frame(source, int(seed), index)
            yield index, image, {k: label.get(k) for k in ("values", "no_decision", "reason")}
    write_set(folder / f"{source}-{seed}", frames())
    return f"{source}-{seed}"


def write_set(out: Path, frames: Iterable[tuple[int, np.ndarray, dict[str, Any]]]) -> None:
    """Frames (index, image, label) as OUT/<index:05d>.png and OUT/labels.json."""
    out.mkdir(parents=True, exist_ok=True)
    labels = {}
    for index, image, label in frames:
        cv2.imwrite(str(out / f"{index:05d}.png"), image)
        labels[index] = label
    (out / "labels.json").write_text(json.dumps(labels))
    print(f"{out.name}: {len(labels)} frames", file=sys.stderr, flush=True)


def parse_set(text: str) -> tuple[str, str, Any]:
    """MODULE.NAME=VALUE of services.vision.dice -> (module, name, value), checked."""
    target, sep, value = text.partition("=")
    module, _, name = target.rpartition(".")
    if not sep or not module or not name:
        raise ValueError(f"--set {text!r}: expected MODULE.NAME=VALUE")
    mod = importlib.import_module(f"services.vision.dice.{module}")
    if not hasattr(mod, name):
        raise ValueError(f"--set {text!r}: services.vision.dice.{module} has no {name}")
    return module, name, ast.literal_eval(value)


def apply_sets(sets: list[tuple[str, str, Any]]) -> None:
    for module, name, value in sets:
        setattr(importlib.import_module(f"services.vision.dice.{module}"), name, value)


def outcome(values: tuple[int, int] | None, label: dict[str, Any]) -> str:
    """ok, miss or wrong on a readable frame; nd_ok or nd_decided on a no-decision one."""
    if label["no_decision"]:
        return "nd_ok" if values is None else "nd_decided"
    if values is None:
        return "miss"
    return "ok" if sorted(values) == sorted(label["values"]) else "wrong"


def read_set(args: tuple[Path, str, list[tuple[str, str, Any]]]
             ) -> tuple[str, dict[str, list[Any]]]:
    folder, name, sets = args
    from services.vision.dice.reader import read_dice
    cv2.setNumThreads(1)
    apply_sets(sets)
    labels = json.loads((folder / name / "labels.json").read_text())
    found = {}
    for index, label in sorted(labels.items(), key=lambda kv: int(kv[0])):
        image = cv2.imread(str(folder / name / f"{int(index):05d}.png"))
        if image is None:
            raise FileNotFoundError(folder / name / f"{int(index):05d}.png")
        reading = read_dice(image)
        values = None if reading.no_decision else reading.values
        found[index] = [outcome(values, label), values, reading.reason]
    return name, found


def summary(name: str, found: dict[str, list[Any]]) -> str:
    n = collections.Counter(v[0] for v in found.values())
    readable = n["ok"] + n["miss"] + n["wrong"]
    return (f"{name:12s} read {n['ok']} of {readable}, wrong {n['wrong']}, no-decision "
            f"frames decided {n['nd_decided']} of {n['nd_ok'] + n['nd_decided']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    cached = sub.add_parser("cache", help="render the sets to DIR")
    cached.add_argument("dir", type=Path)
    cached.add_argument("--more", action="append", default=[], metavar="SOURCE:SEED:N",
                        help="N frames of a development source (dice_crops.frame) instead of "
                        "the six sets (repeatable)")
    read = sub.add_parser("read", help="read the cached sets, write every frame's outcome")
    read.add_argument("dir", type=Path)
    read.add_argument("out", type=Path)
    read.add_argument("--sets", default=",".join(SETS),
                      help="comma-separated, the six or cached --more sets (default: the six)")
    read.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                      help="set a constant of services/vision/dice first (repeatable)")
    diff = sub.add_parser("diff", help="frames whose outcome or values differ")
    diff.add_argument("a", type=Path)
    diff.add_argument("b", type=Path)
    args = ap.parse_args(argv)
    if args.command == "cache":
        if not args.more:
            cache(args.dir)
        for spec in args.more:
            cache_more(args.dir, spec)
        return 0
    if args.command == "diff":
        a, b = (json.loads(p.read_text()) for p in (args.a, args.b))
        for name in a.keys() & b.keys():
            for index, was in a[name].items():
                if was[:2] != b[name][index][:2]:
                    print(name, index, was, "->", b[name][index])
        return 0
    names = [n for n in args.sets.split(",") if n]
    unknown = {n for n in names if n not in SETS and not (args.dir / n / "labels.json").exists()}
    if unknown:
        ap.error(f"--sets: unknown {', '.join(sorted(unknown))}")
    try:
        sets = [parse_set(text) for text in args.set]
    except (ValueError, ImportError, SyntaxError) as error:
        ap.error(str(error))
    # spawned, not forked: a parent that has run the classifier (ONNX Runtime's threads)
    # may not fork safely
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        report = dict(pool.map(read_set, [(args.dir, n, sets) for n in names]))
    for name in names:
        print(summary(name, report[name]), flush=True)
    args.out.write_text(json.dumps(report))
    return 1 if any(v[0] == "wrong" for r in report.values() for v in r.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

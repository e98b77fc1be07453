"""The dice reader without a calibration on the six development sets, rendered once to a
folder and read there in a minute: what the vision README's development figures count.

    .venv/bin/python -m tests.vision.dice.dev_sets cache DIR      # render (about 4 minutes)
    .venv/bin/python -m tests.vision.dice.dev_sets read DIR OUT.json
    .venv/bin/python -m tests.vision.dice.dev_sets diff A.json B.json

The sets are `casino vision eval --set` names (services/scenes/named_sets.py): the foreign
renderer's tuning region and the face classifier's validation seeds (`dev-*`); never an
evaluation set. `read` reads each frame with read_dice(image) (learned.py, judged by the
printed outline) in two processes, prints per set the frames read right of the readable
ones, the values read wrong and the no-decision frames decided, and writes every frame's
outcome, values and reason; it exits 1 when a value is read wrong. `diff` lists the frames
whose outcome or values differ between two such files.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2

SETS = ("tuning", "dev-tuning", "dev-first", "dev-wide", "dev-solid", "dev-leaning")


def cache(folder: Path) -> None:
    """Each set's frames as DIR/<set>/<index:05d>.png and their labels in labels.json."""
    from services.scenes import named_sets
    for name in SETS:
        out = folder / name
        if (out / "labels.json").exists():
            continue
        out.mkdir(parents=True, exist_ok=True)
        labels = {}
        for key, image, label in named_sets.frames(name, "dice", None, jobs=2):
            index = int(key.rsplit("_", 1)[1])
            cv2.imwrite(str(out / f"{index:05d}.png"), image)
            labels[index] = label
        (out / "labels.json").write_text(json.dumps(labels))
        print(f"{name}: {len(labels)} frames", file=sys.stderr, flush=True)


def outcome(values: tuple[int, int] | None, label: dict[str, Any]) -> str:
    """ok, miss or wrong on a readable frame; nd_ok or nd_decided on a no-decision one."""
    if label["no_decision"]:
        return "nd_ok" if values is None else "nd_decided"
    if values is None:
        return "miss"
    return "ok" if sorted(values) == sorted(label["values"]) else "wrong"


def read_set(args: tuple[Path, str]) -> tuple[str, dict[str, list[Any]]]:
    folder, name = args
    from services.vision.dice.reader import read_dice
    cv2.setNumThreads(1)
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
    sub.add_parser("cache", help="render the sets to DIR").add_argument("dir", type=Path)
    read = sub.add_parser("read", help="read the cached sets, write every frame's outcome")
    read.add_argument("dir", type=Path)
    read.add_argument("out", type=Path)
    read.add_argument("--sets", default=",".join(SETS), help="comma-separated (default: all)")
    diff = sub.add_parser("diff", help="frames whose outcome or values differ")
    diff.add_argument("a", type=Path)
    diff.add_argument("b", type=Path)
    args = ap.parse_args(argv)
    if args.command == "cache":
        cache(args.dir)
        return 0
    if args.command == "diff":
        a, b = (json.loads(p.read_text()) for p in (args.a, args.b))
        for name in a.keys() & b.keys():
            for index, was in a[name].items():
                if was[:2] != b[name][index][:2]:
                    print(name, index, was, "->", b[name][index])
        return 0
    names = [n for n in args.sets.split(",") if n]
    unknown = set(names) - set(SETS)
    if unknown:
        ap.error(f"--sets: unknown {', '.join(sorted(unknown))}")
    # spawned, not forked: a parent that has run the classifier (ONNX Runtime's threads)
    # may not fork safely
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        report = dict(pool.map(read_set, [(args.dir, n) for n in names]))
    for name in names:
        print(summary(name, report[name]), flush=True)
    args.out.write_text(json.dumps(report))
    return 1 if any(v[0] == "wrong" for r in report.values() for v in r.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

"""A/B of the dice reader without a calibration (dice/learned.py): another commit's reader (its
services/vision/dice copied to a temporary package) against this checkout's, in one process,
on the same development frames: the readings compared frame by frame (values, no_decision,
reason, then confidence and detail; the candidates and their crops at both resolutions), and
the CPU time of one thread (cv2.setNumThreads(1), time.thread_time()), the two interleaved.

Development frames only: the foreign renderer's TUNING region with new seeds (741101 at
640x480, 741102 at 1280x720: sizes changed for speed checks only), the first generator
(741103, outside its held-out seeds), and the face classifier's validation sets of `casino
vision eval --set dev-tuning|dev-first|dev-wide|dev-leaning|dev-solid` (dice_crops.frame, seed
dice_crops.SEEDS + 1; `--cache DIR` reads them from DIR/<source>_<seed>/<index:05d>.png when
rendered there before). Never the evaluation sets.

    .venv/bin/python tests/vision/dice/ab_learned.py --ref main --frames 500 --repeat 3
    .venv/bin/python tests/vision/dice/ab_learned.py --sets dev-tuning,dev-first --cache DIR

The reference's dice package uses this checkout's services.vision.reading and stats. Exit
status 1 when a reading (values, no_decision or reason), what the classifier saw (look: each
candidate and its class; its belief and lean by more than BELIEF_TOL) or a candidate differs;
beliefs_differ counts the frames whose beliefs differ at all, belief_max_diff the largest.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[3]
SETS = {"tuning640": 741_101, "tuning1280": 741_102, "generator": 741_103}
# dice_crops's validation sets
DEV = ("dev-tuning", "dev-first", "dev-wide", "dev-leaning", "dev-solid")
# Beliefs (and leans) of two readers compared within this: two runtimes' float sums differ
# in the last bits (ONNX Runtime against OpenCV's dnn: about 1e-5 in a logit). The rest of a
# look (candidates, classes) and the readings are compared exactly.
BELIEF_TOL = 1e-4


def reference(ref: str, into: Path) -> tuple[ModuleType, ModuleType]:
    """`ref`'s learned and candidates modules, imported as package dice_ref (`compare` asks
    its learned module for `look` and `read_learned`: learned.py imports `look` from views.py
    since the split, and defined it before)."""
    pkg = into / "dice_ref"
    pkg.mkdir()
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", ref,
                            "services/vision/dice/"], check=True, capture_output=True,
                           text=True).stdout.split()
    for name in names:
        blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:{name}"], check=True,
                              capture_output=True).stdout
        if name.endswith(".py"):
            blob = re.sub(rb"services\.vision\.dice\b", b"dice_ref", blob)
        (pkg / Path(name).name).write_bytes(blob)
    sys.path.insert(0, str(into))
    return (importlib.import_module("dice_ref.learned"),
            importlib.import_module("dice_ref.candidates"))


def frames(name: str, n: int, cache: Path | None = None) -> list[np.ndarray]:
    if name in DEV:
        return dev_frames(name.removeprefix("dev-"), n, cache)
    from services.scenes import dataset
    from services.scenes.foreign import dice as fdice
    from services.scenes.foreign.sets import TUNING
    seed = SETS[name]
    if name == "generator":
        spec = dataset.SetSpec("dice", n, seed)
        assert seed not in dataset.RESERVED_SEEDS
        return [dataset.render(spec, i)[0] for i in range(n)]
    params = TUNING.dice if name == "tuning640" else \
        dataclasses.replace(TUNING.dice, sizes=((1280, 720),))
    return [fdice.render(np.random.default_rng([seed, i]), params)[0] for i in range(n)]


def dev_frames(source: str, n: int, cache: Path | None) -> list[np.ndarray]:
    """The first n frames of a validation set of the face classifier (cached, or rendered)."""
    from services.scenes import dice_crops
    seed = dice_crops.VALIDATION[source]
    out = []
    for i in range(n):
        path = cache / f"{source}_{seed}" / f"{i:05d}.png" if cache else None
        image = cv2.imread(str(path)) if path is not None and path.exists() else None
        out.append(image if image is not None else dice_crops.frame(source, seed, i)[0])
    return out


def compare(a: ModuleType, ac: ModuleType, b: ModuleType, bc: ModuleType,
            images: list[np.ndarray]) -> dict[str, Any]:
    out: dict[str, Any] = {"frames": len(images), "readings_differ": [], "detail_differs": [],
                           "seen_differ": [], "beliefs_differ": 0, "belief_max_diff": 0.0,
                           "candidates_differ": [], "candidates": 0}
    for i, image in enumerate(images):
        sa, sb = a.look(image), b.look(image)
        if [(dataclasses.astuple(s.candidate), s.value) for s in sa] != \
                [(dataclasses.astuple(s.candidate), s.value) for s in sb]:
            out["seen_differ"].append(i)
        else:
            diff = max((abs(p - q) for s, t in zip(sa, sb, strict=True)
                        for p, q in ((s.belief, t.belief), (s.lean, t.lean))), default=0.0)
            out["beliefs_differ"] += diff > 0
            out["belief_max_diff"] = max(out["belief_max_diff"], diff)
            if diff > BELIEF_TOL:
                out["seen_differ"].append(i)
        ra, rb = a.read_learned(image), b.read_learned(image)
        if (ra.values, ra.no_decision, ra.reason) != (rb.values, rb.no_decision, rb.reason):
            out["readings_differ"].append(i)
        elif not _close((ra.confidence, ra.detail), (rb.confidence, rb.detail)):
            out["detail_differs"].append(i)
        for half in (False, True):
            ca, cb = ac.candidates(image, half=half), bc.candidates(image, half=half)
            out["candidates"] += len(ca)
            if [dataclasses.astuple(c) for c in ca] != [dataclasses.astuple(c) for c in cb] or \
                    any(not np.array_equal(ac.crop(image, c.x, c.y, c.side),
                                           bc.crop(image, c.x, c.y, c.side)) for c in ca):
                out["candidates_differ"].append(i)
    return out


def _close(a: Any, b: Any) -> bool:
    """Equal, floats within BELIEF_TOL (a detail's beliefs, rounded to 0.001, within that
    step more)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(
            abs(a[k] - b[k]) <= BELIEF_TOL + 0.001 if k == "belief" else _close(a[k], b[k])
            for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= BELIEF_TOL
    return bool(a == b)


def second_look(b: ModuleType, bc: ModuleType, image: np.ndarray) -> bool:
    """Does this checkout's reader look at the frame twice (views.look)?"""
    from services.vision.dice import views  # this checkout's: `b` is its learned module
    first = views._look(image, bc.candidates(image, cores=False))
    return not (len(views._dice(views._sure(first))) >= 2 or
                any(s.lean >= views.LEAN_P for s in first))


def timing(a: ModuleType, b: ModuleType, bc: ModuleType, images: list[np.ndarray],
           repeat: int) -> dict[str, Any]:
    """Mean CPU ms per frame of each reader; per frame size when the set has several, and
    for the frames read in one look and those looked at twice."""
    ms: dict[str, list[float]] = {"before": [], "now": []}
    sizes, kinds = [], []
    twice = [second_look(b, bc, image) for image in images]
    a.read_learned(images[0])
    b.read_learned(images[0])
    for i, image in enumerate(images):
        order = (("before", a), ("now", b)) if i % 2 == 0 else (("now", b), ("before", a))
        for _ in range(repeat):
            sizes.append(f"{image.shape[1]}x{image.shape[0]}")
            kinds.append("two looks" if twice[i] else "one look")
            for name, reader in order:
                t = time.thread_time()
                reader.read_learned(image)
                ms[name].append((time.thread_time() - t) * 1000)
    out: dict[str, Any] = _ratio(ms["before"], ms["now"])
    for split in (sizes, kinds):
        for part in sorted(set(split)) if len(set(split)) > 1 else []:
            pick = [k for k, s in enumerate(split) if s == part]
            out[part] = {"frames": len(pick) // repeat,
                         **_ratio([ms["before"][k] for k in pick], [ms["now"][k] for k in pick])}
    return out


def _ratio(before_ms: list[float], now_ms: list[float]) -> dict[str, Any]:
    before, now = float(np.mean(before_ms)), float(np.mean(now_ms))
    return {"before_ms": round(before, 2), "now_ms": round(now, 2),
            "before_fps": round(1000 / before), "now_fps": round(1000 / now),
            "ratio": round(before / now, 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", default="main", help="the commit to compare with (default main)")
    ap.add_argument("--sets", default="tuning640,generator,tuning1280",
                    help=f"comma-separated, of {', '.join([*SETS, *DEV])}")
    ap.add_argument("--cache", type=Path, help="rendered development frames (dev-* sets)")
    ap.add_argument("--frames", type=int, default=300, help="frames per set")
    ap.add_argument("--repeat", type=int, default=3, help="readings per frame and reader")
    ap.add_argument("--no-timing", action="store_true", help="compare only")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from services.vision.dice import candidates as bc
    from services.vision.dice import learned as b
    from services.vision.memory import keep_frame_buffers
    cv2.setNumThreads(1)
    keep_frame_buffers()
    report: dict[str, Any] = {"ref": args.ref}
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        a, ac = reference(args.ref, Path(tmp))
        for name in args.sets.split(","):
            images = frames(name, args.frames, args.cache)
            found = compare(a, ac, b, bc, images)
            if not args.no_timing:
                found["timing"] = timing(a, b, bc, images, args.repeat)
            report[name] = found
            failed |= bool(found["readings_differ"] or found["candidates_differ"] or
                           found["seen_differ"])
            if not args.json:
                print(name, json.dumps(found), flush=True)
    if args.json:
        print(json.dumps(report))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

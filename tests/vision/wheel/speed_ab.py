"""Old reader against this one, in one process: readings as good? how much faster?

    .venv/bin/python -m tests.vision.wheel.speed_ab --base /work/main [--reps 2] [--json]
                                                    [--exact] [--cache DIR]

`--base`: a checkout of the other version (its `services/vision/wheel` is copied to a
temporary package and imported beside this one). Development frames only (never the
foreign set's seeds 700001-700002 nor the held-out 900000-900999): the foreign renderer's
tuning region (seed 742101 x 400), the first generator's widened recipe (tilt <= 25
degrees, 2.5-9 rotor radii, European or American: seed 742201 x 330) and its labelled-set
recipe (seed 742301 x 270, European and American alternately), rendered once into
`--cache` with their labels; every 4th frame also scaled 1.5x and padded to 1280x720
(1,250 frames). Each frame is read by both readers alternately (which one goes first
alternates too), `--reps` times each, CPU time of this thread with cv2.setNumThreads(1),
the smallest kept; both readers are scored against the labels (readable frames read right,
wrong, missed; no-decision frames decided, and given their labelled reason: caches made
before the reasons were stored count none). Exit status 1 when the new reader gives a wrong
pocket or decides a no-decision frame where the old one did not (with `--exact`: when any
pocket, no-decision flag or reason differs). Not collected by pytest (a tool, ~1.5 minutes
per 1,000 frames and rep).

`--named dev-wheel,dev-wheel-std`: the frames of those named wheel sets
(services/scenes/named_sets.py) instead, rendered in this process (not cached).
"""
from __future__ import annotations

import argparse
import importlib
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

SETS = (("foreign", 742_101, 400), ("wide", 742_201, 330), ("std", 742_301, 270))


def _render(part: str, seed: int, i: int) -> tuple[np.ndarray, str, str | None, str | None]:
    from services.scenes import nuisances as nz
    from services.scenes.foreign import wheel as foreign
    from services.scenes.foreign.sets import TUNING
    from services.scenes.wheel.scene import render_wheel_scene

    rng = np.random.default_rng([seed, i])
    if part == "foreign":
        image, label = foreign.render(rng, TUNING.wheel)
        return image, str(label["variant"]), label["pocket"], label["reason"]
    if part == "wide":
        names = [x for x in nz.NUISANCES if rng.random() < 0.5]
        variant = "american" if rng.random() < 0.5 else "european"
        image, lab = render_wheel_scene(rng, variant, nuisances=names, pocket_rate=0.6,
                                        tilt_max=25, dist_min=2.5)
        return image, variant, lab.pocket, lab.reason
    variant = "american" if i % 2 else "european"
    image, lab = render_wheel_scene(rng, variant, nuisances=nz.pick(rng, nz.NUISANCES),
                                    pocket_rate=0.6)
    return image, variant, lab.pocket, lab.reason


# name, image, variant, labelled pocket, labelled no-decision reason
Frame = tuple[str, np.ndarray, str, "str | None", "str | None"]


def frames(cache: Path) -> list[Frame]:
    """The development frames (rendered into `cache` the first time), then the 1280x720 ones."""
    cache.mkdir(parents=True, exist_ok=True)
    out = []
    for part, seed, n in SETS:
        manifest = cache / f"{part}.json"
        if not manifest.exists():
            rows = []
            for i in range(n):
                image, variant, pocket, reason = _render(part, seed, i)
                name = f"{part}_{i:04d}.png"
                if not cv2.imwrite(str(cache / name), image):
                    raise OSError(f"cannot write {cache / name}")
                rows.append({"file": name, "variant": variant,
                             "pocket": None if pocket is None else str(pocket),
                             "reason": reason})
            manifest.write_text(json.dumps(rows))
        for row in json.loads(manifest.read_text()):
            loaded = cv2.imread(str(cache / row["file"]))
            if loaded is None:
                raise OSError(f"cannot read {cache / row['file']}")
            out.append((row["file"], np.asarray(loaded), row["variant"], row["pocket"],
                        row.get("reason")))
    for name, image, variant, pocket, reason in list(out[::4]):
        big = cv2.resize(image, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
        canvas = np.full((720, 1280, 3), (40, 70, 30), np.uint8)
        canvas[:, 160:1120] = big[:720]
        out.append(("1280x720_" + name, np.asarray(canvas), variant, pocket, reason))
    return out


def named_frames(names: list[str]) -> list[Frame]:
    """The frames of named wheel sets (`casino vision eval --set NAME`), with their labels."""
    from services.scenes import named_sets
    out = []
    for name in names:
        for file, image, label in named_sets.frames(name, "wheel", jobs=1):
            pocket = label.get("pocket")
            out.append((file, image, str(label["variant"]),
                        None if pocket is None else str(pocket), label.get("reason")))
    return out


def base_reader(base: Path, into: Path):
    """`read_wheel` of the checkout at `base`, imported as the package `wheel_base`."""
    pkg = into / "wheel_base"
    shutil.copytree(base / "services" / "vision" / "wheel", pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path in pkg.glob("*.py"):
        path.write_text(re.sub(r"services\.vision\.wheel\b", "wheel_base", path.read_text()))
    sys.path.insert(0, str(into))
    return importlib.import_module("wheel_base").read_wheel


def _tally(counts: dict, truth: str | None, reading) -> str:
    """One reading against its label: right / wrong / missed (readable frames), or
    decided / refused (no-decision frames)."""
    if truth is None:
        kind = "refused" if reading.no_decision else "decided"
    elif reading.no_decision:
        kind = "missed"
    else:
        kind = "right" if str(reading.pocket) == truth else "wrong"
    counts[kind] += 1
    return kind


def _accuracy(truths: list, kinds: list[str]) -> dict:
    return {"readable": sum(t is not None for t in truths),
            "no_decision_frames": sum(t is None for t in truths),
            **{k: kinds.count(k) for k in ("right", "wrong", "missed", "decided", "refused")}}


def compare(items, old, new, reps: int) -> dict:
    diffs, worst, t_old, t_new, widths = [], 0.0, [], [], []
    truths: list = []
    kinds: dict[int, list[str]] = {0: [], 1: []}
    worse = []  # a new wrong pocket or a new decision on a no-decision frame: not allowed
    reasons_right = {0: 0, 1: 0}  # no-decision frames given their labelled reason
    for i, (name, image, variant, truth, why) in enumerate(items):
        times: dict[int, list[float]] = {0: [], 1: []}
        got = {}
        for r in range(reps):
            for which in ((0, 1) if (i + r) % 2 == 0 else (1, 0)):
                t = time.thread_time()
                got[which] = (old, new)[which](image, variant)
                times[which].append((time.thread_time() - t) * 1000)
        a, b = got[0], got[1]
        truths.append(truth)
        for which in (0, 1):
            kinds[which].append(_tally({"right": 0, "wrong": 0, "missed": 0, "decided": 0,
                                        "refused": 0}, truth, got[which]))
        for which in (0, 1):
            reasons_right[which] += truth is None and got[which].reason == why
        if kinds[1][-1] in ("wrong", "decided") and kinds[0][-1] != kinds[1][-1]:
            worse.append(name)
        t_old.append(min(times[0]))
        t_new.append(min(times[1]))
        widths.append(image.shape[1])
        if (a.pocket, a.no_decision, a.reason) != (b.pocket, b.no_decision, b.reason):
            diffs.append({"frame": name, "label": truth, "base": [a.pocket, a.reason],
                          "new": [b.pocket, b.reason]})
        for k in set(a.scores) | set(b.scores):
            x, y = a.scores.get(k, np.inf), b.scores.get(k, np.inf)
            if x != y:
                worst = max(worst, abs(x - y) if np.isfinite(x - y) else np.inf)
    report: dict = {"frames": len(items), "readings_differing": diffs,
                    "max_score_difference": worst, "sizes": {},
                    "accuracy": {"base": {**_accuracy(truths, kinds[0]),
                                          "reason_as_labelled": reasons_right[0]},
                                 "new": {**_accuracy(truths, kinds[1]),
                                         "reason_as_labelled": reasons_right[1]}},
                    "worse": worse}
    w, o, n = np.array(widths), np.array(t_old), np.array(t_new)
    for width in sorted(set(widths)):
        m = w == width
        report["sizes"][str(width)] = {
            "frames": int(m.sum()), "base_mean_ms": float(o[m].mean()),
            "new_mean_ms": float(n[m].mean()), "base_median_ms": float(np.median(o[m])),
            "new_median_ms": float(np.median(n[m])), "ratio": float(n[m].mean() / o[m].mean())}
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="checkout of the other version")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "wheel_ab",
                    help="where the development frames are rendered once")
    ap.add_argument("--reps", type=int, default=1, help="readings per frame and reader")
    ap.add_argument("--json", action="store_true", help="the report as JSON")
    ap.add_argument("--exact", action="store_true",
                    help="fail when any reading differs (not only when one is worse)")
    ap.add_argument("--named", help="comma list of named wheel sets (e.g. dev-wheel) to "
                                    "read instead of the development frames")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps: must be >= 1")
    cv2.setNumThreads(1)
    from services.vision.wheel import read_wheel

    with tempfile.TemporaryDirectory() as tmp:
        items = named_frames(args.named.split(",")) if args.named else frames(args.cache)
        report = compare(items, base_reader(args.base, Path(tmp)), read_wheel, args.reps)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{report['frames']} frames; readings differing: "
              f"{len(report['readings_differing'])}; largest score difference "
              f"{report['max_score_difference']:.3g}")
        for d in report["readings_differing"]:
            print(f"  {d['frame']}: label {d['label']}, base {d['base']} -> new {d['new']}")
        for who, acc in report["accuracy"].items():
            print(f"{who}: readable {acc['right']} right, {acc['wrong']} wrong, "
                  f"{acc['missed']} missed of {acc['readable']}; no-decision frames "
                  f"{acc['decided']} decided of {acc['no_decision_frames']}, "
                  f"{acc['reason_as_labelled']} given the labelled reason")
        print(f"worse (new wrong pocket or new decision on a no-decision frame): "
              f"{report['worse'] or 'none'}")
        for width, s in report["sizes"].items():
            print(f"width {width}: {s['frames']} frames, base mean {s['base_mean_ms']:.2f} ms "
                  f"({1000 / s['base_mean_ms']:.0f} frames/s), new {s['new_mean_ms']:.2f} ms "
                  f"({1000 / s['new_mean_ms']:.0f} frames/s), ratio {s['ratio']:.3f}")
    return 1 if report["worse"] or (args.exact and report["readings_differing"]) else 0


if __name__ == "__main__":
    sys.exit(main())

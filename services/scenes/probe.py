"""Tuning probe for the wheel reader: accuracy and speed on frames from tuning seeds.

    .venv/bin/python -m services.scenes.probe --n 400 --seed 31337 --variant european

Frames are rendered exactly as the labelled sets are (services/scenes/dataset.py: each
frame draws half of all nuisances, 30 % no-decision frames) but from a seed of your choice;
the held-out seeds (dataset.RESERVED_SEEDS) are refused, so tuning never sees the set the
targets are measured on. Prints the evaluation tables (services/vision/evaluate.py) and the
CPU time per settled frame with OpenCV on one thread (frames per second per core).
"""
from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from services.scenes import dataset as D
from services.vision import evaluate as E
from services.vision.wheel.reader import read_wheel


def probe(n: int, seed: int, variant: str) -> str:
    if seed in D.RESERVED_SEEDS:
        raise ValueError(f"seed: {seed} is reserved for the held-out set")
    spec = D.SetSpec("wheel", n, seed, D.nz.NUISANCES, 0.3, variant)
    cv2.setNumThreads(1)
    items, cpu = [], []
    for i in range(n):
        image, label = D.render(spec, i)
        items.append((f"wheel_{i:05d}", image, label))
        if not label["no_decision"]:
            start = time.process_time()
            read_wheel(image, variant)
            cpu.append(time.process_time() - start)
    report = E.score(E.run(items, lambda image, label: read_wheel(image, variant)))
    ms = 1000 * np.array(cpu) if cpu else np.full(1, np.nan)
    p50, p95, p99 = np.percentile(ms, [50, 95, 99])
    return (f"{n} frames, seed {seed}, {variant}\n\n{E.markdown(report)}\n\n"
            f"settled frames: {ms.mean():.2f} ms CPU per frame on one thread = "
            f"{1000 / ms.mean():.0f} frames/s per core (p50 {p50:.2f}, p95 {p95:.2f}, "
            f"p99 {p99:.2f} ms)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=31337)
    ap.add_argument("--variant", default="european")
    args = ap.parse_args()
    print(probe(args.n, args.seed, args.variant))


if __name__ == "__main__":
    main()

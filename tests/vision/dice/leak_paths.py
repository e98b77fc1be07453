"""How the dice reader without a calibration decided no-decision frames (a leaning die read as
a roll, a die off the area): for each such frame of development seeds (read_dice(image), the
printed outline judging the area), the way it was decided, the frame's true reason and what
the classifier saw of the leaning die. Development frames only (services/scenes/dice_crops.frame
refuses the evaluation seeds).

    .venv/bin/python -m tests.vision.dice.leak_paths leaning:892001:600 leaning:893001:600
    .venv/bin/python -m tests.vision.dice.leak_paths --json leaning:913001:100

The ways (`path`): `first` (both dice read sure at the first decision), `again` (by a look
again at FACE_P: again.AGAIN), `camera` (rescued or `_inside`: the detail's `one_camera`
is the pair's misfit) and `tilted` (both seen leaning, `_tilted`). Exit status 0; the
summary counts the frames decided by way.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from typing import Any

import cv2
import numpy as np

from services.scenes.dice_crops import frame
from services.vision.dice import classifier, views
from services.vision.dice.reader import read_dice


def path(image: np.ndarray, detail: dict[str, Any]) -> str:
    """The way a decided frame was decided (see the module's docstring)."""
    if detail.get("tilted"):
        return "tilted"
    if "one_camera" in detail:
        return "camera"
    return "again" if views.decide(views.look(image)).no_decision else "first"


def leaning_view(image: np.ndarray, label: dict[str, Any]) -> dict[str, Any] | None:
    """The classifier's likeliest face or lean within half a side of the leaning die."""
    die = next((d for d in label["dice_px"] if d.get("pose") not in (None, "flat")), None)
    if die is None:
        return None
    (x, y), side = die["centre"], float(die["side"])   # dice_crops.frame labels every side
    near = [s for s in views.look(image) if 1 <= s.value <= classifier.LEANING
            and np.hypot(s.candidate.x - x, s.candidate.y - y) < 0.5 * side]
    if not near:
        return None
    s = max(near, key=lambda s: s.belief)
    return {"value": s.value, "belief": round(s.belief, 3), "lean": round(s.lean, 3)}


def leaks(source: str, seed: int, n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        image, label = frame(source, seed, i)
        if not label["no_decision"]:
            continue
        reading = read_dice(image)     # no calibration: learned.py, then the area judge
        if reading.no_decision:
            continue
        out.append({"frame": f"{source}:{seed}:{i}", "reason": label.get("reason"),
                    "values": list(reading.values or ()),
                    "path": path(image, reading.detail),
                    "misfit": reading.detail.get("one_camera"),
                    "leaning_die": leaning_view(image, label)})
        print(json.dumps(out[-1]), file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="SOURCE:SEED:FRAMES (dice_crops sources)")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    found, frames = [], 0
    for spec in a.sets:
        source, seed, n = spec.split(":")
        found += leaks(source, int(seed), int(n))
        frames += int(n)
    by_path = collections.Counter(f"{f['path']} ({f['reason']})" for f in found)
    if a.json:
        print(json.dumps({"frames": frames, "decided": len(found), "by_path": by_path,
                          "leaks": found}))
    else:
        print(f"{len(found)} no-decision frames decided of {frames} frames: "
              + ", ".join(f"{k} {v}" for k, v in by_path.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

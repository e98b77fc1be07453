"""Score another commit's dice reader without a calibration and this checkout's against the
labels of development frames (services/scenes/dice_crops.frame: it refuses the evaluation
seeds), both judged by this checkout's printed outline (outline.judge_area): read, missed,
wrong, and no-decision frames decided, with the frames that differ. For fresh seeds, never
used to choose a rule, as the README's "measured together" table.

    .venv/bin/python -m tests.vision.dice.score_ab --ref b81c19a tuning:744001:400 \\
        first:754001:300 wide:774001:300 leaning:764001:200

Exit status 1 when this checkout reads a value wrong.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2

from tests.vision.dice.ab_learned import ROOT, reference


def outcome(reading: Any, label: dict[str, Any]) -> str:
    """ok, miss or wrong on a readable frame; nd_ok or nd_decided on a no-decision frame."""
    if label["no_decision"]:
        return "nd_ok" if reading.no_decision else "nd_decided"
    if reading.no_decision:
        return "miss"
    return "ok" if sorted(reading.values) == sorted(label["values"]) else "wrong"


def score(readers: dict[str, ModuleType], source: str, seed: int, n: int) -> dict[str, Any]:
    from services.scenes.dice_crops import frame
    from services.vision.dice.outline import judge_area
    counts: dict[str, collections.Counter[str]] = {name: collections.Counter()
                                                  for name in readers}
    notable: list[dict[str, Any]] = []
    for i in range(n):
        image, label = frame(source, seed, i)
        seen = {}
        for name, reader in readers.items():
            reading = judge_area(image, reader.read_learned(image))
            kind = outcome(reading, label)
            counts[name][kind] += 1
            seen[name] = (kind, reading.values, reading.reason)
        if len({v for v in seen.values()}) > 1 or any(k in ("wrong", "nd_decided")
                                                      for k, _, _ in seen.values()):
            notable.append({"frame": i, "label": label.get("values") or label.get("reason"),
                            **{name: list(v) for name, v in seen.items()}})
    return {"set": f"{source}:{seed}:{n}", **{name: dict(sorted(c.items()))
                                               for name, c in counts.items()},
            "frames": notable}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="SOURCE:SEED:N (source of dice_crops.frame: "
                    "tuning, leaning, first, wide, solid)")
    ap.add_argument("--ref", default="main", help="the commit to compare with (default main)")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from services.vision.dice import learned
    cv2.setNumThreads(1)
    report: dict[str, Any] = {"ref": args.ref, "sets": []}
    with tempfile.TemporaryDirectory() as tmp:
        old, _ = reference(args.ref, Path(tmp))
        for spec in args.sets:
            source, seed, n = spec.split(":")
            found = score({"ref": old, "now": learned}, source, int(seed), int(n))
            report["sets"].append(found)
            if not args.json:
                print(found["set"], "ref", found["ref"], "now", found["now"], flush=True)
                for f in found["frames"]:
                    print("   ", f, flush=True)
    if args.json:
        print(json.dumps(report))
    return 1 if any(s["now"].get("wrong") for s in report["sets"]) else 0


if __name__ == "__main__":
    sys.exit(main())

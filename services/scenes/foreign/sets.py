"""The foreign renderer's two parameter regions and its labelled sets.

*Tuning* (`TUNING`): the only region a reader may be developed on. Kept out of it, whole:
- dice: 1280x720 frames; dice under 40 px or over 75 px; camera tilt over 15 degrees; lens
  distortion k1 over 0.1; the styles blue_translucent, white_red_pips and white_blue_pips;
  the cloths navy, teal and dark_green;
- wheel: 1280x720 frames; tilt over 12 degrees; k1 over 0.1; the styles maple, steel_plain and
  mahogany.
*Foreign* (`FOREIGN`): the evaluation set, drawn from the whole parameter space (dice.py,
wheel.py defaults), so most of its frames have at least one condition never tuned on; its
seeds (`FOREIGN_SEEDS`) are never used while tuning. Frame i of a set is rendered from
`default_rng([seed, i])` alone.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from services.scenes.foreign import dice, wheel

FOREIGN_SEEDS = {"dice": 700_001, "wheel": 700_002}
TUNING_SEEDS = {"dice": 710_001, "wheel": 710_002}


@dataclass(frozen=True)
class Region:
    name: str
    dice: dice.DiceParams
    wheel: wheel.WheelParams
    seeds: dict[str, int]


TUNING = Region(
    "tuning",
    dice.DiceParams(sizes=((640, 480),), die_px=(40.0, 75.0), tilt=(0.0, 15.0), k1=(0.0, 0.1),
                    styles=("red_translucent", "green_translucent", "black",
                            "white_black_pips"), felts=("green", "blue")),
    wheel.WheelParams(sizes=((640, 480),), tilt=(0.0, 12.0), k1=(0.0, 0.1),
                      styles=("walnut", "black_lacquer")),
    TUNING_SEEDS)
FOREIGN = Region("foreign", dice.DiceParams(), wheel.WheelParams(), FOREIGN_SEEDS)
REGIONS = {r.name: r for r in (TUNING, FOREIGN)}
SIZES = {"dice": 500, "wheel": 500}  # frames per kind in a set, unless told


def render(region: Region, kind: str, index: int) -> tuple[np.ndarray, dict[str, Any]]:
    rng = np.random.default_rng([region.seeds[kind], index])
    if kind == "dice":
        return dice.render(rng, region.dice)
    return wheel.render(rng, region.wheel)


def frames(region: Region, kind: str, n: int | None = None
           ) -> Iterator[tuple[str, np.ndarray, dict[str, Any]]]:
    for i in range(SIZES[kind] if n is None else n):
        image, label = render(region, kind, i)
        yield f"{region.name}_{kind}_{i:05d}", image, label


def write(out_dir: str, region: Region, kind: str, n: int | None = None) -> str:
    """The set as PNG files plus a manifest `casino vision eval SET_DIR` reads."""
    import json
    from pathlib import Path

    import cv2

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, image, label in frames(region, kind, n):
        if not cv2.imwrite(str(out / f"{name}.png"), image):
            raise OSError(f"cannot write {out / name}.png")
        rows.append({"file": f"{name}.png", **label})
    path = out / "manifest.json"
    path.write_text(json.dumps({"generator": "services.scenes.foreign/1", "kind": kind,
                                "region": region.name, "seed": region.seeds[kind],
                                "frames": rows}, indent=1) + "\n")
    return str(path)

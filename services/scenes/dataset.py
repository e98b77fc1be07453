"""Labelled synthetic sets: deterministic frames from (seed, index), a JSON manifest per set.

Frame i of a set is rendered from `np.random.default_rng([seed, i])` alone, so any frame can
be regenerated without the others. The held-out evaluation sets use RESERVED seeds that
tuning must never use (`casino vision synth` refuses them without --heldout), and the pixel
hashes of the dice held-out frames are committed (tests/vision/data/heldout_dice.json): a
test fails if a renderer or nuisance change silently alters the set the targets are
measured on. Regenerate that file only on purpose:
    .venv/bin/python -m services.scenes.dataset > tests/vision/data/heldout_dice.json
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from services.scenes import nuisances as nz
from services.scenes.dice import scene as dice_scene

KINDS = ("dice", "wheel")
RESERVED_SEEDS = range(900_000, 901_000)
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class SetSpec:
    kind: str
    n: int
    seed: int
    nuisances: tuple[str, ...] = nz.NUISANCES   # the pool; each frame draws half of them
    no_decision_rate: float = 0.2
    variant: str = "european"                   # wheel only
    # dice only: colours, zoom and sizes beyond the held-out camera's (training, never held out)
    widening: dice_scene.Widening | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind: {self.kind!r} not one of {KINDS}")
        if self.n < 0:
            raise ValueError("n: must be >= 0")
        if not 0.0 <= self.no_decision_rate <= 1.0:
            raise ValueError("no_decision_rate: must be within 0..1")
        nz.check(self.nuisances)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n, "seed": self.seed,
                "nuisances": list(self.nuisances), "no_decision_rate": self.no_decision_rate,
                "variant": self.variant}


HELDOUT = {
    "dice": SetSpec("dice", 1000, 900_001, nz.NUISANCES, 0.25),
    "wheel": SetSpec("wheel", 600, 900_002, nz.NUISANCES, 0.3),
}


def render(spec: SetSpec, index: int) -> tuple[np.ndarray, dict[str, Any]]:
    """Frame `index` of the set and its label (JSON-ready)."""
    rng = np.random.default_rng([spec.seed, index])
    names = nz.pick(rng, spec.nuisances)
    if spec.kind == "dice":
        reason = None
        if rng.random() < spec.no_decision_rate:
            reason = str(rng.choice(dice_scene.NO_DECISION_REASONS))
        return dice_scene.render(rng, names, reason, spec.widening)
    return _render_wheel(rng, spec, names)


def _render_wheel(rng: np.random.Generator, spec: SetSpec,
                  names: list[str]) -> tuple[np.ndarray, dict[str, Any]]:
    # The wheel developer's renderer (services/scenes/wheel); imported late so dice
    # work never depends on it.
    from services.scenes.wheel.scene import render_wheel_scene
    image, label = render_wheel_scene(rng, spec.variant, nuisances=names,
                                      pocket_rate=1.0 - spec.no_decision_rate)
    out = label.to_dict()
    out.update(kind="wheel", nuisances=list(names))
    return image, out


def generate(spec: SetSpec) -> Iterator[tuple[int, np.ndarray, dict[str, Any]]]:
    for i in range(spec.n):
        image, label = render(spec, i)
        yield i, image, label


def pixel_sha256(image: np.ndarray) -> str:
    """Hash of the pixels (not of a PNG, whose bytes depend on the zlib build)."""
    h = hashlib.sha256(f"{image.shape}|{image.dtype}|".encode())
    h.update(np.ascontiguousarray(image).tobytes())
    return h.hexdigest()


def write_set(out_dir: str | Path, spec: SetSpec,
              progress: Callable[[int], None] = lambda _: None) -> Path:
    """Render the set as PNG files plus manifest.json; returns the manifest path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    frames = []
    for i, image, label in generate(spec):
        name = f"{spec.kind}_{i:05d}.png"
        if not cv2.imwrite(str(out / name), image):
            raise OSError(f"cannot write {out / name}")
        frames.append({"file": name, "index": i, "sha256": pixel_sha256(image), **label})
        progress(1)
    # The generator's id: its module's path before it moved to services/scenes/, kept so that
    # the manifests are the same as before the move.
    manifest = {"generator": "services.vision.synth.dataset/1", **spec.to_json(),
                "frames": frames}
    path = out / MANIFEST
    path.write_text(json.dumps(manifest, indent=1) + "\n")
    return path


def load_set(set_dir: str | Path) -> dict[str, Any]:
    path = Path(set_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"set_dir: cannot read {path}: {exc}") from None
    if manifest.get("kind") not in KINDS or not isinstance(manifest.get("frames"), list):
        raise ValueError(f"set_dir: {path} is not a labelled set manifest")
    return manifest


def heldout_hashes(kind: str = "dice", indices: Sequence[int] | None = None) -> list[str]:
    spec = HELDOUT[kind]
    return [pixel_sha256(render(spec, i)[0]) for i in (indices or range(spec.n))]


if __name__ == "__main__":
    spec = HELDOUT["dice"]
    json.dump({**spec.to_json(), "sha256": heldout_hashes("dice")}, sys.stdout, indent=0)
    sys.stdout.write("\n")

"""The named evaluation sets of `casino vision eval --set NAME`, rendered on demand.

- `foreign`: the second renderer's evaluation set (services/scenes/foreign/sets.py);
- `tuning`: the second renderer's tuning region (the only one a reader is developed on);
- `heldout`: the first generator's held-out sets (dataset.HELDOUT; the wheel's continued to
  1000 frames, as the benchmark reads it);
- `dev-tuning`, `dev-first`, `dev-wide`, `dev-leaning`, `dev-solid` (dice only): the
  validation seeds of the face classifier's training sources (dice_crops.py: the seed after
  each training seed), where the vision README's development figures are measured;
- `dev-wheel` (wheel only): the first generator widened toward other cameras (half
  American, every style, tilt up to 30 degrees, cameras 2.5-9 rotor radii away, rotors of
  90-300 px, a third of the frames 1280x720), development seeds 795001; `dev-wheel-std`:
  its labelled sets' recipe (European, tilt <= 14 degrees) at seed 795101. Each wheel label
  has `conditions` (size, the tilt and rotor radius seen) for breakdowns.
Frames are rendered by `jobs` processes (rendering costs far more than reading).
"""
from __future__ import annotations

import dataclasses
import multiprocessing
from collections.abc import Generator
from typing import Any

import numpy as np

from services.scenes import dataset as D
from services.scenes.foreign import sets as F

HELDOUT_N = {"dice": 1000, "wheel": 1000}
DEV = {"dev-tuning": ("tuning", 300), "dev-first": ("first", 300), "dev-wide": ("wide", 300),
       "dev-leaning": ("leaning", 150),
       "dev-solid": ("solid", 300)}  # name -> (dice_crops source, frames)
WHEEL_DEV = {"dev-wheel": (795_001, 400), "dev-wheel-std": (795_101, 200)}  # seed, frames
NAMES = ("foreign", "heldout", "tuning", *DEV, *WHEEL_DEV)

Item = tuple[str, np.ndarray, dict[str, Any]]


def size(name: str, kind: str, n: int | None) -> int:
    if n is not None:
        return n
    if name in DEV:
        return DEV[name][1]
    if name in WHEEL_DEV:
        return WHEEL_DEV[name][1]
    return HELDOUT_N[kind] if name == "heldout" else F.SIZES[kind]


def render(args: tuple[str, str, int]) -> Item:
    name, kind, i = args
    if name in DEV:
        from services.scenes import dice_crops
        source = DEV[name][0]
        image, label = dice_crops.frame(source, dice_crops.VALIDATION[source], i)
        return f"{name}_{kind}_{i:05d}", image, label
    if name in WHEEL_DEV:
        image, label = wheel_dev_frame(name, i)
        return f"{name}_{kind}_{i:05d}", image, label
    if name == "heldout":
        spec = dataclasses.replace(D.HELDOUT[kind], n=HELDOUT_N[kind])
        image, label = D.render(spec, i)
        return f"heldout_{kind}_{i:05d}", image, label
    image, label = F.render(F.REGIONS[name], kind, i)
    return f"{name}_{kind}_{i:05d}", image, label


def kinds(name: str) -> tuple[str, ...]:
    """The readers a set has frames for."""
    return ("dice",) if name in DEV else ("wheel",) if name in WHEEL_DEV else ("dice", "wheel")


def frames(name: str, kind: str, n: int | None = None, jobs: int = 2
           ) -> Generator[Item, None, None]:
    """The set's frames in order."""
    if name not in NAMES:
        raise ValueError(f"set: unknown {name!r}")
    if kind not in kinds(name):
        raise ValueError(f"set: {name!r} has {kinds(name)[0]} frames only")
    work = [(name, kind, i) for i in range(size(name, kind, n))]
    if jobs <= 1:
        yield from map(render, work)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(render, work, chunksize=4)


def wheel_dev_frame(name: str, i: int) -> tuple[np.ndarray, dict[str, Any]]:
    """Frame `i` of a wheel development set and its label (JSON-ready)."""
    from services.scenes import nuisances as nz
    seed = WHEEL_DEV[name][0]
    if name == "dev-wheel-std":
        image, label = D.render(D.SetSpec("wheel", WHEEL_DEV[name][1], seed, nz.NUISANCES, 0.3), i)
        return image, _with_conditions(label, "640x480")
    from services.scenes.wheel.scene import render_wheel_scene
    from services.scenes.wheel.style import EXTRA_STYLES, STYLES
    styles = sorted(STYLES | EXTRA_STYLES)
    rng = np.random.default_rng([seed, i])
    names = nz.pick(rng, nz.NUISANCES)
    variant = "american" if i % 2 else "european"
    big = i % 3 == 2
    image, lab = render_wheel_scene(rng, variant, style=styles[(i // 2) % len(styles)],
                                    nuisances=names, pocket_rate=0.6, tilt_max=30.0,
                                    dist_min=2.5, rotor_px=(90.0, 150.0 if big else 160.0))
    label = lab.to_dict()
    label.update(kind="wheel", nuisances=list(names))
    if big:
        scale = float(np.random.default_rng([seed, i, 1]).uniform(1.5, 2.0))
        image, label = _to_1280x720(image, label, scale)
    return image, _with_conditions(label, f"{image.shape[1]}x{image.shape[0]}")


def _to_1280x720(image: np.ndarray, label: dict[str, Any],
                 scale: float) -> tuple[np.ndarray, dict[str, Any]]:
    """A 640x480 frame as a 1280x720 camera closer in would see it: scaled up, cut or
    mirrored out at the edges, the label's image points moved with it."""
    import cv2
    big = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    h, w = big.shape[:2]
    if h >= 720:
        cut = (h - 720) // 2
        big, top = big[cut:cut + 720], -cut
    else:
        top = (720 - h) // 2
        big = cv2.copyMakeBorder(big, top, 720 - h - top, 0, 0, cv2.BORDER_REFLECT_101)
    left = (1280 - w) // 2
    big = cv2.copyMakeBorder(big, 0, 0, left, 1280 - w - left, cv2.BORDER_REFLECT_101)
    # pixel centres: x' = (x + 0.5) * scale - 0.5 + offset
    move = np.array([[scale, 0, 0.5 * scale - 0.5 + left],
                     [0, scale, 0.5 * scale - 0.5 + top], [0, 0, 1.0]])
    out = dict(label)
    for key in ("ball_xy", "centre_xy"):
        if out.get(key) is not None:
            x, y = out[key]
            out[key] = (scale * x + move[0, 2], scale * y + move[1, 2])
    if out.get("plane_to_image") is not None:
        h2 = move @ np.array(out["plane_to_image"])
        out["plane_to_image"] = tuple(tuple(float(v) for v in row) for row in h2 / h2[2, 2])
    return np.ascontiguousarray(big), out


def _with_conditions(label: dict[str, Any], size: str) -> dict[str, Any]:
    """The label plus what the frame shows: size, tilt and rotor radius seen (from the
    rotor's outline through the true homography: tilt = acos(minor / major axis))."""
    import cv2
    cond: dict[str, Any] = {"size": size, "tilt_deg": None, "rotor_px": None}
    if label.get("plane_to_image") is not None:
        t = np.linspace(0, 2 * np.pi, 72, endpoint=False)
        pts = np.array(label["plane_to_image"]) @ np.stack([np.cos(t), np.sin(t), np.ones_like(t)])
        _, axes, _ = cv2.fitEllipse((pts[:2] / pts[2]).T.astype(np.float32))
        minor, major = sorted(axes)
        cond["tilt_deg"] = float(np.degrees(np.arccos(min(1.0, minor / major))))
        cond["rotor_px"] = float(np.sqrt(minor * major) / 2)
    return {**label, "conditions": cond}

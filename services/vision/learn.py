"""Calibration from ordinary play: learn a camera from many frames of normal rounds (pure
OpenCV + numpy, no I/O), not only from an empty table or hand-given corners.

- **Dice** (`learn_dice`): every frame is read without a calibration (dice/learned.py); the
  frames it reads (two flat dice, each sure) teach: the die's size is the median side of
  their dice (a die is the one object of known size on a craps table: 19.05 mm), and the
  landing area is where those dice came to rest — the rectangle holding their rest positions,
  grown by one die (dice never rest exactly on its edge), in pixels, with its size in
  millimetres from the die's. Needs `MIN_DICE` dice in at least `MIN_FRAMES` frames.
- **Wheel** (`learn_wheel`): the wheel's geometry from the frame of the clip where it
  calibrates best (`wheel.calibration.calibrate_wheel`: the lowest reprojection error over
  the frames that calibrate at all: a hand or the ball over the number ring spoils a frame,
  not the clip).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from services.vision.dice.calibration import DIE_MM, CalibrationError, DiceCalibration

MIN_DICE = 6      # dice found, at least
MIN_FRAMES = 3    # frames with exactly two dice (their rest positions), at least


@dataclass(frozen=True)
class Learned:
    calibration: Any                    # DiceCalibration or WheelCalibration
    frames: int                         # frames looked at
    used: int                           # frames that taught something
    detail: dict[str, Any]


def learn_dice(frames: Iterable[np.ndarray], die_mm: float = DIE_MM) -> Learned:
    """A dice calibration learnt from frames of play; CalibrationError naming `frames` when
    too few dice were seen."""
    from services.vision.dice.learned import read_learned
    sides: list[float] = []
    rests: list[tuple[float, float]] = []
    n = used = 0
    size: tuple[int, int] = (0, 0)
    for image in frames:
        n += 1
        size = (image.shape[1], image.shape[0])
        reading = read_learned(image)
        if reading.values is None:
            continue
        dice = reading.detail["dice"]
        sides += [d["side"] for d in dice]
        rests += [tuple(d["centre"]) for d in dice]
        used += 1
    if len(sides) < MIN_DICE or used < MIN_FRAMES:
        raise CalibrationError("frames", f"{len(sides)} dice in {n} frames, {used} with two "
                                         f"dice: need {MIN_DICE} dice and {MIN_FRAMES} frames "
                                         "of two dice at rest")
    die_px = float(np.median(sides))
    pts = np.array(rests)
    x0, y0 = np.maximum(pts.min(0) - die_px, 0.0)
    x1, y1 = np.minimum(pts.max(0) + die_px, size)
    ppm = die_px / die_mm
    quad = ((float(x0), float(y0)), (float(x1), float(y0)), (float(x1), float(y1)),
            (float(x0), float(y1)))
    cal = DiceCalibration(quad, (round((x1 - x0) / ppm, 1), round((y1 - y0) / ppm, 1)), die_mm)
    return Learned(cal, n, used, {"die_px": round(die_px, 2), "dice_seen": len(sides),
                                  "die_px_spread": round(float(np.std(sides)), 2)})


def learn_wheel(frames: Iterable[np.ndarray], variant: str = "european") -> Learned:
    """The wheel calibration of the frame that calibrates best; ValueError naming `frames`
    when none does."""
    from services.vision.wheel.calibration import calibrate_wheel
    best = None
    n = used = 0
    for image in frames:
        n += 1
        try:
            cal = calibrate_wheel(image, variant=variant)
        except ValueError:
            continue
        used += 1
        if best is None or cal.reprojection_px < best.reprojection_px:
            best = cal
    if best is None:
        raise ValueError(f"frames: no frame of {n} showed the wheel's number ring clearly "
                         "enough to calibrate")
    return Learned(best, n, used, {"reprojection_px": round(best.reprojection_px, 3)})

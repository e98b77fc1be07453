"""One call for the service: frame bytes in, a contract Reading out. The readers themselves
(services/vision/dice, services/vision/wheel) are pure OpenCV + numpy."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from contracts.vision import FrameCapturedData, Reading

READER = "casino-vision/1"


def read_frame(data: bytes, frame: FrameCapturedData,
               calibrations: Path | None = None) -> tuple[Reading, float]:
    """(reading, milliseconds). A frame that cannot be decoded is a no-decision for a person,
    never an exception that would stop the service. `calibrations` is a folder of per-camera
    files `<camera_id>.json` written by `casino vision calibrate`."""
    start = time.perf_counter()
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None or image.size == 0:
        reading = Reading(kind=frame.kind, no_decision=True, confidence=0.0,
                          reason="the frame is empty or not a decodable image")
    else:
        reading = _read(image, frame, _calibration_file(calibrations, frame.camera_id))
    return reading, (time.perf_counter() - start) * 1000


def _calibration_file(folder: Path | None, camera_id: str) -> Path | None:
    path = folder / f"{camera_id}.json" if folder else None
    return path if path is not None and path.exists() else None


def _read(image: np.ndarray, frame: FrameCapturedData, calibration: Path | None) -> Reading:
    found: Any
    if frame.kind == "dice":
        from services.vision.dice import calibration as dice_cal
        from services.vision.dice.reader import read_dice
        cal = dice_cal.load(calibration) if calibration else None
        found = read_dice(image, cal)
    else:
        from services.vision import wheel
        wheel_cal = wheel.load(calibration) if calibration else None
        found = wheel.read_wheel(image, variant=frame.variant or "european",
                                 calibration=wheel_cal)
    values = getattr(found, "values", None)  # dice readings only
    return Reading(kind=frame.kind, values=tuple(values) if values else None,
                   pocket=getattr(found, "pocket", None), no_decision=found.no_decision,
                   reason=found.reason, confidence=min(1.0, max(0.0, float(found.confidence))))

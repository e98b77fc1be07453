"""One call for the service: frame bytes in, a contract Reading out. The readers themselves
(services/vision/dice, services/vision/wheel) are pure OpenCV + numpy."""
from __future__ import annotations

import time

import cv2
import numpy as np

from contracts.vision import FrameCapturedData, Reading

READER = "casino-vision/1"


def read_frame(data: bytes, frame: FrameCapturedData) -> tuple[Reading, float]:
    """(reading, milliseconds). A frame that cannot be decoded is a no-decision for a person,
    never an exception that would stop the service."""
    start = time.perf_counter()
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None or image.size == 0:
        reading = Reading(kind=frame.kind, no_decision=True, confidence=0.0,
                          reason="the frame is empty or not a decodable image")
    else:
        reading = _read(image, frame)
    return reading, (time.perf_counter() - start) * 1000


def _read(image: np.ndarray, frame: FrameCapturedData) -> Reading:
    if frame.kind == "dice":
        from services.vision.dice.calibration import synth_default
        from services.vision.dice.reader import read_dice
        found = read_dice(image, synth_default())
    else:
        from services.vision.wheel.reader import read_wheel
        found = read_wheel(image, variant=frame.variant or "european")
    values = getattr(found, "values", None)  # dice readings only
    return Reading(kind=frame.kind, values=tuple(values) if values else None,
                   pocket=getattr(found, "pocket", None), no_decision=found.no_decision,
                   reason=found.reason, confidence=min(1.0, max(0.0, float(found.confidence))))

"""`WheelTracker`: decide a spin from video only once the ball has come to rest.

A single frame can catch a bouncing ball that happens to look settled for 1/50 s. Fed
consecutive frames, the tracker reports a pocket only after the reader saw the ball in the
same pocket in `confirm_frames` frames in a row (the rotor may keep turning: the pocket is
read relative to the rotor, so it does not change while the ball rides it). Any frame without
a decision, or with another pocket, starts the count again. Until then it reports no decision:
the frame's own reason, or "not_settled" while the count is running.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from services.vision.wheel import reasons as R
from services.vision.wheel.reader import read_wheel
from services.vision.wheel.reading import WheelReading

DEFAULT_CONFIRM_FRAMES = 3


@dataclass(frozen=True)
class TrackerState:
    pocket: str | None          # decided pocket, None until the ball has stayed
    no_decision: bool
    reason: str | None
    confidence: float           # the lowest confidence over the confirming frames
    settled_frames: int         # consecutive frames with the ball in `candidate`
    candidate: str | None       # the pocket being confirmed
    frame: WheelReading         # this frame's own reading (for the evidence image)

    def to_dict(self) -> dict[str, Any]:
        return {"pocket": self.pocket, "no_decision": self.no_decision, "reason": self.reason,
                "confidence": round(self.confidence, 4), "settled_frames": self.settled_frames,
                "candidate": self.candidate, "frame": self.frame.to_dict()}


class WheelTracker:
    def __init__(self, variant: str = "european", calibration=None,
                 confirm_frames: int = DEFAULT_CONFIRM_FRAMES) -> None:
        if int(confirm_frames) < 1:
            raise ValueError("confirm_frames: must be >= 1")
        self.variant = variant
        self.calibration = calibration
        self.confirm_frames = int(confirm_frames)
        self.reset()

    def reset(self) -> None:
        """Forget the current spin (call when the croupier launches the next ball)."""
        self._candidate: str | None = None
        self._count = 0
        self._confidences: list[float] = []

    def update(self, frame: np.ndarray) -> TrackerState:
        return self.observe(read_wheel(frame, self.variant, self.calibration))

    def observe(self, reading: WheelReading) -> TrackerState:
        """Feed a reading made elsewhere (e.g. by a reader process) instead of a frame."""
        if reading.no_decision:
            self.reset()
            return TrackerState(None, True, reading.reason, 0.0, 0, None, reading)
        if reading.pocket != self._candidate:
            self.reset()
            self._candidate = reading.pocket
        self._count += 1
        self._confidences = (self._confidences + [reading.confidence])[-self.confirm_frames:]
        if self._count < self.confirm_frames:
            return TrackerState(None, True, R.NOT_SETTLED, 0.0, self._count, self._candidate,
                                reading)
        return TrackerState(self._candidate, False, None, min(self._confidences), self._count,
                            self._candidate, reading)

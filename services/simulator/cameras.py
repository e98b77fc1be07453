"""Simulated CCTV cameras over the wheels: for each spin, a synthetic overhead frame of the
wheel with the ball in the winning pocket, stored as a JPEG and announced as FrameCaptured.

The frame decides what really happened; the simulated dealer then enters that pocket — or,
at `dealer_error_rate`, a wrong one — so the vision service has real mismatches to catch.
A few frames show the ball still moving or hidden (no decision), as real cameras do.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from contracts.envelope import utcnow
from contracts.vision import FrameCaptured, FrameCapturedData
from services.scenes.wheel.scene import render_wheel_scene

NUISANCES = ("gradient", "noise", "jpeg")


@dataclass
class Shot:
    true_pocket: str
    frame: FrameCaptured
    case: str  # "pocket", or why the frame cannot decide (e.g. "ball_moving")


@dataclass
class WheelCameras:
    frames_dir: Path
    dealer_error_rate: float = 0.02
    no_decision_rate: float = 0.03
    versions: dict[str, int] = field(default_factory=dict)  # camera id -> last sequence

    def shoot(self, table_id: str, correlation_id: str, rng: random.Random) -> Shot:
        camera_id = f"CAM-{table_id}"
        np_rng = np.random.default_rng(rng.getrandbits(64))
        case = "ball_moving" if rng.random() < self.no_decision_rate else "pocket"
        image, label = render_wheel_scene(np_rng, "european", case=case, nuisances=NUISANCES)
        sequence = self.versions.get(camera_id, 0) + 1
        self.versions[camera_id] = sequence
        path = self.frames_dir / table_id / f"{sequence:06d}.jpg"
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        now = utcnow()
        frame = FrameCaptured(
            aggregate_id=camera_id, sequence=sequence, occurred_at=now,
            producer="camera-gateway", correlation_id=correlation_id,
            payload=FrameCapturedData(camera_id=camera_id, table_id=table_id, kind="wheel",
                                      variant="european", uri=str(path), captured_at=now))
        return Shot(label.pocket or str(rng.randrange(37)), frame, case)

    def dealer_entry(self, true_pocket: str, rng: random.Random) -> str:
        """What the dealer types: usually what the wheel shows."""
        if rng.random() < self.dealer_error_rate:
            return str((int(true_pocket) + rng.randint(1, 36)) % 37)
        return true_pocket

"""Simulated CCTV cameras over the wheels and the dice: for each spin, a synthetic overhead frame
of the wheel with the ball in the winning pocket; for each roll, one of the two dice at rest on
the layout. Stored as a JPEG and announced as FrameCaptured.

The frame decides what really happened; the simulated dealer then enters that result — or, at
`dealer_error_rate`, a wrong one — so the vision service has real mismatches to catch. A few
frames cannot decide (the ball still moving, a die cocked against the rail), as real cameras do.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from contracts.envelope import utcnow
from contracts.vision import FrameCaptured, FrameCapturedData, Kind
from services.scenes.dice.scene import render as render_dice_scene
from services.scenes.wheel.scene import render_wheel_scene

NUISANCES = ("gradient", "noise", "jpeg")


@dataclass
class Shot:
    true_pocket: str
    frame: FrameCaptured
    case: str  # "pocket", or why the frame cannot decide (e.g. "ball_moving")


@dataclass
class DiceShot:
    true_dice: tuple[int, int]
    frame: FrameCaptured
    case: str  # "dice", or why the frame cannot decide (e.g. "cocked")


@dataclass
class Cameras:
    frames_dir: Path
    dealer_error_rate: float = 0.02
    no_decision_rate: float = 0.03
    versions: dict[str, int] = field(default_factory=dict)  # camera id -> last sequence

    def shoot(self, table_id: str, correlation_id: str, rng: random.Random) -> Shot:
        """The wheel camera's frame of a spin."""
        np_rng = np.random.default_rng(rng.getrandbits(64))
        case = "ball_moving" if rng.random() < self.no_decision_rate else "pocket"
        image, label = render_wheel_scene(np_rng, "european", case=case, nuisances=NUISANCES)
        frame = self._store(table_id, correlation_id, image, "wheel")
        return Shot(label.pocket or str(rng.randrange(37)), frame, case)

    def shoot_dice(self, table_id: str, correlation_id: str, rng: random.Random) -> DiceShot:
        """The dice camera's frame of a roll. A no-decision frame still stands for a real roll:
        its dice are drawn here, as the table would see them."""
        np_rng = np.random.default_rng(rng.getrandbits(64))
        case = "cocked" if rng.random() < self.no_decision_rate else "dice"
        image, label = render_dice_scene(np_rng, NUISANCES, None if case == "dice" else case)
        frame = self._store(table_id, correlation_id, image, "dice")
        values = label["values"] or sorted((rng.randint(1, 6), rng.randint(1, 6)))
        a, b = values
        return DiceShot((a, b), frame, case)

    def dealer_entry(self, true_pocket: str, rng: random.Random) -> str:
        """What the dealer types: usually what the wheel shows."""
        if rng.random() < self.dealer_error_rate:
            return str((int(true_pocket) + rng.randint(1, 36)) % 37)
        return true_pocket

    def dealer_dice(self, true_dice: tuple[int, int], rng: random.Random) -> tuple[int, int]:
        """What the stickman calls: usually what the dice show; a wrong call changes one die."""
        if rng.random() < self.dealer_error_rate:
            a, b = true_dice
            return (a % 6) + 1, b
        return true_dice

    def _store(self, table_id: str, correlation_id: str, image: np.ndarray,
               kind: Kind) -> FrameCaptured:
        camera_id = f"CAM-{table_id}"
        sequence = self.versions.get(camera_id, 0) + 1
        self.versions[camera_id] = sequence
        path = self.frames_dir / table_id / f"{sequence:06d}.jpg"
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        now = utcnow()
        return FrameCaptured(
            aggregate_id=camera_id, sequence=sequence, occurred_at=now,
            producer="camera-gateway", correlation_id=correlation_id,
            payload=FrameCapturedData(camera_id=camera_id, table_id=table_id, kind=kind,
                                      variant="european" if kind == "wheel" else None,
                                      uri=str(path), captured_at=now))

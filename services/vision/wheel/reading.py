"""What the reader says about a frame, with the geometry it based it on (for the evidence
image and for audit): a pocket only when the ball clearly sits in one, else why not."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class WheelReading:
    pocket: str | None              # e.g. "17", "0", "00"; None when no decision
    no_decision: bool
    reason: str | None              # a reasons.* constant when no_decision
    confidence: float               # 0..1; 0 when no decision
    variant: str
    # debug geometry, frame pixels
    rotor_ellipse: tuple[float, float, float, float, float] | None = None  # cx, cy, a, b, deg
    zero_xy: tuple[float, float] | None = None       # centre of the zero pocket's number
    ball_xy: tuple[float, float] | None = None       # where the ball was seen
    ball_position: float | None = None               # pockets from the zero's centre
    pocket_outline: tuple[tuple[float, float], ...] | None = None  # chosen pocket's corners
    scores: dict[str, float] = field(default_factory=dict)  # the measurements behind it

    def to_dict(self) -> dict[str, Any]:
        return {"pocket": self.pocket, "no_decision": self.no_decision, "reason": self.reason,
                "confidence": round(self.confidence, 4), "variant": self.variant,
                "rotor_ellipse": self.rotor_ellipse, "zero_xy": self.zero_xy,
                "ball_xy": self.ball_xy, "ball_position": self.ball_position,
                "pocket_outline": self.pocket_outline,
                "scores": {k: round(v, 4) for k, v in self.scores.items()}}

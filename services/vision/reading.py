"""What a reader returns: a decision (dice values or a wheel pocket) or a reasoned no-decision.

Shared by the dice reader and the wheel reader so the CLI, the evaluation and (later) the Kafka
service handle one type. A reader never guesses: when the scene is a «tirada nula» situation
(seed 000 §3.1.5: dice «se superponen», «se montan sobre una ficha», «caen fuera de la mesa»...)
or it cannot read confidently, it returns `no_decision=True` with a reason for a person to call.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reading:
    kind: str                                # "dice" | "wheel"
    values: tuple[int, int] | None = None    # dice: the two up faces, sorted ascending
    pocket: str | None = None                # wheel: "0", "00", "1".."36"
    no_decision: bool = False
    reason: str | None = None                # set iff no_decision; see REASONS
    confidence: float = 0.0                  # 0..1, the reader's margin, not a probability
    detail: dict[str, Any] = field(default_factory=dict)  # debugging aids (boxes, scores)

    def __post_init__(self) -> None:
        decided = self.values is not None or self.pocket is not None
        if self.no_decision == decided or (self.no_decision and not self.reason):
            raise ValueError("reading: exactly one of a decision or no_decision+reason is required")

    def to_json(self) -> dict[str, Any]:
        """The JSON shape of `casino vision read --json` (without `file` and `ms`)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.no_decision:
            out.update(no_decision=True, reason=self.reason)
        elif self.values is not None:
            out["values"] = list(self.values)
        else:
            out["pocket"] = self.pocket
        out["confidence"] = round(float(self.confidence), 3)
        return out


def no_decision(kind: str, reason: str, confidence: float = 0.0, **detail: Any) -> Reading:
    return Reading(kind=kind, no_decision=True, reason=reason, confidence=confidence,
                   detail=detail)


# Dice no-decision reasons (seed 000 §3.1.5 / seed 004 IV §1 «tirada nula» and invalid throws).
DICE_REASONS: dict[str, str] = {
    "cocked": "a die is leaning (not flat on the felt): «inclinados», must be called by a person",
    "overlap": "dice touch or lie one on the other: «se superponen»",
    "out_of_area": "a die rests outside the landing area (rail, off the layout)",
    "single_die": "only one die is visible (the other fell off the table or is hidden)",
    "no_dice": "no die is visible in the landing area",
    "too_many_dice": "more than two dice are visible",
    "unreadable": "a die was found but its pips could not be read with confidence",
}


def result_json(reading: Any) -> dict[str, Any]:
    """The CLI/evaluation JSON of any reader's result: this module's Reading, or a reading
    of the wheel reader (services/vision/wheel: pocket/no_decision/reason/confidence)."""
    if isinstance(reading, Reading):
        return reading.to_json()
    out: dict[str, Any] = {"kind": "wheel"}
    if reading.no_decision:
        out.update(no_decision=True, reason=reading.reason)
    else:
        out["pocket"] = str(reading.pocket)
    out["confidence"] = round(float(reading.confidence), 3)
    return out

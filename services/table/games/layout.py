"""The craps layout as the table keeps it (games/craps.py): each bet as it plays now, and the
layout as it stood when each recent roll was thrown, so a roll the surveillance room corrects
on CCTV can be re-decided in the state it was thrown in (games/roll_correction.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from contracts.table import BetPlacedData
from services.rules.craps.bets import Bet

# Rolls whose layout is kept for corrections: the table remembers its last 100 rounds
# (domain.KEEP_ROUNDS), and a roll is checked on CCTV within the 30-minute hold.
KEEP_THROWN = 100


@dataclass
class LayoutBet:
    """A bet on the craps layout: as placed, the amount that plays now, and its number (a
    place or hardway number, a line bet's point once it travelled, the number odds back)."""

    placed: BetPlacedData
    amount: int
    number: int | None

    def engine(self) -> Bet:
        spec = self.placed.bet
        return Bet(self.placed.bet_id, spec.kind, self.amount, self.number, spec.on, spec.working)

    def to_json(self) -> dict[str, Any]:
        return {"placed": self.placed.model_dump(mode="json"), "amount": self.amount,
                "number": self.number}

    @staticmethod
    def from_json(data: Any) -> LayoutBet:
        return LayoutBet(BetPlacedData.model_validate(data["placed"]), data["amount"],
                         data["number"])


@dataclass(frozen=True)
class Thrown:
    """A roll as it was thrown: the point (ON/OFF) before it, the dice called, the roll's
    index at the table and every bet on the layout then (amounts and numbers as they were)."""

    point: int | None
    dice: tuple[int, int]
    index: int
    bets: tuple[LayoutBet, ...]

    def to_json(self) -> dict[str, Any]:
        return {"point": self.point, "dice": list(self.dice), "index": self.index,
                "bets": [b.to_json() for b in self.bets]}

    @staticmethod
    def from_json(data: Any) -> Thrown:
        return Thrown(data["point"], (data["dice"][0], data["dice"][1]), data["index"],
                      tuple(LayoutBet.from_json(b) for b in data["bets"]))

"""A round (pase, seed 002 §1.1 q) as the table session remembers it. Pure: no I/O."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from contracts.payouts import BetCorrectionData, PayoutsHeld
from contracts.table import BetOutcome, BetPlacedData, BetSettledData


class RoundState(enum.Enum):
    BETTING = "betting"
    CLOSED = "closed"      # «no más apuestas»
    SPUN = "spun"          # result recorded, settlement in progress
    SETTLED = "settled"


@dataclass
class Round:
    """One round as the table remembers it: its bets, result and settlement."""

    round_id: str
    number: int
    state: RoundState = RoundState.BETTING
    bets: dict[str, BetPlacedData] = field(default_factory=dict)
    pocket: str | None = None
    settled: dict[str, BetSettledData] = field(default_factory=dict)
    # stakes «en prisión» from the round before that this round's spin decided
    jailed: dict[str, BetPlacedData] = field(default_factory=dict)
    corrections: dict[str, BetCorrectionData] = field(default_factory=dict)
    hold: PayoutsHeld | None = None  # the hold of its winning payouts, if any
    hold_open: bool = False
    not_held: bool = False  # a check came but nothing was held (PayoutsNotHeld)
    resolved: bool = False

    @property
    def is_settled(self) -> bool:
        return self.state is RoundState.SETTLED

    def paid(self, bet_id: str) -> tuple[BetOutcome, int]:
        """(outcome, paid) of a bet settled in this round, after any correction."""
        fixed = self.corrections.get(bet_id)
        if fixed is not None:
            return fixed.outcome_after, fixed.paid_after.amount
        s = self.settled[bet_id]
        return s.outcome, s.paid.amount

    def winners(self) -> dict[str, int]:
        """Bets this round pays more than their stake (apuestas ganadoras): bet id -> paid."""
        out = {}
        for bet_id, s in self.settled.items():
            outcome, paid = self.paid(bet_id)
            if outcome != "prison" and paid > s.stake.amount:
                out[bet_id] = paid
        return out

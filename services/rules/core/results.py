"""The result of settling one bet: what the player gets back and the rule that decided it."""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from services.rules.core.refs import RuleRef


class Outcome(str, enum.Enum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"            # stake returned, nothing won
    HALF_BACK = "half_back"  # half the stake returned (e.g. even chances on zero, 30-40 tie at 31)
    PRISON = "prison"        # stake stays on the layout for a later decision ("en prisión")
    VOID = "void"            # the bet did not play (late bet, void round); stake returned
    PENDING = "pending"      # undecided yet (craps bet with the point on)


@dataclass(frozen=True)
class BetResult:
    """`paid` is everything handed to the player for this bet: returned stake, winnings and any
    returned excess. So the player's net is `paid - stake` and the house win is `stake - paid`.
    A bet left on the layout (PRISON, PENDING) has paid == 0 and is not yet a loss."""

    kind: str
    stake: int
    paid: int
    outcome: Outcome
    rule: RuleRef
    detail: str = ""
    excess_returned: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def net(self) -> int:
        return self.paid - self.stake

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind, "stake": self.stake, "paid": self.paid, "net": self.net,
            "outcome": self.outcome.value, "rule": str(self.rule),
        }
        if self.rule.note:
            out["rule_note"] = self.rule.note
        if self.detail:
            out["detail"] = self.detail
        if self.excess_returned:
            out["excess_returned"] = self.excess_returned
        out.update(self.extra)
        return out

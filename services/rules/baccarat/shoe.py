"""Where a round sits in its shoe: the cut card and the last hand.

The cut card lies `depth` cards from the bottom: 6 in BO (seed 002 §2.2.5.1), 10 in CL-ARICA
(seed 004 III §2.5), 7 in LIVE-GG (seed 003 Bac §3.3.4) — switch baccarat_cut_card. Reading
of domain.md A-13 (BO/CL) and seed 003 Bac §3.5.4 (LIVE): if the cut card comes out during a
round, that round is the last; if it comes out right after a complete round, one more round
(the one about to start) is played. Both come to one test: a round may start only while at
most `shoe_size - depth` cards have left the shoe, and it is the last round when its own
cards reach past that point.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.rules.core.errors import RulesError
from services.rules.core.refs import RuleRef

CUT_RULES = {"6": RuleRef("002", "§2.2.5.1", quote="Último pase"),
             "10": RuleRef("004", "III §2.5", quote="Último pase"),
             "7": RuleRef("003", "Bac §3.5.4")}


@dataclass(frozen=True)
class ShoePosition:
    decks: int
    depth: int            # cards behind the cut card
    dealt_before: int     # cards out of the shoe before this round (burned ones included)
    used: int             # cards this round used

    @property
    def last_card_before_cut(self) -> int:
        return self.decks * 52 - self.depth

    @property
    def last_hand(self) -> bool:
        return self.dealt_before + self.used > self.last_card_before_cut

    def to_dict(self) -> dict[str, Any]:
        return {"decks": self.decks, "cut_card_depth": self.depth,
                "dealt_before": self.dealt_before, "dealt_after": self.dealt_before + self.used,
                "last_hand": self.last_hand}


def check_round_may_start(decks: int, depth: int, dealt_before: int) -> None:
    limit = decks * 52 - depth
    if dealt_before > limit:
        rule = CUT_RULES.get(str(depth), RuleRef("", "cut card"))
        raise RulesError("shoe.previous_cards", f"{dealt_before} cards already left the shoe: "
                         f"the cut card ({depth} from the bottom of {decks * 52}) came out during "
                         f"an earlier round, which was the last; no round may be dealt before the "
                         f"reshuffle ({rule}, domain.md A-13)")

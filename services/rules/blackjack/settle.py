"""Turning a finished hand into money: BetResults with exact amounts and their RuleRef.

`paid` is everything handed back (stake, winnings, returned excess) — core.results.BetResult.
Ratios go through core.money once, rounded by the profile (3:2 on an odd stake, half back on
surrender, exact-half insurance).
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from services.rules.blackjack.dealer import DealerFinal
from services.rules.blackjack.hand import total
from services.rules.blackjack.refs import ref
from services.rules.blackjack.rules import BjRules
from services.rules.core.cards import Card
from services.rules.core.money import apply_fraction, pay_ratio
from services.rules.core.results import BetResult, Outcome

HALF = Fraction(1, 2)


def main_outcome(cards: list[Card], natural: bool, dealer: DealerFinal) -> tuple[str, str]:
    """(result, rule key) of a standing hand against the dealer's final hand."""
    return outcome(total(cards).best, len(cards) == 2, natural, dealer)


def outcome(best: int, two_cards: bool, natural: bool, dealer: DealerFinal) -> tuple[str, str]:
    """Dealer blackjack beats every hand but a blackjack, which pushes — including a multi-card
    or split 21, doubled and split stakes alike (no hole card: seed 002 §2.1.7.2 «Si el
    croupier tiene black jack no paga las apuestas»; seed 003 BJ §2.1.5)."""
    if dealer.blackjack:
        return ("push", "push") if natural else ("lose", "dealer_blackjack")
    if natural:
        return "blackjack", "blackjack"
    if dealer.bust or best > dealer.best:
        return "win", ("split_21" if best == 21 and two_cards else "win")
    if best == dealer.best:
        return "push", "push"
    return "lose", "win"


class Payer:
    """Builds BetResults for one profile (its rounding and its citations)."""

    def __init__(self, rules: BjRules) -> None:
        self.pid = rules.profile.id
        self.rounding = rules.rounding

    def _bet(self, kind: str, stake: int, paid: int, outcome: Outcome, key: str, detail: str,
             extra: Mapping[str, Any], excess: int) -> BetResult:
        return BetResult(kind, stake + excess, paid + excess, outcome, ref(self.pid, key),
                         detail, excess, dict(extra))

    def pays(self, kind: str, stake: int, to: int, per: int, key: str, detail: str,
             extra: Mapping[str, Any], excess: int = 0) -> BetResult:
        won = pay_ratio(stake, to, per, self.rounding)
        return self._bet(kind, stake, stake + won, Outcome.WIN, key,
                         f"{detail}; pays {to}:{per} = {won}", extra, excess)

    def loses(self, kind: str, stake: int, key: str, detail: str,
              extra: Mapping[str, Any], excess: int = 0) -> BetResult:
        return self._bet(kind, stake, 0, Outcome.LOSE, key, detail, extra, excess)

    def push(self, kind: str, stake: int, key: str, detail: str,
             extra: Mapping[str, Any], excess: int = 0) -> BetResult:
        return self._bet(kind, stake, stake, Outcome.PUSH, key, detail, extra, excess)

    def void(self, kind: str, stake: int, key: str, detail: str,
             extra: Mapping[str, Any], excess: int = 0) -> BetResult:
        return self._bet(kind, stake, stake, Outcome.VOID, key, detail, extra, excess)

    def half_back(self, kind: str, stake: int, key: str, detail: str,
                  extra: Mapping[str, Any], excess: int = 0) -> BetResult:
        back = apply_fraction(stake, HALF, self.rounding)
        return self._bet(kind, stake, back, Outcome.HALF_BACK, key,
                         f"{detail}; half returned = {back}", extra, excess)

    def bonus(self, stake_basis: int, to: int, key: str, detail: str,
              extra: Mapping[str, Any]) -> BetResult:
        """A promotional prize: no stake of its own, paid on the hand's stake."""
        won = pay_ratio(stake_basis, to, 1, self.rounding)
        return BetResult("promotion", 0, won, Outcome.WIN, ref(self.pid, key),
                         f"{detail}; pays {to}:1 on the hand's stake {stake_basis} = {won}",
                         0, dict(extra))

    def settle_main(self, stake: int, cards: list[Card], natural: bool, dealer: DealerFinal,
                    extra: Mapping[str, Any], excess: int = 0) -> BetResult:
        result, key = main_outcome(cards, natural, dealer)
        mine = "blackjack" if natural else str(total(cards))
        theirs = "blackjack" if dealer.blackjack else ("bust" if dealer.bust else str(dealer.best))
        detail = f"player {mine} vs dealer {theirs}"
        if result == "blackjack":
            return self.pays("main", stake, 3, 2, key, detail, extra, excess)
        if result == "win":
            return self.pays("main", stake, 1, 1, key, detail, extra, excess)
        if result == "push":
            return self.push("main", stake, key, detail, extra, excess)
        return self.loses("main", stake, key, detail, extra, excess)

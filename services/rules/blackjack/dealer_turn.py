"""The dealer's turn: his drawing rule, stopping when nothing depends on his cards (A-10),
the three dealer hands of Challenge 21, and a card dealt to him by mistake on 17."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.rules.blackjack.dealer import DealerFinal, final_of, is_moot, stands
from services.rules.blackjack.hand import total
from services.rules.blackjack.refs import ref
from services.rules.blackjack.settle import outcome
from services.rules.blackjack.state import RoundState
from services.rules.core.cards import Card
from services.rules.core.errors import RulesError


def _hand_outcome(best: int, two_cards: bool, natural: bool) -> Callable[[DealerFinal], Any]:
    """The outcome of a standing hand against whatever the dealer ends with."""
    return lambda final: outcome(best, two_cards, natural, final)[0]


class DealerTurn(RoundState):
    def _dealer_rounds(self) -> None:
        rule = ref(self.pid, "dealer_rule")
        self.log(f"Dealer ({rule}): draws to 17, "
                 + ("hits soft 17" if self.rules.dealer_hits_soft17 else "stands on all 17"))
        for rnd in range(self.rounds):
            cards = list(self.dealer)
            if self.rules.challenge21:
                self.log(f"Dealer hand {rnd + 1} on the base card {cards[0]} "
                         f"({ref(self.pid, 'c21')})")
            self._dealer_draws(cards, rnd)
            self.dealer_hands.append(cards)
            final = final_of(cards)
            self.log(f"  dealer {' '.join(map(str, cards))}: "
                     + ("blackjack" if final.blackjack else str(total(cards))))
            self._settle_insurance(rnd, final)
            for bp in self._dealt():
                for hand in bp.hands:
                    if rnd < len(hand.stakes) and hand.state in ("stood", "waiting_bj"):
                        self._settle_hand(bp, hand, rnd, final)
            self._extra_dealer_cards(cards)
        for bp in self._dealt():
            for hand in bp.hands:
                if hand.state == "waiting_bj":
                    hand.state = "blackjack"

    def _dealer_draws(self, cards: list[Card], rnd: int) -> None:
        h17 = self.rules.dealer_hits_soft17
        while not stands(cards, h17) and not total(cards).bust:
            if is_moot(cards, h17, self._live_bets(rnd)) and (
                    self.rules.moot_must_stop or not self.cursor.has_card_in_play()):
                self.log(f"  dealer stops at {total(cards)}: no further card can change "
                         f"any result ({ref(self.pid, 'moot')})")
                return
            entry = self.cursor.draw("dealer draws")
            cards.append(entry.card)
            self.log(f"  {entry.field} {entry.card} → dealer: {total(cards)}")

    def _live_bets(self, rnd: int) -> list[Callable[[DealerFinal], Any]]:
        bets: list[Callable[[DealerFinal], Any]] = []
        for bp in self._dealt():
            for hand in bp.hands:
                if rnd < len(hand.stakes) and hand.state in ("stood", "waiting_bj"):
                    bets.append(_hand_outcome(total(hand.cards).best, len(hand.cards) == 2,
                                              hand.natural))
            if (rnd < len(bp.insurance_open) and bp.insurance_open[rnd]) or \
                    (rnd == 0 and bp.insurance_ten_open):
                bets.append(lambda f: f.blackjack)
        return bets

    def _extra_dealer_cards(self, cards: list[Card]) -> None:
        while (nxt := self.cursor.peek()) is not None and nxt.irregularity == "dealer_extra":
            if not stands(cards, self.rules.dealer_hits_soft17):
                raise RulesError(f"{nxt.field}.irregularity", f"the dealer's {total(cards)} "
                                 f"does not stand by the rule ({ref(self.pid, 'dealer_rule')}), "
                                 "so a card dealt to him here is not an extra card")
            self.cursor.burn(self.cursor.take(), "dealer_extra")

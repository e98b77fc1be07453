"""One blackjack round replayed from the card sequence and the players' decisions.

The cards are given in the order they left the shoe; the engine deals them by the profile's
procedure (first card to each box from the dealer's left, one to the dealer, second cards,
LIVE's hole card), applies each decision after checking that the rules allow it with the
cards the hand holds, completes the dealer's hand(s) and settles every bet with its RuleRef.
Every step is written to `steps` for explain(). Nothing here does I/O.

Decisions come from a `Decider`: `ListDecider` reads the request's `actions` (the normal
case); tests and the simulator cross-check use a policy instead.

Layout: state.py (the round's state and bookkeeping), turns.py (players' decisions),
dealer_turn.py (the dealer's hand(s)), this module (the order of the phases, the deal, side
bets and offers, the end of the round).
"""
from __future__ import annotations

from services.rules.blackjack import decisions
from services.rules.blackjack.cursor import ShoeExhausted
from services.rules.blackjack.dealer import final_of
from services.rules.blackjack.dealer_turn import DealerTurn
from services.rules.blackjack.hand import ACE, TEN, value
from services.rules.blackjack.refs import ref
from services.rules.blackjack.request import RoundInput
from services.rules.blackjack.rules import BjRules
from services.rules.blackjack.sidebets import (
    PERFECT_PAIRS,
    PROMOTIONS,
    perfect_pairs_kind,
    promotions_won,
)
from services.rules.blackjack.stakes import box_stakes, check_players
from services.rules.blackjack.state import BoxPlay, Decider, ListDecider, PlayerHand, RoundResult
from services.rules.blackjack.turns import PlayerTurns
from services.rules.core.cards import Card
from services.rules.core.errors import RulesError

__all__ = ["play_round", "RoundPlay", "ListDecider", "Decider", "PlayerHand", "RoundResult"]


class RoundPlay(PlayerTurns, DealerTurn):
    """Deal, Perfect Pairs, insurance and even money, LIVE's peek, blackjacks, the players'
    turns, the dealer's hand(s), leftover cards (domain.md §3.1.2)."""

    def run(self) -> RoundResult:
        if self.rnd.void_malfunction:
            return self._void_all()
        check_players(self.rnd, self.rules)
        self.boxes = [self._box_play(b) for b in self.rnd.boxes]
        try:
            self._initial_deal()
            self._perfect_pairs()
            self._offers()
            if not self._peek():
                self._naturals()
                for bp in self._dealt():
                    self._play_box(bp)
                self._dealer_rounds()
            if not self.shoe_continues:
                self._tail()
        except ShoeExhausted as exhausted:
            self._incomplete(exhausted.needed_for)
            return self._result()
        if self.rnd.incomplete:
            raise RulesError("incomplete", "the round was completed with the cards given; "
                             "the cut-card rule (seed 004 III §1.7) does not apply")
        self._promotions()
        return self._result()

    def _initial_deal(self) -> None:
        self._undealt_boxes()
        deal = ref(self.pid, "deal")
        self.log(f"Deal ({deal}): one card to each box from the dealer's left, one to the "
                 f"dealer, a second card to each box"
                 + (", the dealer's hole card face down" if self.rules.hole_card else
                    "; no hole card: the dealer completes his hand after the players"))
        boxes = self._dealt()
        for bp in boxes:
            self._give(bp.hands[0], "first card")
        self.dealer.append(self._dealer_card("up card"))
        for bp in boxes:
            self._give(bp.hands[0], "second card")
        if self.rules.hole_card:
            self.dealer.append(self._dealer_card("hole card, face down"))

    def _undealt_boxes(self) -> None:
        for bp in self.boxes:
            if bp.box.dealt:
                continue
            self.rules.lazy("bj_undealt_box", f"{bp.box.field}.dealt")
            if bp.box.actions:
                raise RulesError(f"{bp.box.field}.actions", "a box that received no card "
                                 "takes no decision")
            self.log(f"seat {bp.box.seat} received no card: its bets are void for this round "
                     f"({ref(self.pid, 'undealt_box')})")
            self._void_box(bp, "the box received no card", "undealt_box")

    def _perfect_pairs(self) -> None:
        for bp in self._dealt():
            pp = bp.stakes.perfect_pairs
            if pp is None:
                continue
            first, second = bp.hands[0].cards
            kind = perfect_pairs_kind(first, second)
            extra = {"cards": [str(first), str(second)]}
            if kind is None:
                bet = self.pay.loses("perfect_pairs", pp.playing_stake, "perfect_pairs",
                                     f"{first} {second} is no pair (J, Q, K, A count by symbol)",
                                     extra, pp.excess)
            else:
                to, name = PERFECT_PAIRS[kind]
                bet = self.pay.pays("perfect_pairs", pp.playing_stake, to, 1, "perfect_pairs",
                                    f"{first} {second}: {name}", extra, pp.excess)
            self.record(bp.box, 0, 0, bet)

    def _offers(self) -> None:
        up = self.dealer[0]
        for bp in self._dealt():
            decisions.check_offers(bp, up, self.rnd, self.rules)
        if up.rank == ACE and any(any(bp.insurance_open) for bp in self.boxes):
            amount = "exactly half" if self.rules.insurance_exact else "up to half"
            self.log(f"Dealer shows an ace: insurance offered, {amount} the bet, pays 2:1 "
                     f"({ref(self.pid, 'insurance')})")

    def _peek(self) -> bool:
        """LIVE: with an ace up the dealer checks the hole card after the insurance window.
        Returns True when he has blackjack (the round ends before any decision)."""
        if not (self.rules.hole_card and self.dealer[0].rank == ACE):
            return False
        final = final_of(self.dealer)
        self.log(f"Peek ({ref(self.pid, 'peek')}): dealer "
                 f"{'has' if final.blackjack else 'has no'} blackjack")
        self._settle_insurance(0, final)
        if not final.blackjack:
            return False
        self.dealer_hands = [list(self.dealer)]
        for bp in self._dealt():
            if bp.box.actions:
                raise RulesError(bp.box.actions[0].field, "the dealer's blackjack was found "
                                 "at the peek: the round ends before any decision")
            self._settle_hand(bp, bp.hands[0], 0, final)
            bp.hands[0].state = "blackjack" if bp.hands[0].natural else "stood"
        return True

    def _naturals(self) -> None:
        up = self.dealer[0]
        now = self._paid_at_once(up)
        for bp in self._dealt():
            hand = bp.hands[0]
            if not hand.natural:
                continue
            if bp.box.actions:
                raise RulesError(bp.box.actions[0].field, "a blackjack (21 with the first two "
                                 f"cards) takes no further decision ({ref(self.pid, 'hit')})")
            if bp.box.even_money:
                self.log(f"{hand.label}: blackjack against an ace, even money taken "
                         f"({ref(self.pid, 'even_money')})")
                for r, stake in enumerate(hand.stakes):
                    self.record(bp.box, 1, r, self.pay.pays(
                        "main", stake, 1, 1, "even_money", "blackjack, even money taken",
                        self._extra(hand), self._excess(bp, hand, r)))
                hand.state = "even_money"
            elif now:
                self.log(f"{hand.label}: blackjack paid at once, the dealer's first card {up} "
                         f"cannot make blackjack ({ref(self.pid, 'immediate_pay')})")
                for r, stake in enumerate(hand.stakes):
                    self.record(bp.box, 1, r, self.pay.pays(
                        "main", stake, 3, 2, "blackjack", "blackjack paid at once",
                        self._extra(hand), self._excess(bp, hand, r)))
                hand.state = "blackjack"
            else:
                self.log(f"{hand.label}: blackjack waits for the dealer's hand "
                         f"({ref(self.pid, 'immediate_pay')})")
                hand.state = "waiting_bj"

    def _paid_at_once(self, up: Card) -> bool:
        mode = self.rules.immediate_pay
        if mode == "not_ace":
            return up.rank != ACE
        if mode == "not_ace_or_ten":
            return value(up) not in (ACE, TEN)
        return False

    def _tail(self) -> None:
        while (entry := self.cursor.peek()) is not None:
            if entry.irregularity == "after_round":
                self.cursor.burn(self.cursor.take(), "after_round")
                continue
            if entry.irregularity == "dealer_extra":
                raise RulesError(f"{entry.field}.irregularity", "a dealer's extra card must "
                                 "follow the dealer's last card")
            raise RulesError(entry.field, f"card {entry.card} is left over after the round "
                             "ended; if it was drawn after the round mark it "
                             "{\"irregularity\": \"after_round\"} "
                             f"({ref(self.pid, 'irregular')})")

    def _incomplete(self, needed_for: str) -> None:
        if not self.rnd.incomplete:
            raise RulesError("cards", f"the sequence ends before the round is complete: a "
                             f"card is still needed ({needed_for})")
        self.rules.lazy("bj_incomplete_round", "incomplete")
        why = "round could not be finished: cut card never inserted"
        self.log(f"The sequence ends ({needed_for}): {why}; only two-card 21s are paid, "
                 f"every other bet is void ({ref(self.pid, 'incomplete_round')})")
        for bp in self.boxes:
            for hand in bp.hands:
                for r, stake in enumerate(hand.stakes):
                    if ("main", bp.box.seat, hand.number, r) in self.settled:
                        continue
                    ex = self._excess(bp, hand, r)
                    hand.state = "blackjack" if hand.natural else "void"
                    if hand.natural:
                        bet = self.pay.pays("main", stake, 3, 2, "incomplete_round", why,
                                            self._extra(hand), ex)
                    else:
                        bet = self.pay.void("main", stake, "incomplete_round", why,
                                            self._extra(hand), ex)
                    self.record(bp.box, hand.number, r, bet)
            self._void_side_bets(bp, why, "incomplete_round")

    def _void_all(self) -> RoundResult:
        self.rules.lazy("bj_malfunction", "void")
        why = "system malfunction: every bet is void"
        self.log(f"{why} ({ref(self.pid, 'malfunction')})")
        for box in self.rnd.boxes:
            bp = BoxPlay(box, box_stakes(box, self.rnd, self.rules), [],
                         insurance_open=[a > 0 for a in box.insurance],
                         insurance_ten_open=box.insurance_ten > 0)
            bp.hands = [PlayerHand(box, 1, list(bp.stakes.playing))]
            self.boxes.append(bp)
            self._void_box(bp, why, "malfunction")
        return self._result()

    def _promotions(self) -> None:
        if not self.rules.promotions:
            return
        for bp in self._dealt():
            for hand in bp.hands:
                for name in promotions_won(hand.cards, hand.natural):
                    to, key, text = PROMOTIONS[name]
                    self.record(bp.box, hand.number, 0, self.pay.bonus(
                        hand.stakes[0], to, key, text, {"promotion": name, **self._extra(hand)}))


def play_round(rnd: RoundInput, rules: BjRules, decider: Decider | None = None,
               shoe_continues: bool = False) -> RoundResult:
    """Settle one round. `shoe_continues`: the cards are a shoe to deal from, not the exact
    sequence of the round, so cards left after the round are not an error (autoplay)."""
    return RoundPlay(rnd, rules, decider or ListDecider(), shoe_continues).run()


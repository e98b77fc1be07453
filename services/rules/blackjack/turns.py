"""The players' turns: each box's hands in order, each decision checked then applied."""
from __future__ import annotations

from services.rules.blackjack import decisions
from services.rules.blackjack.hand import ACE, total
from services.rules.blackjack.refs import ref
from services.rules.blackjack.request import Action
from services.rules.blackjack.state import BoxPlay, PlayerHand, RoundState
from services.rules.core.errors import RulesError


class PlayerTurns(RoundState):
    def _play_box(self, bp: BoxPlay) -> None:
        i = 0
        while i < len(bp.hands):
            hand = bp.hands[i]
            if len(hand.cards) == 1:
                self._give(hand, "second card of a split hand")
                self._after_card(bp, hand)
            self._play_hand(bp, hand)
            i += 1
        extra = self.decider.leftover(bp.box)
        if extra is not None:
            ends = "; ".join(f"hand {h.number} {' '.join(map(str, h.cards))}: "
                             f"{h.finished_because or h.state}" for h in bp.hands)
            raise RulesError(extra.field, f"no hand of seat {bp.box.seat} is left to "
                             f"{extra.kind}: every hand had finished ({ends})")

    def _play_hand(self, bp: BoxPlay, hand: PlayerHand) -> None:
        while hand.state == "open":
            legal = decisions.legal(bp, hand, self.dealer[0], self.rules)
            if legal == ("stand",):
                hand.state = "stood"
                hand.finished_because = decisions.why_not(
                    Action("hit", ""), bp, hand, self.dealer[0], self.rules) or ""
                self.log(f"  {hand.label} is complete at {total(hand.cards)}: "
                         f"{hand.finished_because}")
                return
            action = self.decider.decide(bp.box, hand, legal, self.dealer[0])
            if action is None:
                hand.state = "stood"
                self.log(f"  {hand.label}: no further decision recorded: stands on "
                         f"{total(hand.cards)}")
                return
            reason = decisions.why_not(action, bp, hand, self.dealer[0], self.rules)
            if reason:
                raise RulesError(action.field, f"{hand.label} cannot {action.kind} "
                                 f"with {' '.join(map(str, hand.cards))} "
                                 f"({total(hand.cards)}): {reason}")
            self.log(f"  {hand.label} {action.kind} on {total(hand.cards)} — allowed "
                     f"({decisions.why_allowed(action.kind, self.rules)})")
            self._apply(bp, hand, action)

    def _apply(self, bp: BoxPlay, hand: PlayerHand, action: Action) -> None:
        first = not hand.acted
        hand.acted = True
        kind = action.kind
        if kind == "stand":
            hand.state = "stood"
        elif kind == "hit":
            self._give(hand, "hit")
            self._after_card(bp, hand)
        elif kind == "double":
            extra = action.amount if action.amount is not None else hand.stakes[0]
            hand.stakes = [s + (extra if len(hand.stakes) == 1 else s) for s in hand.stakes]
            hand.doubled = True
            self._give(hand, "double, one card")
            self._after_card(bp, hand)
        elif kind == "split":
            self._split(bp, hand)
        elif kind == "surrender":
            assert first
            self._surrender(bp, hand)
        elif kind == "refuse":
            entry = self.cursor.draw(f"{hand.label} disputed card")
            self.cursor.burn(entry, "refused")
            if self.rules.lazy("bj_refused_card", action.field) == "burn_and_stand":
                hand.refused = True
                hand.state = "stood"
                self.log(f"  {hand.label} loses the right to further cards and stands on "
                         f"{total(hand.cards)} ({ref(self.pid, 'irregular')})")

    def _after_card(self, bp: BoxPlay, hand: PlayerHand) -> None:
        t = total(hand.cards)
        if t.bust:
            hand.state, hand.finished_because = "bust", f"busts with {t.hard}"
            self.log(f"  {hand.label} busts with {t.hard}: bet collected at once "
                     f"({ref(self.pid, 'bust')})")
            for r, stake in enumerate(hand.stakes):
                self.record(bp.box, hand.number, r, self.pay.loses(
                    "main", stake, "bust", f"player busts with {t.hard}", self._extra(hand),
                    self._excess(bp, hand, r)))
        elif hand.doubled:
            hand.state, hand.finished_because = "stood", "doubled: one card only"

    def _split(self, bp: BoxPlay, hand: PlayerHand) -> None:
        bp.splits += 1
        aces = hand.cards[0].rank == ACE
        second = PlayerHand(bp.box, 0, list(bp.stakes.playing), [hand.cards.pop()],
                            from_split=True, split_aces=aces)
        hand.from_split, hand.split_aces = True, aces
        bp.hands.insert(bp.hands.index(hand) + 1, second)
        for n, h in enumerate(bp.hands, start=1):
            h.number = n
        self.log(f"  seat {bp.box.seat} splits into {len(bp.hands)} hands; the new hand "
                 f"stakes {sum(second.stakes)} ({ref(self.pid, 'split')})")
        self._give(hand, "second card of a split hand")
        self._after_card(bp, hand)
        if self.rules.split_deal_both:
            self._give(second, "second card of a split hand")
            self._after_card(bp, second)

    def _surrender(self, bp: BoxPlay, hand: PlayerHand) -> None:
        hand.state = "surrendered"
        for r, stake in enumerate(hand.stakes):
            self.record(bp.box, 1, r, self.pay.half_back(
                "main", stake, "surrender", "surrender («paga y retira»)", self._extra(hand),
                self._excess(bp, hand, r)))

"""The state of a blackjack round being played, and the bookkeeping every phase shares.

`RoundState` holds the boxes, the hands, the dealer's cards, the card cursor, the explanation
steps and the bets settled so far; the phases (turns.py, dealer_turn.py, play.py) extend it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from services.rules.blackjack.cursor import Cursor
from services.rules.blackjack.dealer import DealerFinal
from services.rules.blackjack.hand import is_two_card_21, total
from services.rules.blackjack.refs import ref
from services.rules.blackjack.request import Action, BoxInput, RoundInput
from services.rules.blackjack.rules import BjRules
from services.rules.blackjack.settle import Payer
from services.rules.blackjack.stakes import BoxStakes, box_stakes
from services.rules.core.cards import Card
from services.rules.core.results import BetResult

KIND_ORDER = {"perfect_pairs": 0, "insurance": 1, "insurance_ten": 2, "main": 3, "promotion": 4}


@dataclass
class PlayerHand:
    box: BoxInput
    number: int
    stakes: list[int]                 # playing stake per round, doubles included
    cards: list[Card] = field(default_factory=list)
    from_split: bool = False
    split_aces: bool = False
    doubled: bool = False
    refused: bool = False
    acted: bool = False
    # open → stood | bust | surrendered | blackjack | even_money (waiting_bj until the dealer)
    state: str = "open"
    finished_because: str = ""        # why the hand took no more decisions

    @property
    def natural(self) -> bool:
        return not self.from_split and is_two_card_21(self.cards)

    @property
    def label(self) -> str:
        return f"seat {self.box.seat} hand {self.number}"


@dataclass
class BoxPlay:
    box: BoxInput
    stakes: BoxStakes
    hands: list[PlayerHand]
    splits: int = 0
    insurance_open: list[bool] = field(default_factory=list)
    insurance_ten_open: bool = False


class Decider(Protocol):
    def decide(self, box: BoxInput, hand: PlayerHand, legal: tuple[str, ...],
               up: Card) -> Action | None:
        """The next decision for `hand`, or None when no more are recorded (it stands)."""

    def leftover(self, box: BoxInput) -> Action | None:
        """A recorded decision that no hand took (an error in the request)."""


class ListDecider:
    """Reads each box's `actions` in order."""

    def __init__(self) -> None:
        self._next: dict[int, int] = {}

    def decide(self, box: BoxInput, hand: PlayerHand, legal: tuple[str, ...],
               up: Card) -> Action | None:
        i = self._next.get(box.index, 0)
        if i >= len(box.actions):
            return None
        self._next[box.index] = i + 1
        return box.actions[i]

    def leftover(self, box: BoxInput) -> Action | None:
        i = self._next.get(box.index, 0)
        return box.actions[i] if i < len(box.actions) else None


@dataclass
class RoundResult:
    bets: list[BetResult]
    steps: list[str]
    dealer_hands: list[list[Card]]
    hands: list[PlayerHand]
    burned: list[tuple[Any, str]]
    cards_used: int

class RoundState:
    def __init__(self, rnd: RoundInput, rules: BjRules, decider: Decider,
                 shoe_continues: bool = False) -> None:
        self.rnd, self.rules, self.decider = rnd, rules, decider
        self.shoe_continues = shoe_continues
        self.pid = rules.profile.id
        self.pay = Payer(rules)
        self.steps: list[str] = []
        self.bets: list[tuple[tuple[Any, ...], BetResult]] = []
        self.settled: set[tuple[Any, ...]] = set()
        self.cursor = Cursor(rnd.cards, rules.irregular_cards, self.steps.append,
                             str(ref(self.pid, "irregular")))
        self.boxes: list[BoxPlay] = []
        self.dealer: list[Card] = []
        self.dealer_hands: list[list[Card]] = []
        self.rounds = max(len(b.stakes) for b in rnd.boxes)

    def log(self, text: str) -> None:
        self.steps.append(text)

    def record(self, box: BoxInput, hand: int, rnd: int, bet: BetResult) -> None:
        """Right-to-left payment order (seed 002 §2.1.5.3): highest seat first."""
        key = (bet.kind, box.seat, hand, rnd)
        if key in self.settled:
            raise AssertionError(f"bet settled twice: {key}")
        self.settled.add(key)
        extra = {"seat": box.seat, "player": box.player, **bet.extra}
        if bet.kind in ("main", "promotion"):
            extra["hand"] = hand
        if self.rules.challenge21 and bet.kind in ("main", "insurance"):
            extra["round"] = rnd + 1
        settled = BetResult(bet.kind, bet.stake, bet.paid, bet.outcome, bet.rule, bet.detail,
                            bet.excess_returned, extra)
        self.bets.append(((-box.seat, KIND_ORDER[bet.kind], hand, rnd, len(self.bets)), settled))
        self.log(f"  settle {bet.kind} {self._who(box, hand, rnd)}: {bet.outcome.value}, "
                 f"stake {settled.stake}, paid {settled.paid} — {bet.detail} ({bet.rule})")

    def _who(self, box: BoxInput, hand: int, rnd: int) -> str:
        text = f"seat {box.seat}" + (f" hand {hand}" if hand else "")
        return text + (f" dealer hand {rnd + 1}" if self.rules.challenge21 else "")

    def _box_play(self, box: BoxInput) -> BoxPlay:
        stakes = box_stakes(box, self.rnd, self.rules)
        hand = PlayerHand(box, 1, list(stakes.playing))
        bp = BoxPlay(box, stakes, [hand], insurance_open=[a > 0 for a in box.insurance],
                     insurance_ten_open=box.insurance_ten > 0)
        for i, lim in enumerate(stakes.main):
            if lim.excess:
                self.log(f"seat {box.seat}: stake {box.stakes[i]} over the table maximum; "
                         f"{lim.playing_stake} plays, {lim.excess} is returned ({lim.rule})")
            if lim.under_minimum:
                self.log(f"seat {box.seat}: stake {box.stakes[i]} under the table minimum, "
                         f"settled on what was staked with the jefe de sala's authorisation "
                         f"({lim.rule}, A-2)")
        return bp

    def _dealt(self) -> list[BoxPlay]:
        return [bp for bp in self.boxes if bp.box.dealt]

    def _extra(self, hand: PlayerHand) -> dict[str, Any]:
        return {"cards": [str(c) for c in hand.cards], "total": str(total(hand.cards))}

    def _excess(self, bp: BoxPlay, hand: PlayerHand, rnd: int) -> int:
        return bp.stakes.main[rnd].excess if hand.number == 1 else 0

    def _void_box(self, bp: BoxPlay, why: str, key: str) -> None:
        for hand in bp.hands:
            for r, stake in enumerate(hand.stakes):
                if ("main", bp.box.seat, hand.number, r) not in self.settled:
                    self.record(bp.box, hand.number, r, self.pay.void(
                        "main", stake, key, why, {}, self._excess(bp, hand, r)))
        self._void_side_bets(bp, why, key)

    def _void_side_bets(self, bp: BoxPlay, why: str, key: str) -> None:
        box = bp.box
        if bp.stakes.perfect_pairs and ("perfect_pairs", box.seat, 0, 0) not in self.settled:
            pp = bp.stakes.perfect_pairs
            self.record(box, 0, 0, self.pay.void("perfect_pairs", pp.playing_stake, key, why,
                                                 {}, pp.excess))
        for r, is_open in enumerate(bp.insurance_open):
            if is_open:
                bp.insurance_open[r] = False
                self.record(box, 0, r, self.pay.void("insurance", box.insurance[r], key, why, {}))
        if bp.insurance_ten_open:
            bp.insurance_ten_open = False
            self.record(box, 0, 0, self.pay.void("insurance_ten", box.insurance_ten, key, why, {}))

    def _give(self, hand: PlayerHand, why: str) -> Card:
        entry = self.cursor.draw(f"{hand.label} {why}")
        hand.cards.append(entry.card)
        self.log(f"  {entry.field} {entry.card} → {hand.label} ({why}): {total(hand.cards)}")
        return entry.card

    def _dealer_card(self, why: str) -> Card:
        entry = self.cursor.draw(f"dealer {why}")
        self.log(f"  {entry.field} {entry.card} → dealer ({why})")
        return entry.card

    def _settle_insurance(self, rnd: int, final: DealerFinal) -> None:
        for bp in self.boxes:
            if rnd < len(bp.insurance_open) and bp.insurance_open[rnd]:
                bp.insurance_open[rnd] = False
                amount = bp.box.insurance[rnd]
                if final.blackjack:
                    bet = self.pay.pays("insurance", amount, 2, 1, "insurance_pay",
                                        "dealer has blackjack", {})
                else:
                    bet = self.pay.loses("insurance", amount, "insurance_pay",
                                         "dealer has no blackjack", {})
                self.record(bp.box, 0, rnd, bet)
            if rnd == 0 and bp.insurance_ten_open:
                bp.insurance_ten_open = False
                amount = bp.box.insurance_ten
                if final.blackjack:
                    bet = self.pay.pays("insurance_ten", amount, 5, 1, "promo_insurance_ten",
                                        "dealer's second card makes blackjack", {})
                else:
                    bet = self.pay.loses("insurance_ten", amount, "promo_insurance_ten",
                                         "dealer has no blackjack", {})
                self.record(bp.box, 0, 0, bet)

    def _settle_hand(self, bp: BoxPlay, hand: PlayerHand, rnd: int, final: DealerFinal) -> None:
        self.record(bp.box, hand.number, rnd, self.pay.settle_main(
            hand.stakes[rnd], hand.cards, hand.natural, final, self._extra(hand),
            self._excess(bp, hand, rnd)))

    def _result(self) -> RoundResult:
        ordered = [b for _, b in sorted(self.bets, key=lambda kb: kb[0])]
        return RoundResult(ordered, self.steps, self.dealer_hands,
                           [h for bp in self.boxes for h in bp.hands], self.cursor.burned,
                           self.cursor.pos)

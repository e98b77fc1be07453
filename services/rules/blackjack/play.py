"""One blackjack round replayed from the card sequence and the players' decisions.

The cards are given in the order they left the shoe; the engine deals them by the profile's
procedure (first card to each box from the dealer's left, one to the dealer, second cards,
LIVE's hole card), applies each decision after checking that the rules allow it with the
cards the hand holds, completes the dealer's hand(s) and settles every bet with its RuleRef.
Every step is written to `steps` for explain(). Nothing here does I/O.

Decisions come from a `Decider`: `ListDecider` reads the request's `actions` (the normal
case); tests and the simulator cross-check use a policy instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from services.rules.blackjack import decisions
from services.rules.blackjack.cursor import Cursor, ShoeExhausted
from services.rules.blackjack.dealer import DealerFinal, final_of, is_moot, stands
from services.rules.blackjack.hand import ACE, TEN, is_two_card_21, total, value
from services.rules.blackjack.refs import ref
from services.rules.blackjack.request import Action, BoxInput, RoundInput
from services.rules.blackjack.rules import BjRules
from services.rules.blackjack.settle import Payer, outcome
from services.rules.blackjack.sidebets import PERFECT_PAIRS, PROMOTIONS, perfect_pairs_kind, \
    promotions_won
from services.rules.blackjack.stakes import BoxStakes, box_stakes, check_players
from services.rules.core.cards import Card
from services.rules.core.errors import RulesError
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
    state: str = "open"               # open stood bust surrendered waiting_bj settled
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


class RoundPlay:
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

    # ------------------------------------------------------------------ driver
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

    def _result(self) -> RoundResult:
        ordered = [b for _, b in sorted(self.bets, key=lambda kb: kb[0])]
        return RoundResult(ordered, self.steps, self.dealer_hands,
                           [h for bp in self.boxes for h in bp.hands], self.cursor.burned,
                           self.cursor.pos)

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

    # ------------------------------------------------------------------ setup
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

    # ------------------------------------------------------------------ deal
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
            self.dealer.append(self.cursor.draw("dealer hole card").card)
            self.log("  dealer hole card dealt face down")

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

    # ------------------------------------------------------------------ side bets, offers
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
            self.log(f"Dealer shows an ace: insurance offered, up to "
                     f"{'exactly ' if self.rules.insurance_exact else ''}half the bet, pays 2:1 "
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
        return True

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
                hand.state = "settled"
            elif now:
                self.log(f"{hand.label}: blackjack paid at once, the dealer's first card {up} "
                         f"cannot make blackjack ({ref(self.pid, 'immediate_pay')})")
                for r, stake in enumerate(hand.stakes):
                    self.record(bp.box, 1, r, self.pay.pays(
                        "main", stake, 3, 2, "blackjack", "blackjack paid at once",
                        self._extra(hand), self._excess(bp, hand, r)))
                hand.state = "settled"
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

    # ------------------------------------------------------------------ players
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

    # ------------------------------------------------------------------ dealer
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

    def _dealer_draws(self, cards: list[Card], rnd: int) -> None:
        h17 = self.rules.dealer_hits_soft17
        while not stands(cards, h17) and not total(cards).bust:
            if is_moot(cards, h17, self._live_bets(rnd)):
                if self.rules.moot_must_stop or not self.cursor.has_card_in_play():
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
                    args = (total(hand.cards).best, len(hand.cards) == 2, hand.natural)
                    bets.append(lambda f, a=args: outcome(*a, f)[0])
            if (rnd < len(bp.insurance_open) and bp.insurance_open[rnd]) or \
                    (rnd == 0 and bp.insurance_ten_open):
                bets.append(lambda f: f.blackjack)
        return bets

    def _settle_hand(self, bp: BoxPlay, hand: PlayerHand, rnd: int, final: DealerFinal) -> None:
        self.record(bp.box, hand.number, rnd, self.pay.settle_main(
            hand.stakes[rnd], hand.cards, hand.natural, final, self._extra(hand),
            self._excess(bp, hand, rnd)))

    def _extra_dealer_cards(self, cards: list[Card]) -> None:
        while (nxt := self.cursor.peek()) is not None and nxt.irregularity == "dealer_extra":
            if not stands(cards, self.rules.dealer_hits_soft17):
                raise RulesError(f"{nxt.field}.irregularity", f"the dealer's {total(cards)} "
                                 f"does not stand by the rule ({ref(self.pid, 'dealer_rule')}), "
                                 "so a card dealt to him here is not an extra card")
            self.cursor.burn(self.cursor.take(), "dealer_extra")

    # ------------------------------------------------------------------ end of round
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


"""Settle one banked poker round: every seat's ANTE/BET (or Go stakes) against the croupier.

Pure: a PokerRound in, a RoundResult out. Every BetResult names the rule that produced it; a
decision taken on an ambiguity carries the A-n reference of domain.md §10 in its rule note.
Payment order is seat 1 first: the seeds pay «de derecha a izquierda de la banca/del
croupier», and seat 1 is «la posición más cercana a la mano derecha del croupier».

Table limits (poker/limits.py): each stake is paid or lost on its playing part; the excess
over the maximum comes back on top whatever the outcome (seed 002 §1.2.1.1, seed 004 RG §4.2).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from services.rules.core.limits import LimitOutcome, annotation, apply_limits
from services.rules.core.money import pay_ratio
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult, Outcome
from services.rules.poker import switches as sw
from services.rules.poker.evaluator import evaluate, evaluate3
from services.rules.poker.limits import seat_limits
from services.rules.poker.request import PokerRound, SeatHand, dealer_needed
from services.rules.poker.variants import GO_MINIMUM, VariantSpec

FOLD_RULES = {
    "BO": RuleRef("000", "§2.3.7.1.1", quote="a todos los jugadores que no se rindieron"),
    "CL-ARICA": RuleRef("004", "III §3.5.1",
                        quote="Los que opten por retirarse de la partida perderán la primera "
                              "apuesta"),
}
VOID_RULES = {
    "BO": RuleRef("000", "§2.3.7.1", quote="se anula la mano de ese jugador"),
    "CL-ARICA": RuleRef("004", "III §3.6.4", quote="se anula la mano de ese jugador"),
}
BUY_RULE = RuleRef("004", "III §3.5.1",
                   quote="poner fichas de juego equivalentes a la 1ª apuesta (ANTE)")


@dataclass(frozen=True)
class SeatOutcome:
    seat: SeatHand
    value: int | None             # best hand value (None: void hand)
    versus: str                   # "win" | "tie" | "lose" | "fold" | "void" | "unqualified" | ...
    bets: tuple[BetResult, ...]


@dataclass(frozen=True)
class RoundResult:
    round: PokerRound
    dealer_value: int | None
    dealer_qualifies: bool | None
    seats: tuple[SeatOutcome, ...]


Stakes = Mapping[str, LimitOutcome]   # "ante", "bet", "go_1", "go_2" -> what plays


def hand_value(variant: VariantSpec, cards: tuple[int, ...]) -> int:
    return evaluate3(*cards) if variant.three_card else evaluate(cards)


def settle_round(rnd: PokerRound, profile: Profile) -> RoundResult:
    variant = rnd.variant
    if rnd.void:
        seats = tuple(_void(s, profile, f"round annulled: {rnd.void}") for s in rnd.seats)
        return RoundResult(rnd, None, None, seats)
    dealer = hand_value(variant, rnd.dealer) if dealer_needed(variant, profile) else None
    qualifies = None
    if variant.qualifier is not None and dealer is not None:
        qualifies = dealer >= variant.qualifier.value
    settle = _settle_go if variant.name == "go" else _settle_ante_bet
    seats = tuple(_void(s, profile, s.void) if s.void else settle(
        s, _stakes(s, rnd, profile), variant, profile, dealer, qualifies) for s in rnd.seats)
    return RoundResult(rnd, dealer, qualifies, seats)


def _stakes(seat: SeatHand, rnd: PokerRound, profile: Profile) -> Stakes:
    return seat_limits(seat.path, seat.ante, seat.bet, seat.go, rnd.limits, profile)


def _settle_ante_bet(seat: SeatHand, stakes: Stakes, variant: VariantSpec, profile: Profile,
                     dealer: int | None, qualifies: bool | None) -> SeatOutcome:
    value = hand_value(variant, seat.cards)
    rule, ante, bet = variant.rule, stakes["ante"], stakes.get("bet")
    if bet is None:
        lost = _bet(seat, "ante", ante, 0, Outcome.LOSE, FOLD_RULES[profile.id],
                    "«no voy»: the player folded and loses the ANTE")
        return SeatOutcome(seat, value, "fold", (lost,))
    extra = (_purchase(seat, ante),) if seat.discarded and variant.name == "arica_plus" else ()
    assert dealer is not None and qualifies is not None
    if not qualifies:
        return SeatOutcome(seat, value, "unqualified",
                           extra + _unqualified(seat, stakes, variant, profile))
    if value == dealer:
        text = "equal hands, card by card: neutral, stakes returned"
        bets = (_bet(seat, "ante", ante, ante.playing_stake, Outcome.PUSH, rule, text),
                _bet(seat, "bet", bet, bet.playing_stake, Outcome.PUSH, rule, text))
        return SeatOutcome(seat, value, "tie", extra + bets)
    if value < dealer:
        text = "the croupier's hand is higher: ANTE and BET lose"
        bets = (_bet(seat, "ante", ante, 0, Outcome.LOSE, rule, text),
                _bet(seat, "bet", bet, 0, Outcome.LOSE, rule, text))
        return SeatOutcome(seat, value, "lose", extra + bets)
    return SeatOutcome(seat, value, "win", extra + _winning(seat, stakes, variant, profile, value))


def _unqualified(seat: SeatHand, stakes: Stakes, variant: VariantSpec,
                 profile: Profile) -> tuple[BetResult, ...]:
    assert variant.qualifier is not None
    why = f"the croupier does not open (needs {variant.qualifier.text})"
    a, b = stakes["ante"], stakes["bet"]
    ante = _bet(seat, "ante", a, a.playing_stake + pay_ratio(a.playing_stake, 1, 1,
                                                             profile.rounding),
                Outcome.WIN, variant.rule, f"{why}: ANTE paid 1 to 1")
    returned = profile.switch(sw.BET_UNQUALIFIED) == "returned"
    note = f"A-20: BET {'returned' if returned else 'lost'} when the croupier does not open"
    bet = _bet(seat, "bet", b, b.playing_stake if returned else 0,
               Outcome.PUSH if returned else Outcome.LOSE, _with_note(variant.rule, note),
               f"{why}: BET {'returned' if returned else 'collected'}")
    return ante, bet


def _winning(seat: SeatHand, stakes: Stakes, variant: VariantSpec, profile: Profile,
             value: int) -> tuple[BetResult, ...]:
    ratio, bet_note = variant.table.get(variant.hand_class(value)), None
    if ratio is None:  # only a three-card high card can win without a table row
        ratio, how = _one_or_nothing(profile, sw.THREE_CARD_HIGH_CARD_WIN)
        bet_note = f"high card win: BET {how}"
    ante_ratio, ante_note = 1, None
    if variant.three_card:
        ante_ratio, how = _one_or_nothing(profile, sw.THREE_CARD_ANTE_ON_WIN)
        ante_note = f"A-21: ANTE {how}"
    ante = _pays(seat, "ante", stakes["ante"], ante_ratio, variant.rule, ante_note, profile,
                 f"beats the croupier: ANTE {ante_ratio} to 1")
    bet = _pays(seat, "bet", stakes["bet"], ratio, variant.rule, bet_note, profile,
                f"beats the croupier with {variant.class_label(value)}: BET {ratio} to 1 "
                "per the pay table")
    return ante, bet


def _one_or_nothing(profile: Profile, switch: str) -> tuple[int, str]:
    """A 'paid_1_to_1' / 'returned' switch as a ratio and words."""
    paid = profile.switch(switch) == "paid_1_to_1"
    return (1, "paid 1 to 1") if paid else (0, "returned")


def _settle_go(seat: SeatHand, playing: Stakes, variant: VariantSpec, profile: Profile,
               dealer: int | None, qualifies: bool | None) -> SeatOutcome:
    value = hand_value(variant, seat.cards)
    stakes = tuple(playing.items())   # ante, go_1, go_2
    if seat.folded:
        note = ("Go Poker fold: the seed only says unfolded hands are compared; stakes placed "
                "are lost")
        return SeatOutcome(seat, value, "fold", tuple(
            _bet(seat, k, a, 0, Outcome.LOSE, _with_note(variant.rule, note),
                 "did not go («ir») both times: not compared") for k, a in stakes))
    reading = profile.switch(sw.GO_SETTLEMENT)
    rule = _with_note(variant.rule, f"A-22: settled as '{reading}'")
    if value < GO_MINIMUM.value:
        return SeatOutcome(seat, value, "lose", tuple(
            _bet(seat, k, a, 0, Outcome.LOSE, rule, "below a pair of tens: «declaradas perdedoras»")
            for k, a in stakes))
    if reading == "vs_dealer" and dealer is not None and value <= dealer:
        tie = value == dealer
        return SeatOutcome(seat, value, "tie" if tie else "lose", tuple(
            _bet(seat, k, a, a.playing_stake if tie else 0,
                 Outcome.PUSH if tie else Outcome.LOSE, rule,
                 "equal to the croupier: neutral" if tie else "the croupier's hand is higher")
            for k, a in stakes))
    ratio = variant.table[variant.hand_class(value)]
    return SeatOutcome(seat, value, "win", tuple(
        _pays(seat, k, a, ratio, rule, None, profile,
              f"{variant.class_label(value)}: {ratio} to 1 per the pay table") for k, a in stakes))


def _void(seat: SeatHand, profile: Profile, reason: str | None) -> SeatOutcome:
    """A void hand did not play: every stake comes back whole, no limit applies."""
    rule = VOID_RULES[profile.id]
    stakes = [("ante", seat.ante)] + ([("bet", seat.bet)] if seat.bet else []) + \
        [(f"go_{i + 1}", a) for i, a in enumerate(seat.go)]
    return SeatOutcome(seat, None, "void", tuple(
        _bet(seat, k, apply_limits(a, None, profile), a, Outcome.VOID, rule,
             f"hand annulled ({reason}): stake returned") for k, a in stakes))


def _purchase(seat: SeatHand, ante: LimitOutcome) -> BetResult:
    """The card's price is the ANTE that plays; any part of it over that comes back."""
    price = replace(ante, under_minimum=False)
    return _bet(seat, "card_purchase", price, 0, Outcome.LOSE, BUY_RULE,
                "bought one card (ARICA Plus): the price, equal to the ANTE, goes to the rack")


def _pays(seat: SeatHand, kind: str, stake: LimitOutcome, ratio: int, rule: RuleRef,
          note: str | None, profile: Profile, detail: str) -> BetResult:
    won = pay_ratio(stake.playing_stake, ratio, 1, profile.rounding)
    return _bet(seat, kind, stake, stake.playing_stake + won,
                Outcome.WIN if won else Outcome.PUSH, _with_note(rule, note) if note else rule,
                detail)


def _bet(seat: SeatHand, kind: str, stake: LimitOutcome, paid: int, outcome: Outcome,
         rule: RuleRef, detail: str) -> BetResult:
    """`paid` is what the playing stake earns; the excess over the maximum comes on top."""
    words, limit_fields = annotation(stake)
    return BetResult(kind, stake.playing_stake + stake.excess, paid + stake.excess, outcome,
                     rule, "; ".join(filter(None, (detail, words))), stake.excess,
                     {"seat": seat.seat, **limit_fields})


def _with_note(rule: RuleRef, note: str) -> RuleRef:
    return RuleRef(rule.seed, rule.section, rule.quote, note)

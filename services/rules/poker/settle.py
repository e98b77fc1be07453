"""Settle one banked poker round: every seat's ANTE/BET (or Go stakes) against the croupier.

Pure: a PokerRound in, a RoundResult out. Every BetResult names the rule that produced it; a
decision taken on an ambiguity carries the A-n reference of domain.md §10 in its rule note.
Payment order is seat 1 first: the seeds pay «de derecha a izquierda de la banca/del
croupier», and seat 1 is «la posición más cercana a la mano derecha del croupier».
"""
from __future__ import annotations

from dataclasses import dataclass

from services.rules.core.money import pay_ratio
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult, Outcome
from services.rules.poker import switches as sw
from services.rules.poker.evaluator import evaluate, evaluate3
from services.rules.poker.request import PokerRound, SeatHand, dealer_needed
from services.rules.poker.variants import GO_MINIMUM, VariantSpec

FOLD_RULES = {
    "BO": RuleRef("000", "§2.3.7.1.1", quote="a todos los jugadores que no se rindieron"),
    "CL-ARICA": RuleRef("004", "III §3.5.1",
                        quote="Los que opten por retirarse de la partida perderán la primera apuesta"),
}
VOID_RULES = {
    "BO": RuleRef("000", "§2.3.7.1", quote="se anula la mano de ese jugador"),
    "CL-ARICA": RuleRef("004", "III §3.6.4", quote="se anula la mano de ese jugador"),
}
BUY_RULE = RuleRef("004", "III §3.5.1", quote="poner fichas de juego equivalentes a la 1ª apuesta (ANTE)")


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
    seats = tuple(_void(s, profile, s.void) if s.void
                  else settle(s, variant, profile, dealer, qualifies) for s in rnd.seats)
    return RoundResult(rnd, dealer, qualifies, seats)


def _settle_ante_bet(seat: SeatHand, variant: VariantSpec, profile: Profile,
                     dealer: int | None, qualifies: bool | None) -> SeatOutcome:
    value = hand_value(variant, seat.cards)
    rule = variant.rule
    if seat.bet is None:
        ante = _bet(seat, "ante", seat.ante, 0, Outcome.LOSE, FOLD_RULES[profile.id],
                    "«no voy»: the player folded and loses the ANTE")
        return SeatOutcome(seat, value, "fold", (ante,))
    extra = (_purchase(seat),) if seat.discarded and variant.name == "arica_plus" else ()
    assert dealer is not None and qualifies is not None
    if not qualifies:
        return SeatOutcome(seat, value, "unqualified", extra + _unqualified(seat, variant, profile))
    if value == dealer:
        text = "equal hands, card by card: neutral, stakes returned"
        bets = (_bet(seat, "ante", seat.ante, seat.ante, Outcome.PUSH, rule, text),
                _bet(seat, "bet", seat.bet, seat.bet, Outcome.PUSH, rule, text))
        return SeatOutcome(seat, value, "tie", extra + bets)
    if value < dealer:
        text = "the croupier's hand is higher: ANTE and BET lose"
        bets = (_bet(seat, "ante", seat.ante, 0, Outcome.LOSE, rule, text),
                _bet(seat, "bet", seat.bet, 0, Outcome.LOSE, rule, text))
        return SeatOutcome(seat, value, "lose", extra + bets)
    return SeatOutcome(seat, value, "win", extra + _winning(seat, variant, profile, value))


def _unqualified(seat: SeatHand, variant: VariantSpec, profile: Profile) -> tuple[BetResult, ...]:
    assert variant.qualifier is not None and seat.bet is not None
    why = f"the croupier does not open (needs {variant.qualifier.text})"
    ante = _bet(seat, "ante", seat.ante, seat.ante + pay_ratio(seat.ante, 1, 1, profile.rounding),
                Outcome.WIN, variant.rule, f"{why}: ANTE paid 1 to 1")
    returned = profile.switch(sw.BET_UNQUALIFIED) == "returned"
    note = f"A-20: BET {'returned' if returned else 'lost'} when the croupier does not open"
    bet = _bet(seat, "bet", seat.bet, seat.bet if returned else 0,
               Outcome.PUSH if returned else Outcome.LOSE, _with_note(variant.rule, note),
               f"{why}: BET {'returned' if returned else 'collected'}")
    return ante, bet


def _winning(seat: SeatHand, variant: VariantSpec, profile: Profile,
             value: int) -> tuple[BetResult, ...]:
    assert seat.bet is not None
    ratio, bet_note = variant.table.get(variant.hand_class(value)), None
    if ratio is None:  # only a three-card high card can win without a table row
        ratio, how = _one_or_nothing(profile, sw.THREE_CARD_HIGH_CARD_WIN)
        bet_note = f"high card win: BET {how}"
    ante_ratio, ante_note = 1, None
    if variant.three_card:
        ante_ratio, how = _one_or_nothing(profile, sw.THREE_CARD_ANTE_ON_WIN)
        ante_note = f"A-21: ANTE {how}"
    ante = _pays(seat, "ante", seat.ante, ante_ratio, variant.rule, ante_note, profile,
                 f"beats the croupier: ANTE {ante_ratio} to 1")
    bet = _pays(seat, "bet", seat.bet, ratio, variant.rule, bet_note, profile,
                f"beats the croupier with {variant.class_label(value)}: BET {ratio} to 1 "
                "per the pay table")
    return ante, bet


def _one_or_nothing(profile: Profile, switch: str) -> tuple[int, str]:
    """A 'paid_1_to_1' / 'returned' switch as a ratio and words."""
    paid = profile.switch(switch) == "paid_1_to_1"
    return (1, "paid 1 to 1") if paid else (0, "returned")


def _settle_go(seat: SeatHand, variant: VariantSpec, profile: Profile,
               dealer: int | None, qualifies: bool | None) -> SeatOutcome:
    value = hand_value(variant, seat.cards)
    stakes = (("ante", seat.ante),) + tuple((f"go_{i + 1}", a) for i, a in enumerate(seat.go))
    if seat.folded:
        note = "Go Poker fold: the seed only says unfolded hands are compared; stakes placed are lost"
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
            _bet(seat, k, a, a if tie else 0, Outcome.PUSH if tie else Outcome.LOSE, rule,
                 "equal to the croupier: neutral" if tie else "the croupier's hand is higher")
            for k, a in stakes))
    ratio = variant.table[variant.hand_class(value)]
    return SeatOutcome(seat, value, "win", tuple(
        _pays(seat, k, a, ratio, rule, None, profile,
              f"{variant.class_label(value)}: {ratio} to 1 per the pay table") for k, a in stakes))


def _void(seat: SeatHand, profile: Profile, reason: str | None) -> SeatOutcome:
    rule = VOID_RULES[profile.id]
    stakes = [("ante", seat.ante)] + ([("bet", seat.bet)] if seat.bet else []) + \
        [(f"go_{i + 1}", a) for i, a in enumerate(seat.go)]
    return SeatOutcome(seat, None, "void", tuple(
        _bet(seat, k, a, a, Outcome.VOID, rule, f"hand annulled ({reason}): stake returned")
        for k, a in stakes))


def _purchase(seat: SeatHand) -> BetResult:
    return _bet(seat, "card_purchase", seat.ante, 0, Outcome.LOSE, BUY_RULE,
                "bought one card (ARICA Plus): the price, equal to the ANTE, goes to the rack")


def _pays(seat: SeatHand, kind: str, stake: int, ratio: int, rule: RuleRef, note: str | None,
          profile: Profile, detail: str) -> BetResult:
    won = pay_ratio(stake, ratio, 1, profile.rounding)
    return _bet(seat, kind, stake, stake + won, Outcome.WIN if won else Outcome.PUSH,
                _with_note(rule, note) if note else rule, detail)


def _bet(seat: SeatHand, kind: str, stake: int, paid: int, outcome: Outcome, rule: RuleRef,
         detail: str) -> BetResult:
    return BetResult(kind, stake, paid, outcome, rule, detail, extra={"seat": seat.seat})


def _with_note(rule: RuleRef, note: str) -> RuleRef:
    return RuleRef(rule.seed, rule.section, rule.quote, note)

"""Money for a Treinta y Cuarenta coup: every bet, the insurance premiums, the prison."""
from __future__ import annotations

from fractions import Fraction

from services.rules.core.money import apply_fraction, pay_ratio
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult, Outcome
from services.rules.trente_quarante.request import TQBet, TQRequest
from services.rules.trente_quarante.rules import A19, KINDS, Decision, decide

PREMIUM = Fraction(1, 100)   # «el equivalente al 1% de la apuesta bloqueada»
HALF = Fraction(1, 2)
REFAIT = RuleRef("000", "§2.4.5.2", note=A19)


def paid_for(stake: int, outcome: Outcome, profile: Profile) -> int:
    if outcome is Outcome.WIN:
        return stake + pay_ratio(stake, 1, 1, profile.rounding)
    if outcome is Outcome.PUSH:
        return stake
    if outcome is Outcome.HALF_BACK:
        return apply_fraction(stake, HALF, profile.rounding)
    return 0  # LOSE; PRISON keeps the stake on the layout, nothing handed back yet


def _result(bet: TQBet, decision: Decision, profile: Profile) -> BetResult:
    extra: dict[str, object] = {"id": bet.id}
    if bet.imprisoned:
        extra["was_imprisoned"] = True
    if decision.outcome is Outcome.PRISON:
        extra["imprisoned_stake"] = bet.amount
    return BetResult(bet.kind, bet.amount, paid_for(bet.amount, decision.outcome, profile),
                     decision.outcome, decision.rule, decision.why, extra=extra)


def _premium(bet: TQBet, profile: Profile) -> BetResult:
    fee = apply_fraction(bet.amount, PREMIUM, profile.rounding)
    return BetResult("insurance", fee, 0, Outcome.LOSE, REFAIT,
                     f"1 % «seguro» on the imprisoned {KINDS[bet.kind]} {bet.id}, "
                     "kept by the house",
                     extra={"id": bet.id})


def settle_bets(req: TQRequest, profile: Profile) -> list[tuple[TQBet, BetResult]]:
    """One result per bet in request order, each insurance premium right before its bet."""
    reading = profile.switch("tq_color_card")
    out: list[tuple[TQBet, BetResult]] = []
    for bet in req.bets:
        if bet.surrender:
            decision = Decision(Outcome.HALF_BACK, REFAIT, f"{KINDS[bet.kind]} in prison "
                                "surrendered: half handed to the croupier, half returned")
        else:
            assert req.coup is not None
            if bet.insured:
                out.append((bet, _premium(bet, profile)))
            decision = decide(bet.kind, req.coup.result(), reading,
                              imprisoned=bet.imprisoned, insured=bet.insured)
        out.append((bet, _result(bet, decision, profile)))
    return out

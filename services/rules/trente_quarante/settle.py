"""Money for a Treinta y Cuarenta coup: every bet, the insurance premiums, the prison.

Table limits (seed 002 §1.2.1.1): a bet over the maximum plays the maximum and the excess is
returned when the bet is decided, won or lost; an under-minimum bet is settled on its stake
and flagged (domain.md A-2). A bet the 31 tie sends to prison is not decided: it keeps its
whole amount in `state.prison`, and the limits apply when it comes back and is decided (its
surrender half and its 1 % premium are taken on the playing stake).
"""
from __future__ import annotations

from fractions import Fraction

from services.rules.core.limits import LimitOutcome, annotation, apply_limits, check_no_cascade
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


def _result(bet: TQBet, decision: Decision, profile: Profile, lim: LimitOutcome) -> BetResult:
    extra: dict[str, object] = {"id": bet.id}
    if bet.imprisoned:
        extra["was_imprisoned"] = True
    if decision.outcome is Outcome.PRISON:
        extra["imprisoned_stake"] = bet.amount
        why = decision.why + (f"; {lim.excess} over the table maximum, returned when the bet "
                              "is decided" if lim.excess else "")
        return BetResult(bet.kind, bet.amount, 0, decision.outcome, decision.rule, why,
                         extra=extra)
    words, limit_fields = annotation(lim)
    paid = paid_for(lim.playing_stake, decision.outcome, profile) + lim.excess
    return BetResult(bet.kind, bet.amount, paid, decision.outcome, decision.rule,
                     "; ".join(filter(None, (decision.why, words))), lim.excess,
                     {**extra, **limit_fields})


def _premium(bet: TQBet, profile: Profile, lim: LimitOutcome) -> BetResult:
    fee = apply_fraction(lim.playing_stake, PREMIUM, profile.rounding)
    on = f" (on the {lim.playing_stake} that plays, {lim.rule})" if lim.excess else ""
    return BetResult("insurance", fee, 0, Outcome.LOSE, REFAIT,
                     f"1 % «seguro» on the imprisoned {KINDS[bet.kind]} {bet.id}{on}, "
                     "kept by the house",
                     extra={"id": bet.id})


def settle_bets(req: TQRequest, profile: Profile) -> list[tuple[TQBet, BetResult]]:
    """One result per bet in request order, each insurance premium right before its bet."""
    reading = profile.switch("tq_color_card")
    if req.limits is not None:
        check_no_cascade(profile, "trente_quarante")
    out: list[tuple[TQBet, BetResult]] = []
    for i, bet in enumerate(req.bets):
        lim = apply_limits(bet.amount, req.limits, profile, f"bets[{i}].amount")
        if bet.surrender:
            decision = Decision(Outcome.HALF_BACK, REFAIT, f"{KINDS[bet.kind]} in prison "
                                "surrendered: half handed to the croupier, half returned")
        else:
            assert req.coup is not None
            if bet.insured:
                out.append((bet, _premium(bet, profile, lim)))
            decision = decide(bet.kind, req.coup.result(), reading,
                              imprisoned=bet.imprisoned, insured=bet.insured)
        out.append((bet, _result(bet, decision, profile, lim)))
    return out

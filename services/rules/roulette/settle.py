"""Settle roulette bets on one pocket: the plain (reference) path.

Money: the playing stake times the decision's multiplier, rounded once by the profile's
rounding switch; over-maximum stakes are handled per the profile's `over_max` switch
(core.limits): return the excess (BO, CL), cascade or forfeit it (AR), or reject (LIVE-GG).
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from services.rules.core.errors import FieldError, RulesError
from services.rules.core.limits import LimitOutcome, apply_limits
from services.rules.core.profiles import Profile
from services.rules.core.results import BetResult, Outcome
from services.rules.roulette.bets import CALLED_KINDS, RouletteBet, check_amount, coverage
from services.rules.roulette.called import called_rule, expand
from services.rules.roulette.decide import Decision, decide
from services.rules.roulette.layout import WHEELS, Wheel
from services.rules.roulette.limits import CASCADE_RULE, Limits, cascade, limits_for
from services.rules.roulette.paytable import check_wheel, pay_for


def wheel_for(profile: Profile, wheel: object) -> Wheel:
    if not isinstance(wheel, str) or wheel not in WHEELS:
        raise RulesError("wheel", f"unknown wheel {wheel!r}; known: {', '.join(WHEELS)}")
    check_wheel(profile, wheel)
    return WHEELS[wheel]


def check_pocket(wheel: Wheel, pocket: object) -> str:
    if not isinstance(pocket, str) or pocket not in wheel.pockets:
        raise RulesError("pocket", f"{pocket!r} is not a pocket of the {wheel.name} wheel "
                         f"({', '.join(sorted(wheel.zeros))}, 1-36, as strings)")
    return pocket


def limit_outcome(profile: Profile, limits: Limits, bet: RouletteBet,
                  amount: int) -> LimitOutcome:
    if bet.imprisoned:  # limits were applied when the stake went to prison
        return apply_limits(amount, None, profile)
    return apply_limits(amount, limits_for(limits, bet.kind, profile), profile, game="roulette")


def _money(stake: int, multiplier: Fraction, profile: Profile) -> int:
    return profile.rounding.apply(Fraction(stake) * multiplier)


def _forfeits_excess(lim: LimitOutcome, bet: RouletteBet, decision: Decision) -> bool:
    """AR, unnoticed excess, number not won: «no tendrá derecho a devolución alguna» (seed
    001) — the excess follows the bet (lost, or imprisoned with it)."""
    return (lim.excess > 0 and lim.policy == "ar_cascade" and not bet.noticed_before_result
            and decision.outcome is not Outcome.WIN)


def _excess(profile: Profile, limits: Limits, bet: RouletteBet, lim: LimitOutcome,
            decision: Decision) -> tuple[int, int, dict]:
    """(extra paid, excess returned, extra fields) for a stake above the maximum that does
    not simply follow the bet."""
    if lim.policy != "ar_cascade" or bet.noticed_before_result:
        return lim.excess, lim.excess, {"limit_rule": str(lim.rule)}
    parts, rest = cascade(profile, limits, bet.kind, lim.excess)
    paid = rest + sum(_money(p, 1 + r, profile) for _, p, r in parts)
    return paid, rest, {"limit_rule": str(CASCADE_RULE) if parts else str(lim.rule),
                        "cascade": [{"kind": k, "stake": p, "ratio": f"{r.numerator}:"
                                     f"{r.denominator}"} for k, p, r in parts]}


def _settle_plain(profile: Profile, wheel: Wheel, bet: RouletteBet, amount: int, pocket: str,
                  limits: Limits) -> BetResult:
    group = coverage(bet, wheel)
    pay = pay_for(profile, bet.kind, wheel.name)
    decision = decide(profile, wheel, bet, group, pay, pocket)
    lim = limit_outcome(profile, limits, bet, amount)
    playing, extra_paid, returned, extra = lim.playing_stake, 0, 0, {}
    if _forfeits_excess(lim, bet, decision):
        playing = amount
        extra = {"limit_rule": str(lim.rule), "excess_played": lim.excess}
    elif lim.excess:
        extra_paid, returned, extra = _excess(profile, limits, bet, lim, decision)
    if lim.under_minimum:
        extra["under_minimum"] = True
        extra["limit_rule"] = f"{lim.rule} (settled on the actual stake; needs the jefe de " \
                              f"sala's authorisation, domain.md A-2)"
    if decision.outcome is Outcome.PRISON:
        extra["imprisoned_stake"] = playing
    paid = _money(playing, decision.multiplier, profile) + extra_paid
    return BetResult(bet.kind, amount, paid, decision.outcome, decision.rule, decision.detail,
                     returned, extra)


def _settle_called(profile: Profile, wheel: Wheel, bet: RouletteBet, amount: int,
                   pocket: str, limits: Limits) -> BetResult:
    if profile.switch("roulette_called_bets") != "allowed":
        raise RulesError("kind", f"profile {profile.id} takes no called bets "
                         f"(switch roulette_called_bets)")
    parts = [_settle_plain(profile, wheel, p, p.amount, pocket, limits)
             for p in expand(bet, amount, wheel)]
    won = any(p.outcome is Outcome.WIN for p in parts)
    paid = sum(p.paid for p in parts)
    detail = f"{bet.kind} expanded into {len(parts)} bets; " + (
        "winning: " + ", ".join(p.detail for p in parts if p.outcome is Outcome.WIN)
        if won else f"{pocket} is not covered: lost")
    return BetResult(bet.kind, amount, paid, Outcome.WIN if won else Outcome.LOSE,
                     called_rule(profile.id, bet.kind), detail,
                     sum(p.excess_returned for p in parts),
                     {"components": [p.to_dict() for p in parts]})


def settle_bet(profile: Profile, wheel: Wheel, bet: RouletteBet, pocket: str,
               limits: Limits = None) -> BetResult:
    amount = check_amount(bet)
    if bet.kind in CALLED_KINDS:
        return _settle_called(profile, wheel, bet, amount, pocket, limits)
    return _settle_plain(profile, wheel, bet, amount, pocket, limits)


def settle_bets(profile: Profile, wheel: str, bets: Sequence[RouletteBet], pocket: str,
                limits: Limits = None) -> list[BetResult]:
    """One BetResult per bet, in order. Every invalid bet is reported at once, each error
    under its position ("bets[2].numbers"); nothing is settled if any bet is invalid."""
    w = wheel_for(profile, wheel)
    check_pocket(w, pocket)
    results, errors = [], []
    for i, bet in enumerate(bets):
        try:
            results.append(settle_bet(profile, w, bet, pocket, limits))
        except RulesError as err:
            errors.extend(_placed(err, i))
    if errors:
        raise RulesError(errors=errors)
    return results


def _placed(err: RulesError, index: int) -> list[FieldError]:
    """Errors under the bet's position (bets[2].numbers), except those about the request's
    own `limits` (a missing per-kind limit): the field to fix is limits.<kind>, not the bet."""
    return [e if e.field.split(".")[0] == "limits" else FieldError(
        f"bets[{index}].{e.field}" if e.field else f"bets[{index}]", e.reason)
        for e in err.errors]

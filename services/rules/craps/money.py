"""Turning a decision into money: integer minor units, one rounding, the rule attached.

Only the playing stake (the part within the table maximum) is paid or lost; the excess comes
back on top whatever the outcome (seed 002 §1.2.1.1, seed 004 RG §4.2; craps/limits.py).
"""
from __future__ import annotations

from typing import Any

from services.rules.core.limits import LimitOutcome, annotation
from services.rules.core.money import apply_fraction, pay_ratio
from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult, Outcome
from services.rules.craps.bets import Bet
from services.rules.craps.paytable import RULE_SECTION, PayTable
from services.rules.craps.rules import Decision, Verdict

OUTCOMES = {Verdict.WIN: Outcome.WIN, Verdict.LOSE: Outcome.LOSE, Verdict.PUSH: Outcome.PUSH}


def extra(bet: Bet, roll_index: int | None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": bet.id, "roll": roll_index}
    if bet.number is not None:
        out["number"] = bet.number
    if bet.on is not None:
        out["on"] = bet.on
    out.update({k: v for k, v in more.items() if v})
    return out


def upfront_commission(table: PayTable, bet: Bet, amount: int, roll_index: int | None
                       ) -> list[BetResult]:
    """The commission collected when a Buy/Lay bet (or an increase of one) is placed under
    craps_buy_lay_commission=5pct_upfront: house money at once, whatever the bet does later."""
    spec = table.commission(bet.kind, bet.number)
    if spec is None or spec[0] != "upfront":
        return []
    fee = apply_fraction(amount, spec[1], table.profile.rounding)
    rule = table.pay(bet.kind, bet.number).rule
    return [BetResult(f"{bet.kind}_commission", fee, 0, Outcome.LOSE, rule,
                      f"5 % commission on {bet.id} collected when placed, not returned",
                      extra=extra(bet, roll_index))]


def settle(bet: Bet, decision: Decision, table: PayTable, roll_index: int,
           lim: LimitOutcome) -> BetResult:
    """`paid` = returned stake + winnings - an on-win commission (craps_buy_lay_commission)
    + any excess over the table maximum."""
    rounding, playing = table.profile.rounding, lim.playing_stake
    paid, fee = 0, 0
    if decision.verdict is Verdict.WIN:
        assert decision.pay is not None
        spec = table.commission(bet.kind, bet.number)
        if spec is not None and spec[0] == "on_win":
            fee = apply_fraction(playing, spec[1], rounding)
        paid = playing + pay_ratio(playing, decision.pay.to, decision.pay.per, rounding) - fee
    elif decision.verdict is Verdict.PUSH:
        paid = playing
    words, limit_fields = annotation(lim)
    return BetResult(bet.kind, bet.amount, paid + lim.excess, OUTCOMES[decision.verdict],
                     decision.rule, "; ".join(filter(None, (decision.why, words))), lim.excess,
                     extra(bet, roll_index, pay=str(decision.pay or ""), commission=fee,
                           **limit_fields))


def returned(bet: Bet, amount: int, rule: RuleRef, why: str, roll_index: int | None) -> BetResult:
    """A withdrawal (the whole bet or the part a reduction takes off): it comes back unplayed."""
    return BetResult(bet.kind, amount, amount, Outcome.VOID, rule, why,
                     extra=extra(bet, roll_index))


def pending(bet: Bet, table: PayTable, why: str, lim: LimitOutcome) -> BetResult:
    """A bet still on the layout after the last roll: not decided, nothing paid yet. A limit
    is applied when it is decided; until then the result only says so."""
    if lim.excess:
        why += f"; {lim.excess} over the table maximum, returned when the bet is decided"
    if lim.under_minimum:
        why += "; under the table minimum (domain.md A-2)"
    return BetResult(bet.kind, bet.amount, 0, Outcome.PENDING, RULE_SECTION[table.profile.id],
                     why, extra=extra(bet, None))

"""Step-by-step reasoning for a supervisor: what the pocket is, what each bet covers, which
rule decided it and how the money follows."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.rules.core.limits import TableLimits
from services.rules.core.profiles import Profile
from services.rules.core.results import BetResult
from services.rules.roulette.bets import (
    CALLED_KINDS,
    EVEN_CHANCES,
    INDEXED,
    RouletteBet,
    coverage,
    sort_pockets,
)
from services.rules.roulette.layout import COLUMNS, DOZENS, RED, Wheel
from services.rules.roulette.limits import Limits
from services.rules.roulette.request import RouletteRequest


def describe_pocket(pocket: str, wheel: Wheel) -> str:
    if pocket in wheel.zeros:
        return f"{pocket} (zero: outside every dozen, column and even chance)"
    n = int(pocket)
    colour = "red" if pocket in RED else "black"
    dozen = next(i for i, g in DOZENS.items() if pocket in g)
    column = next(i for i, g in COLUMNS.items() if pocket in g)
    return (f"{pocket} ({colour}, {'even' if n % 2 == 0 else 'odd'}, "
            f"{'low 1-18' if n <= 18 else 'high 19-36'}, dozen {dozen}, column {column})")


def describe_bet(bet: RouletteBet, wheel: Wheel) -> str:
    if bet.kind in CALLED_KINDS:
        centre = f" of {bet.numbers[0]}" if bet.numbers else ""
        return f"{bet.kind}{centre} (called bet)"
    group = coverage(bet, wheel)
    if bet.kind in INDEXED:
        return f"{bet.kind} {bet.index} (covers {len(group)} numbers)"
    if bet.kind in EVEN_CHANCES:
        return f"{bet.kind} (even chance, 18 numbers)"
    return f"{bet.kind} {'-'.join(sort_pockets(group))}"


def describe_limits(limits: Limits) -> str:
    if limits is None:
        return "none given"
    if isinstance(limits, TableLimits):
        return f"{limits.minimum}–{limits.maximum} per bet"
    return ", ".join(f"{kind} {lim.minimum}–{lim.maximum}" for kind, lim in limits.items())


def _bet_lines(i: int, bet: RouletteBet, result: BetResult, wheel: Wheel) -> list[str]:
    flags = [f for f in ("imprisoned", "noticed_before_result") if getattr(bet, f)]
    head = f"bets[{i}]: {describe_bet(bet, wheel)}, stake {bet.amount}"
    if flags:
        head += f" [{', '.join(flags)}]"
    lines = [head, f"  -> {result.detail} — {result.rule}"]
    if result.rule.note:
        lines.append(f"     note: {result.rule.note}")
    for line in _limit_lines(result.extra):
        lines.append(f"     {line}")
    if result.excess_returned:
        lines.append(f"     excess {result.excess_returned} returned to the player")
    lines.append(f"  -> outcome {result.outcome.value}: paid {result.paid} "
                 f"(net {result.net:+d})")
    return lines


def _limit_lines(extra: Any) -> list[str]:
    lines = []
    if "limit_rule" in extra:
        lines.append(f"limits: {extra['limit_rule']}")
    for part in extra.get("cascade", []):
        lines.append(f"excess {part['stake']} cascades to {part['kind']} at {part['ratio']}")
    if "excess_played" in extra:
        lines.append(f"excess {extra['excess_played']} followed the losing bet (no refund)")
    return lines


def explain_lines(profile: Profile, wheel: Wheel, request: RouletteRequest,
                  results: Sequence[BetResult], reductions: Sequence[dict[str, Any]]
                  ) -> list[str]:
    switches = ", ".join(f"{n}={profile.switch(n)}" for n in
                         ("roulette_zero_even_chance", "roulette_called_bets", "over_max",
                          "rounding"))
    lines = [f"Profile {profile.id}: {profile.name}", f"Switches: {switches}",
             f"Wheel: {wheel.name}, {len(wheel.pockets)} pockets",
             f"Pocket: {describe_pocket(request.pocket, wheel)}",
             f"Limits: {describe_limits(request.limits)}"]
    for i, (bet, result) in enumerate(zip(request.bets, results)):
        lines.extend(_bet_lines(i, bet, result, wheel))
    for view in reductions:
        lines.append(f"Reduction for player {view['player'] or '(unnamed)'} — {view['rule']}:")
        lines.extend(f"  {s}" for s in view["steps"])
        lines.append(f"  {view['plenos']} pleno(s) of {view['chip_value']} on the number; "
                     f"paid {view['paid']} = per-bet total {view['paid_per_bet']}")
    staked = sum(r.stake for r in results)
    paid = sum(r.paid for r in results)
    lines.append(f"Totals: staked {staked}, paid {paid}, house {staked - paid:+d} "
                 f"(bets left in prison are not decided yet)")
    return lines

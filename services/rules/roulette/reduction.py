"""Reductions (reducción, carretel): a payment view, never a different payout.

Seed 001: when several winning multiple bets of one player touch the winning number, they are
reduced before paying, in the order Línea, Calles, Cuadros, Semiplenos: «De cada dos (2)
Semiplenos se formará un (1) Pleno ... cuatro (4) Cuadros ... tres (3) Calles ... seis (6)
Líneas». BO/CL may reduce «alternativamente» (seed 000 §4.1.4.3, seed 004 II §1.5). Each set
returns exactly what one pleno returns (36 chips), so the reduced payment must equal the sum of
the per-bet payouts; chips that do not complete a set are paid on their own (behind the zero
plaque).
"""
from __future__ import annotations

from collections.abc import Sequence
from math import gcd
from typing import Any

from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult, Outcome
from services.rules.roulette.bets import RouletteBet

ORDER = (("six_line", 6), ("street", 3), ("corner", 4), ("split", 2))
RULE = RuleRef("001", quote="De cada dos (2) Semiplenos se formará un (1) Pleno")
STRAIGHT_RETURN = 36  # a pleno returns its stake plus 35


def _unit(bets: Sequence[RouletteBet]) -> int:
    unit = 0
    for b in bets:
        unit = gcd(unit, b.amount)
    return unit


def reduce_player(player: str, pairs: Sequence[tuple[RouletteBet, BetResult]]
                  ) -> dict[str, Any] | None:
    """The reduced view of one player's winning straight and multiple bets (None if fewer
    than two winning multiples, or if a limit changed one of them)."""
    winners = [(b, r) for b, r in pairs if r.outcome is Outcome.WIN
               and b.kind in ("straight", *dict(ORDER)) and not r.excess_returned
               and r.paid == b.amount * STRAIGHT_RETURN // {"straight": 1, **dict(ORDER)}[b.kind]]
    if sum(b.kind != "straight" for b, _ in winners) < 2:
        return None
    unit = _unit([b for b, _ in winners])
    plenos = sum(b.amount // unit for b, _ in winners if b.kind == "straight")
    steps, leftover_paid, leftover = [], 0, {}
    for kind, per in ORDER:
        chips = sum(b.amount // unit for b, _ in winners if b.kind == kind)
        if not chips:
            continue
        formed, rest = divmod(chips, per)
        plenos += formed
        steps.append(f"{chips} {kind} chip(s) of {unit}: {formed} pleno(s), {rest} left over")
        if rest:
            leftover[kind] = rest
            leftover_paid += rest * unit * STRAIGHT_RETURN // per
    return {"player": player, "chip_value": unit, "plenos": plenos, "leftover_chips": leftover,
            "paid": plenos * unit * STRAIGHT_RETURN + leftover_paid,
            "paid_per_bet": sum(r.paid for _, r in winners), "steps": steps, "rule": str(RULE)}


def reductions(bets: Sequence[RouletteBet], players: Sequence[str],
               results: Sequence[BetResult]) -> list[dict[str, Any]]:
    by_player: dict[str, list[tuple[RouletteBet, BetResult]]] = {}
    for bet, player, result in zip(bets, players, results):
        by_player.setdefault(player, []).append((bet, result))
    views = (reduce_player(p, pairs) for p, pairs in by_player.items())
    return [v for v in views if v is not None]

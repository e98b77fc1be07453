"""Step-by-step reasoning of a settled round, for a supervisor resolving a dispute."""
from __future__ import annotations

from typing import Any

from services.rules.core.profiles import Profile
from services.rules.poker.evaluator import card_from_index
from services.rules.poker.hands import describe, describe_three
from services.rules.poker.settle import RoundResult, SeatOutcome


def cards_text(cards: tuple[int, ...]) -> str:
    return " ".join(str(card_from_index(c)) for c in cards) or "(none)"


def explain_round(result: RoundResult, profile: Profile, progressive: dict[str, Any]) -> list[str]:
    rnd = result.round
    v = rnd.variant
    lines = [f"{v.title}, profile {profile.id}; settlement rule {v.rule}.",
             f"Limits: {rnd.limits.describe() if rnd.limits else 'none given'}."]
    if rnd.void:
        lines.append(f"The whole round is annulled ({rnd.void}): every stake is returned.")
    else:
        lines.extend(_dealer_lines(result))
    for out in result.seats:
        lines.extend(_seat_lines(out, result))
    lines.extend(_progressive_lines(progressive))
    return lines


def _describe(result: RoundResult, value: int) -> str:
    return describe_three(value) if result.round.variant.three_card else describe(value)


def _dealer_lines(result: RoundResult) -> list[str]:
    rnd, v = result.round, result.round.variant
    if result.dealer_value is None:
        return ["Go Poker settled on the pay table alone (A-22 'pay_table'): the croupier's hand "
                "does not decide."]
    line = f"Croupier: {cards_text(rnd.dealer)} → {_describe(result, result.dealer_value)}."
    if rnd.dealer_discarded:
        line += f" (discarded {cards_text(rnd.dealer_discarded)})"
    if v.qualifier is None:
        return [line, "No opening requirement for the croupier in this game."]
    verdict = "opens" if result.dealer_qualifies else "does NOT open"
    return [line, f"The croupier needs {v.qualifier.text} to open: he {verdict} ({v.rule})."]


def _seat_lines(out: SeatOutcome, result: RoundResult) -> list[str]:
    seat = out.seat
    head = f"Seat {seat.seat}: "
    if out.value is None:
        head += f"hand annulled ({seat.void})."
    else:
        head += f"{cards_text(seat.cards)} → {_describe(result, out.value)}"
        if seat.discarded:
            head += f"; discarded {cards_text(seat.discarded)}"
        head += f"; result: {out.versus}."
    lines = [head]
    for bet in out.bets:
        note = f" [{bet.rule.note}]" if bet.rule.note else ""
        lines.append(f"  {bet.kind}: stake {bet.stake} → paid {bet.paid} (net {bet.net:+d}), "
                     f"{bet.detail}; {bet.rule}{note}.")
    return lines


def _progressive_lines(progressive: dict[str, Any]) -> list[str]:
    lines = []
    for row in progressive["seats"]:
        text = f"Progressive, seat {row['seat']} ({row['units']} credit(s)): {row['status']}"
        if "hand" in row:
            text += f", hand {row['hand']}"
        if "award" in row:
            text += f", prize {row['award']}"
        if "detail" in row:
            text += f" — {row['detail']}"
        if "limit_detail" in row:
            text += f" — {row['limit_detail']} ({row['limit_rule']})"
        lines.append(text + (f"; {row['rule']}" if "rule" in row else "") + ".")
    pool = progressive["pool"]
    if pool:
        lines.extend(f"Progressive pool: {step}." for step in pool["steps"])
    return lines

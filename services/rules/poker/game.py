"""The "poker" Game of the registry: banked poker of BO (seed 000) and CL-ARICA (seed 004)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.rules.core.profiles import Profile
from services.rules.poker.explain import cards_text, explain_round
from services.rules.poker.request import parse_round
from services.rules.poker.settle import RoundResult, settle_round
from services.rules.poker.side_bet import progressive_report
from services.rules.registry import EdgeRow, totals


class PokerGame:
    name = "poker"
    profiles = frozenset({"BO", "CL-ARICA"})

    def settle(self, request: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
        result = self._result(request, profile)
        bets = [dict(b.to_dict()) for out in result.seats for b in out.bets]
        return {
            "variant": result.round.variant.name,
            "dealer": _dealer(result),
            "seats": [_seat(out, result) for out in result.seats],
            "bets": bets,
            "totals": totals(bets),
            "payment_order": [out.seat.seat for out in result.seats],
            "progressive": progressive_report(result, profile),
        }

    def explain(self, request: Mapping[str, Any], profile: Profile) -> list[str]:
        result = self._result(request, profile)
        return explain_round(result, profile, progressive_report(result, profile))

    def edges(self, profile: Profile) -> list[EdgeRow]:
        from services.rules.poker.edges import edges  # numpy work: imported only when asked
        return edges(profile)

    @staticmethod
    def _result(request: Mapping[str, Any], profile: Profile) -> RoundResult:
        return settle_round(parse_round(request, profile), profile)


def _dealer(result: RoundResult) -> dict[str, Any]:
    v = result.round.variant
    out: dict[str, Any] = {
        "cards": cards_text(result.round.dealer).split() if result.round.dealer else []}
    if result.dealer_value is not None:
        out["hand_class"] = v.class_name(result.dealer_value)
    if result.dealer_qualifies is not None:
        out["qualifies"] = result.dealer_qualifies
        out["qualifier"] = v.qualifier.text if v.qualifier else None
    return out


def _seat(out: Any, result: RoundResult) -> dict[str, Any]:
    v = result.round.variant
    row: dict[str, Any] = {"seat": out.seat.seat, "result": out.versus}
    if out.value is not None:
        row["hand_class"] = v.class_name(out.value)
    return row

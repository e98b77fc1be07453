"""The roulette Game for the registry: settle / explain / edges on JSON-able requests."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.core.results import BetResult
from services.rules.registry import EdgeRow, register, totals
from services.rules.roulette import edges as _edges
from services.rules.roulette.explain import explain_lines
from services.rules.roulette.paytable import PAY_TABLES
from services.rules.roulette.reduction import reductions
from services.rules.roulette.request import RouletteRequest, parse_request
from services.rules.roulette.settle import settle_bets, wheel_for


def _settle(request: Mapping[str, Any], profile: Profile
            ) -> tuple[RouletteRequest, list[BetResult], list[dict[str, Any]]]:
    req = parse_request(request, profile)
    try:
        results = settle_bets(profile, req.wheel, req.bets, req.pocket, req.limits)
    except RulesError as err:
        raise RulesError(errors=[type(e)("outcome.pocket", e.reason) if e.field == "pocket"
                                 else e for e in err.errors]) from None
    views = (reductions(req.bets, req.players, results)
             if req.reduce or profile.id == "AR-RUL" else [])
    return req, results, views


def _bet_dict(req: RouletteRequest, i: int, result: BetResult) -> dict[str, Any]:
    bet = req.bets[i]
    out = result.to_dict()
    if bet.numbers:
        out["numbers"] = list(bet.numbers)
    if bet.index is not None:
        out["index"] = bet.index
    if req.players[i]:
        out["player"] = req.players[i]
    return out


class RouletteGame:
    name = "roulette"
    profiles = frozenset(PAY_TABLES)

    def settle(self, request: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
        req, results, views = _settle(request, profile)
        bets = [_bet_dict(req, i, r) for i, r in enumerate(results)]
        out: dict[str, Any] = {"wheel": req.wheel, "pocket": req.pocket, "bets": bets,
                               "totals": totals(bets)}
        if views:
            out["reductions"] = views
        return out

    def explain(self, request: Mapping[str, Any], profile: Profile) -> list[str]:
        req, results, views = _settle(request, profile)
        return explain_lines(profile, wheel_for(profile, req.wheel), req, results, views)

    def edges(self, profile: Profile) -> list[EdgeRow]:
        return _edges.edges(profile)


GAME = register(RouletteGame())

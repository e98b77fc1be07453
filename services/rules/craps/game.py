"""The craps Game for the registry: settle / explain / edges on JSON-able requests."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.rules.core.profiles import Profile
from services.rules.craps import edges as _edges
from services.rules.craps.explain import explain_lines
from services.rules.craps.paytable import PROFILES
from services.rules.craps.session import run
from services.rules.registry import EdgeRow, totals


class CrapsGame:
    name = "craps"
    profiles = PROFILES

    def settle(self, request: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
        session = run(request, profile)
        decided = [r.to_dict() for r in session.results]
        pending = [r.to_dict() for r in session.end.pending()]
        return {
            "variant": session.request.variant,
            "bets": decided + pending,
            "totals": totals(decided),
            "rolls": [r.to_dict() for r in session.reports],
            "state": {"point": session.end.point,
                      "bets": [b.to_state() for b in session.end.bets]},
        }

    def explain(self, request: Mapping[str, Any], profile: Profile) -> list[str]:
        return explain_lines(profile, run(request, profile))

    def edges(self, profile: Profile) -> list[EdgeRow]:
        return _edges.edges(profile)

"""The Treinta y Cuarenta Game for the registry: settle / explain / edges."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.rules.core.limits import describe_limits
from services.rules.core.profiles import Profile
from services.rules.core.results import Outcome
from services.rules.registry import EdgeRow, totals
from services.rules.trente_quarante import edges as _edges
from services.rules.trente_quarante.coup import Coup
from services.rules.trente_quarante.request import TQRequest, parse_request
from services.rules.trente_quarante.rules import KINDS, winning_options
from services.rules.trente_quarante.settle import settle_bets

KINDS_ROWS = ("negro", "rojo")


def coup_view(coup: Coup, profile: Profile) -> dict[str, Any]:
    result = coup.result()
    reading = profile.switch("tq_color_card")
    out: dict[str, Any] = {
        "negro": {"cards": [str(c) for c in coup.negro], "total": result.negro},
        "rojo": {"cards": [str(c) for c in coup.rojo], "total": result.rojo},
        "result": "refait" if result.refait else (result.winner or "tie"),
        "winning": sorted(winning_options(result, reading), key=lambda k: k not in KINDS_ROWS),
    }
    if result.winner:
        first_row = reading == "first_row" or result.winner == "negro"
        card = (coup.negro if first_row else coup.rojo)[0]
        out["color_card"] = str(card)
    return out


def _run(request: Mapping[str, Any], profile: Profile) -> tuple[TQRequest, list]:
    req = parse_request(request)
    return req, settle_bets(req, profile)


class TrenteQuaranteGame:
    name = "trente_quarante"
    profiles = frozenset({"BO"})

    def settle(self, request: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
        req, settled = _run(request, profile)
        bets = [r.to_dict() for _, r in settled]
        out: dict[str, Any] = {"decks": req.decks, "bets": bets, "totals": totals(bets)}
        if req.coup is not None:
            out["coup"] = coup_view(req.coup, profile)
        out["state"] = {"prison": [b.to_state() for b, r in settled
                                   if r.outcome is Outcome.PRISON]}
        return out

    def explain(self, request: Mapping[str, Any], profile: Profile) -> list[str]:
        req, settled = _run(request, profile)
        lines = [f"Profile {profile.id}: {profile.name}",
                 "Game: Treinta y Cuarenta — seed 000 §2.4", f"Shoe: {req.decks} decks",
                 f"Switches: tq_color_card={profile.switch('tq_color_card')}, "
                 f"rounding={profile.switch('rounding')}",
                 f"Limits: {describe_limits(req.limits)}"]
        if req.coup is not None:
            view = coup_view(req.coup, profile)
            for row in ("negro", "rojo"):
                lines.append(f"{row.upper()} row: {' '.join(view[row]['cards'])} = "
                             f"{view[row]['total']} (dealt until ≥ 31, seed 000 §2.4.3.3)")
            lines.append(_verdict(view))
        for bet, result in settled:
            note = f"; note: {result.rule.note}" if result.rule.note else ""
            lines.append(f"{bet.id} {result.kind} {result.stake}: {result.detail} -> "
                         f"{result.outcome.value}, paid {result.paid} (net {result.net:+d}) — "
                         f"{result.rule}{note}")
        t = totals([r.to_dict() for _, r in settled])
        lines.append(f"Totals: staked {t['staked']}, paid {t['paid']}, house {t['house_win']:+d} "
                     "(bets in prison are not decided yet)")
        return lines

    def edges(self, profile: Profile) -> list[EdgeRow]:
        return _edges.edges(profile)


def _verdict(view: dict[str, Any]) -> str:
    if view["result"] == "refait":
        return "Both rows at 31: the 31 tie — every bet is blocked (seed 000 §2.4.5.2)"
    if view["result"] == "tie":
        return f"Tie at {view['negro']['total']} («Ancar»): neutral (seed 000 §2.4.5.2)"
    colour = next(k for k in view["winning"] if k != view["result"])
    return (f"{KINDS[view['result']]} is closest to 31; colour card {view['color_card']}: "
            f"{KINDS[view['result']]} and {KINDS[colour]} win (seed 000 §2.4.5.2)")

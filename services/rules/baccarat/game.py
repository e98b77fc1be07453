"""The "baccarat" Game: settle, explain and edges behind the registry protocol."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.baccarat import chemin, shoe
from services.rules.baccarat import edges as edges_mod
from services.rules.baccarat.coup import Coup, play
from services.rules.baccarat.request import Round, parse_round
from services.rules.baccarat.settle import settle_bet
from services.rules.baccarat.variants import cut_card_depth
from services.rules.core.limits import TableLimits
from services.rules.core.profiles import Profile
from services.rules.core.results import BetResult
from services.rules.registry import EdgeRow, totals


@dataclass(frozen=True)
class Settlement:
    rnd: Round
    coup: Coup
    position: shoe.ShoePosition
    bets: tuple[BetResult, ...]
    bank: chemin.BankResult | None
    notes: tuple[str, ...]


def settle_round(request: Mapping[str, Any], profile: Profile) -> Settlement:
    """Parse, play and settle one round; raises RulesError naming the field at fault."""
    rnd = parse_round(request, profile)
    depth = cut_card_depth(profile)
    shoe.check_round_may_start(rnd.variant.decks, depth, len(rnd.previous_cards))
    notes: list[str] = []
    limits = rnd.limits
    at_risk = 0
    if rnd.bank is not None:
        at_risk = chemin.check_bank(rnd)
        notes.append(chemin.check_choice(rnd))
        limits = TableLimits(rnd.table_minimum or 0, rnd.bank.amount)
    coup = play(list(rnd.cards), rnd.variant, None if rnd.choice is None else rnd.choice.draw)
    results = tuple(settle_bet(b, coup, rnd.variant, profile, limits) for b in rnd.bets)
    bank = None if rnd.bank is None else chemin.settle_bank(rnd, coup, at_risk, profile)
    position = shoe.ShoePosition(rnd.variant.decks, depth, len(rnd.previous_cards),
                                 coup.cards_used)
    return Settlement(rnd, coup, position, results, bank, tuple(n for n in notes if n))


def _round_dict(s: Settlement) -> dict[str, Any]:
    c = s.coup
    return {"variant": s.rnd.variant.id, "winner": c.winner, "natural": c.natural,
            "punto": {"cards": [str(x) for x in c.punto], "total": c.punto_total},
            "banca": {"cards": [str(x) for x in c.banca], "total": c.banca_total},
            "rule": str(s.rnd.variant.draw_rule)}


def _bank_line(b: chemin.BankResult) -> str:
    p = b.position
    return (f"bank {b.before}: {p.outcome.value}, {p.detail} ({p.rule}); after the round "
            f"{b.after_round}, garage obligatorio {b.garage_mandatory}, voluntario "
            f"{b.garage_voluntary}, remaining {b.remaining}"
            + ("; the bank passes" if b.passes else ""))


class BaccaratGame:
    name = "baccarat"
    profiles = frozenset({"BO", "CL-ARICA", "LIVE-GG"})

    def settle(self, request: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
        s = settle_round(request, profile)
        bets = [b.to_dict() for b in s.bets]
        if s.bank is not None:
            bets.append(s.bank.position.to_dict())
        out: dict[str, Any] = {"round": _round_dict(s), "bets": bets, "totals": totals(bets),
                               "shoe": s.position.to_dict()}
        if s.bank is not None:
            out["bank"] = s.bank.to_dict()
        if s.notes:
            out["notes"] = list(s.notes)
        return out

    def explain(self, request: Mapping[str, Any], profile: Profile) -> list[str]:
        s = settle_round(request, profile)
        v = s.rnd.variant
        lines = [f"profile {profile.id}, modality {v.title} ({v.rule}); {v.decks}-deck shoe "
                 f"({v.decks_rule}); drawing table: {v.draw_rule}"]
        lines += list(s.coup.steps)
        lines += list(s.notes)
        if s.position.last_hand:
            lines.append(f"the cut card came out in this round: it is the last hand of the shoe "
                         f"({shoe.CUT_RULES.get(str(s.position.depth))}, domain.md A-13)")
        for bet, result in zip(s.rnd.bets, s.bets):
            lines.append(f"{bet.field} {bet.kind} {bet.amount}: {result.outcome.value}, paid "
                         f"{result.paid} — {result.detail} ({result.rule})")
        if s.bank is not None:
            lines.append(_bank_line(s.bank))
        return lines

    def edges(self, profile: Profile) -> list[EdgeRow]:
        return edges_mod.edge_rows(profile)


GAME = BaccaratGame()

"""The blackjack Game for services/rules/registry.py: settle, explain, edges."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.rules.blackjack.dealer import final_of
from services.rules.blackjack.hand import total
from services.rules.blackjack.play import RoundResult, play_round
from services.rules.blackjack.request import parse_request
from services.rules.blackjack.rules import BLACKJACK_PROFILES, BjRules, rules_for
from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.registry import EdgeRow, totals

DEFAULT_EDGE_HANDS = 2_000_000


def _rules(request: Mapping[str, Any], profile: Profile) -> BjRules:
    variant = request.get("variant", "classic")
    if not isinstance(variant, str):
        raise RulesError("variant", "must be a string")
    return rules_for(profile, variant)


def run_request(request: Mapping[str, Any], profile: Profile) -> tuple[BjRules, RoundResult]:
    rules = _rules(request, profile)
    return rules, play_round(parse_request(request, rules), rules)


def result_dict(rules: BjRules, result: RoundResult) -> dict[str, Any]:
    bets = [b.to_dict() for b in result.bets]
    return {
        "variant": rules.variant,
        "bets": bets,
        "totals": totals(bets),
        "dealer_hands": [{"cards": [str(c) for c in cards], "total": str(total(cards)),
                          "blackjack": final_of(cards).blackjack}
                         for cards in result.dealer_hands],
        "hands": [{"seat": h.box.seat, "player": h.box.player, "hand": h.number,
                   "cards": [str(c) for c in h.cards], "total": str(total(h.cards)),
                   "state": h.state, "stakes": list(h.stakes)} for h in result.hands],
        "burned": [{"field": e.field, "card": str(e.card), "why": why}
                   for e, why in result.burned],
        "cards_used": result.cards_used,
    }


class BlackjackGame:
    name = "blackjack"
    profiles = BLACKJACK_PROFILES

    def __init__(self, edge_hands: int = DEFAULT_EDGE_HANDS, seed: int = 2024) -> None:
        self.edge_hands = edge_hands
        self.seed = seed

    def settle(self, request: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
        rules, result = run_request(request, profile)
        return result_dict(rules, result)

    def explain(self, request: Mapping[str, Any], profile: Profile) -> list[str]:
        rules, result = run_request(request, profile)
        out = result_dict(rules, result)
        return [f"Blackjack {rules.variant}, profile {profile.id}, {rules.decks} decks",
                *result.steps,
                f"Totals: staked {out['totals']['staked']}, paid {out['totals']['paid']}, "
                f"house win {out['totals']['house_win']}"]

    def edges(self, profile: Profile) -> list[EdgeRow]:
        from services.rules.blackjack.edges import edge_rows  # numpy only when asked
        return edge_rows(profile, hands=self.edge_hands, seed=self.seed)

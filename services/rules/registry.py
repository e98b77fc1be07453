"""The games the engine knows, behind one small interface the CLI and services call.

Each game package (services/rules/<game>/) builds an object with this shape and registers it
in its __init__.py with `register(...)`. Game packages are imported lazily by `get_game`.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef

# game name -> package that registers it
GAME_PACKAGES: dict[str, str] = {
    "roulette": "services.rules.roulette",
    "craps": "services.rules.craps",
    "baccarat": "services.rules.baccarat",
    "blackjack": "services.rules.blackjack",
    "poker": "services.rules.poker",
    "trente_quarante": "services.rules.trente_quarante",
}


@dataclass(frozen=True)
class EdgeRow:
    """The house edge of one bet, computed by the engine itself."""

    game: str
    variant: str
    bet: str
    edge: Fraction | float   # Fraction when exact (enumeration), float only for simulations
    method: str              # "exact enumeration", "simulation, 95% CI ±0.05%", ...
    rule: RuleRef
    note: str = ""
    fair_by_design: bool = False  # e.g. craps odds («gabela»), paid at true odds on purpose

    @property
    def flagged(self) -> bool:
        """Zero or negative edge: a fair or player-favoured bet — the operator should check
        the printed pay table (e.g. seed 000's craps "Juego de 7 5 : 1", domain.md A-27).
        A bet the seed means to be fair (fair_by_design) is not flagged at zero."""
        # bool(): a simulated edge may be a numpy float, whose comparisons give numpy bools
        # that json cannot write (`edges --json` crashed on blackjack rows).
        return bool(self.edge < 0 or (self.edge == 0 and not self.fair_by_design))

    def to_dict(self) -> dict[str, Any]:
        exact = isinstance(self.edge, Fraction)
        return {
            "game": self.game, "variant": self.variant, "bet": self.bet,
            "edge": float(self.edge), "edge_exact": str(self.edge) if exact else None,
            "method": self.method, "rule": str(self.rule), "flagged": self.flagged,
            "fair_by_design": self.fair_by_design, "note": self.note,
        }


class Game(Protocol):
    name: str
    profiles: frozenset[str]   # profile ids that define this game

    def settle(self, request: Mapping[str, Any], profile: Profile) -> dict[str, Any]:
        """Settle one request (already known to be for this game and profile).

        Returns a JSON-able dict with at least "bets": [BetResult.to_dict(), ...] and
        "totals": {"staked", "paid", "house_win"}; raises RulesError naming the field."""

    def explain(self, request: Mapping[str, Any], profile: Profile) -> list[str]:
        """Step-by-step reasoning for a supervisor resolving a dispute."""

    def edges(self, profile: Profile) -> list[EdgeRow]:
        """The house edge of every bet this game offers under `profile`."""


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def get_game(name: object, profile: Profile | None = None) -> Game:
    if not isinstance(name, str) or name not in GAME_PACKAGES:
        raise RulesError("game",
                         f"unknown game {name!r}; known: {', '.join(sorted(GAME_PACKAGES))}")
    if name not in _GAMES:
        importlib.import_module(GAME_PACKAGES[name])
    game = _GAMES.get(name)
    if game is None:
        raise RulesError("game", f"{name} is not available yet (its package registers no game)")
    if profile is not None and profile.id not in game.profiles:
        raise RulesError("profile", f"profile {profile.id} does not define {name}; "
                         f"profiles with {name}: {', '.join(sorted(game.profiles))}")
    return game


def totals(bet_results: list[dict[str, Any]]) -> dict[str, int]:
    """Totals of a settled request. A bet still on the layout (prison, pending) is not decided
    yet and counts only with the excess over the maximum already handed back to the player:
    that part is staked and paid now."""
    staked = paid = 0
    for b in bet_results:
        if b["outcome"] in ("prison", "pending"):
            staked += b.get("excess_returned", 0)
            paid += b.get("excess_returned", 0)
        else:
            staked += b["stake"]
            paid += b["paid"]
    return {"staked": staked, "paid": paid, "house_win": staked - paid}

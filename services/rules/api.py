"""One entry point for a settlement request (a dict decoded from one JSON line).

Common request fields: "id" (echoed), "game", "profile", optional "switches" (profile
overrides). Everything else belongs to the game. Errors never raise out of `settle_request`:
a bad request returns {"ok": false, "errors": [{"field", "reason"}, ...]}.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile, get_profile
from services.rules.registry import Game, get_game


def resolve(request: object) -> tuple[Game, Profile]:
    if not isinstance(request, Mapping):
        raise RulesError("request", "must be a JSON object")
    # The game first: importing it declares its switches, which the profile then validates.
    game = get_game(request.get("game"))
    profile = get_profile(request.get("profile"), request.get("switches"))
    return get_game(game.name, profile), profile


def settle_request(request: object) -> dict[str, Any]:
    head: dict[str, Any] = {}
    if isinstance(request, Mapping):
        head = {k: request[k] for k in ("id", "game", "profile") if k in request}
    try:
        game, profile = resolve(request)
        # resolve() refused anything but a JSON object
        return {**head, "ok": True, **game.settle(cast(Mapping[str, Any], request), profile)}
    except RulesError as err:
        return {**head, "ok": False, "errors": [e.to_dict() for e in err.errors]}


def explain_request(request: object) -> list[str]:
    game, profile = resolve(request)
    return game.explain(cast(Mapping[str, Any], request), profile)  # resolve() checked it

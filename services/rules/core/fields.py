"""Checks every request parser shares: the right shape, and no field the game does not know
(a misspelt field silently ignored could settle a bet wrongly)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from services.rules.core.errors import RulesError


def check_bet_object(raw: object, known: Iterable[str]) -> Mapping[str, Any]:
    """`raw` as a bet object, or RulesError naming the first unknown field (the caller
    prefixes the bet's position, e.g. "bets[2]")."""
    if not isinstance(raw, Mapping):
        raise RulesError("", "a bet must be an object with kind and amount")
    known = tuple(known)
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise RulesError(unknown[0], f"unknown bet field; known: {', '.join(known)}")
    return raw

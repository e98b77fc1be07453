"""Shared helpers for the poker tests: build requests and settle them through the public API."""
from __future__ import annotations

from typing import Any

import pytest

from services.rules.api import settle_request


def request(profile: str, variant: str, dealer: str | None, seats: list[dict[str, Any]],
            **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": "t", "game": "poker", "profile": profile, "variant": variant,
                           "seats": [dict(s, cards=s["cards"].split())
                                     if isinstance(s.get("cards"), str) else s for s in seats]}
    if dealer is not None:
        out["dealer"] = {"cards": dealer.split()}
    out.update(extra)
    return out


def settle(*args: Any, **kwargs: Any) -> dict[str, Any]:
    result = settle_request(request(*args, **kwargs))
    assert result["ok"], result.get("errors")
    return result


def errors(*args: Any, **kwargs: Any) -> list[dict[str, str]]:
    result = settle_request(request(*args, **kwargs))
    assert not result["ok"], result
    return result["errors"]


def bets_of(result: dict[str, Any], seat: int) -> dict[str, dict[str, Any]]:
    return {b["kind"]: b for b in result["bets"] if b["seat"] == seat}


@pytest.fixture
def three_card_switches() -> dict[str, str]:
    return {"poker_three_card_ante_on_win": "paid_1_to_1",
            "poker_three_card_high_card_win": "paid_1_to_1"}

"""Small builders for blackjack requests in tests."""
from __future__ import annotations

from typing import Any

from services.rules.api import explain_request, settle_request


def request(profile: str, boxes: list[dict[str, Any]], cards: list[Any],
            **fields: Any) -> dict[str, Any]:
    return {"id": "t", "game": "blackjack", "profile": profile, "boxes": boxes, "cards": cards,
            **fields}


def settle(profile: str, boxes: list[dict[str, Any]], cards: list[Any],
           **fields: Any) -> dict[str, Any]:
    out = settle_request(request(profile, boxes, cards, **fields))
    assert out["ok"], out.get("errors")
    return out


def error(profile: str, boxes: list[dict[str, Any]], cards: list[Any],
          **fields: Any) -> dict[str, str]:
    out = settle_request(request(profile, boxes, cards, **fields))
    assert not out["ok"], f"expected an error, got {out}"
    return out["errors"][0]


def explain(profile: str, boxes: list[dict[str, Any]], cards: list[Any],
            **fields: Any) -> list[str]:
    return explain_request(request(profile, boxes, cards, **fields))


def bets(out: dict[str, Any], kind: str = "main", seat: int | None = None) -> list[dict[str, Any]]:
    return [b for b in out["bets"] if b["kind"] == kind and (seat is None or b["seat"] == seat)]


def one(out: dict[str, Any], kind: str = "main", seat: int | None = None) -> dict[str, Any]:
    found = bets(out, kind, seat)
    assert len(found) == 1, found
    return found[0]

"""Requests for Treinta y Cuarenta tests, and independent readings of seed 000 §2.4."""
from __future__ import annotations

from services.rules.api import settle_request


def request(cards, bets, **fields) -> dict:
    return {"game": "trente_quarante", "profile": "BO", "decks": 6, "cards": cards,
            "bets": bets, **fields}


def ok(cards, bets, **fields) -> dict:
    out = settle_request(request(cards, bets, **fields))
    assert out["ok"], out.get("errors")
    return out


def error(cards, bets, **fields) -> tuple[str, str]:
    out = settle_request(request(cards, bets, **fields))
    assert not out["ok"], out
    return out["errors"][0]["field"], out["errors"][0]["reason"]


def value(card: str) -> int:
    """Ace 1, 2-10 face value, figures 10 (seed 000 §2.4.3.3)."""
    rank = card[:-1].upper()
    return {"A": 1, "J": 10, "Q": 10, "K": 10, "T": 10}.get(rank) or int(rank)


def rows(cards: list[str]) -> tuple[list[str], list[str]]:
    """Deal NEGRO until ≥ 31, then ROJO until ≥ 31."""
    negro: list[str] = []
    rojo: list[str] = []
    i = 0
    while sum(map(value, negro)) < 31:
        negro.append(cards[i])
        i += 1
    while sum(map(value, rojo)) < 31:
        rojo.append(cards[i])
        i += 1
    return negro, rojo


ALL_KINDS = ["rojo", "negro", "color", "inverso"]


def every_bet(amount: int = 1000) -> list[dict]:
    return [{"id": k, "kind": k, "amount": amount} for k in ALL_KINDS]


def outcomes(out: dict) -> dict[str, tuple[str, int]]:
    return {b["id"]: (b["outcome"], b["paid"]) for b in out["bets"] if b["kind"] != "insurance"}

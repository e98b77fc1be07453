"""Craps bets: the kinds the seeds define, and one bet on the layout.

Names are English; the Spanish of seed 000 §3.1.5 / seed 004 IV §1.5 is in SPANISH. A bet is
immutable: travelling to a number, being increased or reduced makes a new Bet.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.core.errors import RulesError
from services.rules.core.fields import check_bet_object
from services.rules.core.money import parse_amount
from services.rules.craps.dice import POINT_NUMBERS

SPANISH = {
    "pass_line": "Línea de pase (Win)", "dont_pass": "Línea de no pase (Don't win)",
    "come": "Al número por venir (Come)", "dont_come": "Contra el número por venir",
    "odds": "Gabela (win)", "dont_odds": "Gabela (don't win)", "field": "Campo",
    "big_6": "Gran 6", "big_8": "Gran 8", "any_seven": "Juego de 7", "eleven": "Juego de 11",
    "under_7": "Bajo 7", "over_7": "Sobre 7", "hardway": "Duros", "horn": "Cuernos (Horn)",
    "any_craps": "Any craps", "craps_2": "Craps 2", "craps_3": "Craps 3", "craps_12": "Craps 12",
    "place": "Right bet (place)", "place_to_lose": "Wrong bet (place to lose)",
    "buy": "Compra (Buy)", "lay": "Apuesta contra los números (Lay)",
}
KINDS = tuple(SPANISH)

LINE = ("pass_line", "dont_pass", "come", "dont_come")   # travel to a point of their own
WRONG = ("dont_pass", "dont_come", "dont_odds", "place_to_lose", "lay")  # win on the 7
ODDS = ("odds", "dont_odds")
# One-roll bets («suertes múltiples», decided on the next roll): winning totals.
ONE_ROLL = {"field": (2, 3, 4, 9, 10, 11, 12), "any_seven": (7,), "eleven": (11,),
            "under_7": (2, 3, 4, 5, 6), "over_7": (8, 9, 10, 11, 12), "horn": (2, 3, 11, 12),
            "any_craps": (2, 3, 12), "craps_2": (2,), "craps_3": (3,), "craps_12": (12,)}
# Multi-roll bets on a number against the 7.
NUMBER_BETS = ("big_6", "big_8", "place", "place_to_lose", "buy", "lay")
FIXED_NUMBER = {"big_6": 6, "big_8": 8}
NUMBERS = {**{k: POINT_NUMBERS for k in ("place", "place_to_lose", "buy", "lay")},
           "hardway": (4, 6, 8, 10), "big_6": (6,), "big_8": (8,)}
BET_FIELDS = ("id", "kind", "amount", "number", "on", "working", "commission_paid")


@dataclass(frozen=True)
class Bet:
    id: str
    kind: str
    amount: int               # minor units on the layout now
    number: int | None = None  # place/lay/hardway number; a line bet's point once it has one
    on: str | None = None     # odds: id of the line bet they back
    working: bool = False     # hardway called "on" while no point is set (seed 004 IV §1.5)
    commission_paid: bool = False  # Buy/Lay: the upfront commission was collected already

    @property
    def wrong(self) -> bool:
        return self.kind in WRONG

    def label(self) -> str:
        shown = self.number is not None and self.kind not in FIXED_NUMBER
        where = f" {self.number}" if shown else ""
        return f"{self.id} {self.kind}{where}"

    def to_state(self) -> dict[str, Any]:
        """The bet as a request would give it, to carry it into the next request."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "amount": self.amount}
        if self.number is not None and self.kind not in FIXED_NUMBER and self.on is None:
            out["number"] = self.number  # odds take theirs from the line bet again
        if self.on is not None:
            out["on"] = self.on
        if self.working:
            out["working"] = True
        if self.commission_paid:
            out["commission_paid"] = True
        return out


def _number(raw: Mapping[str, Any], kind: str) -> int | None:
    value = raw.get("number")
    if kind in FIXED_NUMBER and value is None:
        return FIXED_NUMBER[kind]
    if kind in LINE:
        allowed: tuple[int, ...] | None = POINT_NUMBERS if value is not None else None
    else:
        allowed = NUMBERS.get(kind)
    if allowed is None:
        if value is not None:
            why = ("odds take the number of the line bet named in \"on\"" if kind in ODDS
                   else f"a {kind} bet has no number")
            raise RulesError("number", why)
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("number", f"required for a {kind} bet: one of "
                         f"{', '.join(map(str, allowed))}, got {value!r}")
    if value not in allowed:
        raise RulesError("number", f"a {kind} bet is on {', '.join(map(str, allowed))}; "
                         f"{value} is not one of them")
    return value


def parse_bet(raw_bet: object, default_id: str) -> Bet:
    """One bet of a request; errors name the field inside the bet (the caller prefixes)."""
    raw = check_bet_object(raw_bet, BET_FIELDS)
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in SPANISH:  # a {} is unhashable
        raise RulesError("kind", f"unknown craps bet kind {kind!r}; known: {', '.join(KINDS)}")
    bet_id = raw.get("id", default_id)
    if not isinstance(bet_id, str) or not bet_id:
        raise RulesError("id", "must be a non-empty string")
    on = raw.get("on")
    if (on is not None) != (kind in ODDS):
        raise RulesError("on", "odds name the line bet they back, e.g. \"on\": \"b1\""
                         if kind in ODDS else
                         f"only odds bets back another bet; a {kind} bet has no \"on\"")
    if on is not None and not isinstance(on, str):
        raise RulesError("on", "must be the id of a line bet")
    working = raw.get("working", False)
    if not isinstance(working, bool) or (working and kind != "hardway"):
        raise RulesError("working", "true or false, and only on a hardway bet")
    paid = raw.get("commission_paid", False)
    if not isinstance(paid, bool) or (paid and kind not in ("buy", "lay")):
        raise RulesError("commission_paid", "true or false, and only on a buy or lay bet")
    amount = parse_amount(raw.get("amount"), "amount")
    return Bet(bet_id, kind, amount, _number(raw, kind), on, working, paid)

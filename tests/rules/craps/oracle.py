"""Independent expectations for craps, typed from the seeds' text and pay tables.

Nothing here imports the engine: each function restates a bet definition of seed 000 §3.1.5 /
§3.1.7.2 and seed 004 IV §1.5 / §1.7 in the plainest possible way, so a test that compares the
engine with this module compares two separate readings of the seed.
"""
from __future__ import annotations

from typing import Any

from services.rules.api import settle_request

POINTS = (4, 5, 6, 8, 9, 10)
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]

# (to, per) as printed; BO odds are "true odds" in words (seed 000 §3.1.5).
PAYS = {
    "BO": {"pass_line": (1, 1), "dont_pass": (1, 1), "come": (1, 1), "dont_come": (1, 1),
           "big_6": (1, 1), "big_8": (1, 1), "any_seven": (5, 1), "eleven": (15, 1),
           "under_7": (1, 1), "over_7": (1, 1), "horn": (4, 1), "any_craps": (7, 1),
           "craps_2": (30, 1), "craps_3": (15, 1), "craps_12": (30, 1),
           "hardway": {4: (8, 1), 10: (8, 1), 6: (10, 1), 8: (10, 1)}},
    "CL-ARICA": {"pass_line": (1, 1), "dont_pass": (1, 1), "come": (1, 1), "dont_come": (1, 1),
                 "big_6": (1, 1), "big_8": (1, 1), "any_seven": (4, 1), "eleven": (15, 1),
                 "under_7": (1, 1), "over_7": (1, 1), "horn": (4, 1), "any_craps": (7, 1),
                 "hardway": {4: (7, 1), 10: (7, 1), 6: (9, 1), 8: (9, 1)}},
}
for _table in PAYS.values():
    _table.update({
        "place": {4: (9, 5), 10: (9, 5), 5: (7, 5), 9: (7, 5), 6: (7, 6), 8: (7, 6)},
        "place_to_lose": {4: (5, 11), 10: (5, 11), 5: (5, 8), 9: (5, 8), 6: (4, 5), 8: (4, 5)},
        "odds": {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)},
        "dont_odds": {4: (1, 2), 10: (1, 2), 5: (2, 3), 9: (2, 3), 6: (5, 6), 8: (5, 6)},
    })

ONE_ROLL_WINS = {"field": {2, 3, 4, 9, 10, 11, 12}, "any_seven": {7}, "eleven": {11},
                 "under_7": {2, 3, 4, 5, 6}, "over_7": {8, 9, 10, 11, 12},
                 "horn": {2, 3, 11, 12}, "any_craps": {2, 3, 12}, "craps_2": {2},
                 "craps_3": {3}, "craps_12": {12}}


def pay(profile: str, kind: str, number: int | None, total: int) -> tuple[int, int]:
    if kind == "field":
        return (2, 1) if total in (2, 12) else (1, 1)
    entry: Any = PAYS[profile][kind]
    return entry[number] if isinstance(entry, dict) else entry


def expect(profile: str, kind: str, number: int | None, point: int | None, die1: int,
           die2: int, *, hard_on_come_out: bool = True) -> tuple[str, int | None]:
    """("win" | "lose" | "push" | "pending", travel number or None) for one roll."""
    total = die1 + die2
    if kind in ONE_ROLL_WINS:
        return ("win" if total in ONE_ROLL_WINS[kind] else "lose"), None
    if kind in ("pass_line", "come") and number is None:
        if total in (7, 11):
            return "win", None
        if total in (2, 3, 12):
            return "lose", None
        return "pending", total
    if kind in ("dont_pass", "dont_come") and number is None:
        if total in (2, 3):
            return "win", None
        if total == 12:
            return "push", None
        if total in (7, 11):
            return "lose", None
        return "pending", total
    if kind == "hardway":
        if point is None and not hard_on_come_out:
            return "pending", None
        if total == number and die1 == die2:
            return "win", None
        if total == 7 or total == number:
            return "lose", None
        return "pending", None
    right = kind in ("pass_line", "come", "odds", "big_6", "big_8", "place")
    if total == number:
        return ("win" if right else "lose"), None
    if total == 7:
        return ("lose" if right else "win"), None
    return "pending", None


def paid(outcome: str, amount: int, to_per: tuple[int, int]) -> int:
    if outcome == "win":
        return amount + amount * to_per[0] // to_per[1]
    if outcome == "push":
        return amount
    return 0


def settle(profile: str = "BO", **fields) -> dict:
    req = {"game": "craps", "profile": profile, "variant": "craps", "point": None, "bets": [],
           "rolls": [],
           **fields}
    return settle_request(req)


def ok(profile: str = "BO", **fields) -> dict:
    out = settle(profile, **fields)
    assert out["ok"], out.get("errors")
    return out


def by_id(out: dict) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for bet in out["bets"]:
        found.setdefault(bet["id"], []).append(bet)
    return found


def error(profile: str = "BO", **fields) -> tuple[str, str]:
    out = settle(profile, **fields)
    assert not out["ok"], out
    return out["errors"][0]["field"], out["errors"][0]["reason"]

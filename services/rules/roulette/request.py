"""A roulette settlement request (one decoded JSON line) parsed into domain objects.

{"id": "r1", "game": "roulette", "profile": "BO", "switches": {...},
 "wheel": "european",                       # optional when the profile plays one wheel
 "bets": [{"kind": "split", "numbers": ["17", "20"], "amount": 1000, "player": "A"}, ...],
 "outcome": {"pocket": "17"},
 "limits": {"minimum": 100, "maximum": 50000}      # or per kind: {"straight": {...}, ...}
 "reduce": true}                            # optional: show reductions (AR always does)

A stake already «en prisión» from the previous spin comes back as a bet with
"imprisoned": true and the imprisoned stake as amount (seed 000 §4.1.4.2 item 11).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.core.errors import FieldError, RulesError
from services.rules.core.fields import check_bet_object
from services.rules.core.limits import DEFAULT_KEY, TableLimits
from services.rules.core.money import parse_amount
from services.rules.core.profiles import Profile
from services.rules.roulette.bets import KINDS, RouletteBet
from services.rules.roulette.limits import Limits
from services.rules.roulette.paytable import PROFILE_WHEELS

BET_FIELDS = ("kind", "amount", "numbers", "index", "zero_option", "imprisoned",
              "noticed_before_result", "player")


@dataclass(frozen=True)
class RouletteRequest:
    wheel: str
    bets: tuple[RouletteBet, ...]
    players: tuple[str, ...]   # per bet; "" when not given
    pocket: str
    limits: Limits
    reduce: bool


def _number(value: object, field: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RulesError(field, f"a pocket is a string such as \"17\" or \"00\", got {value!r}")
    return str(value)


def _flag(raw: Mapping[str, Any], name: str) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise RulesError(name, "must be true or false")
    return value


def _index(raw: Mapping[str, Any]) -> int | None:
    value = raw.get("index")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise RulesError("index", f"must be an integer, got {value!r}")
    return value


def parse_bet(raw_bet: object) -> tuple[RouletteBet, str]:
    raw = check_bet_object(raw_bet, BET_FIELDS)
    if not isinstance(raw.get("kind"), str):
        raise RulesError("kind", "required: the bet kind, e.g. \"split\"")
    numbers = raw.get("numbers", [])
    if not isinstance(numbers, list):
        raise RulesError("numbers", "must be a list of pockets, e.g. [\"17\", \"20\"]")
    zero_option = raw.get("zero_option")
    if zero_option is not None and not isinstance(zero_option, str):
        raise RulesError("zero_option", "must be \"half_back\" or \"prison\"")
    bet = RouletteBet(
        raw["kind"], parse_amount(raw.get("amount"), "amount"),
        tuple(_number(n, f"numbers[{i}]") for i, n in enumerate(numbers)), _index(raw),
        zero_option, _flag(raw, "imprisoned"), _flag(raw, "noticed_before_result"))
    return bet, str(raw.get("player", ""))


def _table_limits(raw: object, field: str) -> TableLimits:
    if not isinstance(raw, Mapping) or set(raw) != {"minimum", "maximum"}:
        raise RulesError(field, "must be {\"minimum\": ..., \"maximum\": ...} in minor units")
    return TableLimits(parse_amount(raw["minimum"], f"{field}.minimum", allow_zero=True),
                       parse_amount(raw["maximum"], f"{field}.maximum"))


def parse_limits(raw: object) -> Limits:
    if raw is None:
        return None
    if isinstance(raw, Mapping) and ("minimum" in raw or "maximum" in raw):
        return _table_limits(raw, "limits")
    if not isinstance(raw, Mapping):
        raise RulesError("limits", "must be {minimum, maximum} or {kind: {minimum, maximum}}")
    unknown = sorted(str(k) for k in raw if k not in KINDS and k != DEFAULT_KEY)
    if unknown:
        raise RulesError(f"limits.{unknown[0]}", f"unknown bet kind; known: {', '.join(KINDS)} "
                         f"(and {DEFAULT_KEY} for the kinds not listed)")
    return {str(kind): _table_limits(v, f"limits.{kind}") for kind, v in raw.items()}


def _wheel(raw: Mapping[str, Any], profile: Profile) -> str:
    wheel = raw.get("wheel")
    if wheel is None:  # the profile's first wheel (CL: the double zero, fully printed)
        wheels = PROFILE_WHEELS.get(profile.id, ())
        if not wheels:
            raise RulesError("wheel", "required: \"european\", \"american\" or "
                             "\"american_single\"")
        return wheels[0]
    if not isinstance(wheel, str):
        raise RulesError("wheel", "must be \"european\", \"american\" or \"american_single\"")
    return wheel


def _bets(raw: Mapping[str, Any]) -> tuple[list[RouletteBet], list[str]]:
    items = raw.get("bets")
    if not isinstance(items, list) or not items:
        raise RulesError("bets", "required: a non-empty list of bets")
    bets, players, errors = [], [], []
    for i, item in enumerate(items):
        try:
            bet, player = parse_bet(item)
        except RulesError as err:
            errors.extend(err.prefixed(f"bets[{i}]").errors)
            continue
        bets.append(bet)
        players.append(player)
    if errors:
        raise RulesError(errors=errors)
    return bets, players


def _pocket(raw: Mapping[str, Any]) -> str:
    outcome = raw.get("outcome")
    if not isinstance(outcome, Mapping) or "pocket" not in outcome:
        raise RulesError("outcome", "required: {\"pocket\": \"17\"} (the winning number)")
    pocket = outcome["pocket"]
    if isinstance(pocket, int) and not isinstance(pocket, bool):
        pocket = str(pocket)
    return pocket


def parse_request(raw: Mapping[str, Any], profile: Profile) -> RouletteRequest:
    errors: list[FieldError] = []
    parts: dict[str, Any] = {}
    for name, fn in (("wheel", lambda: _wheel(raw, profile)), ("bets", lambda: _bets(raw)),
                     ("pocket", lambda: _pocket(raw)),
                     ("limits", lambda: parse_limits(raw.get("limits")))):
        try:
            parts[name] = fn()
        except RulesError as err:
            errors.extend(err.errors)
    reduce = raw.get("reduce", False)
    if not isinstance(reduce, bool):
        errors.append(FieldError("reduce", "must be true or false"))
    if errors:
        raise RulesError(errors=errors)
    bets, players = parts["bets"]
    return RouletteRequest(parts["wheel"], tuple(bets), tuple(players), parts["pocket"],
                           parts["limits"], reduce)

"""A craps settlement request (one decoded JSON line) parsed into domain objects.

{"game": "craps", "profile": "BO", "variant": "craps",
 "point": null,                                   # the ON/OFF marker before the first roll
 "bets": [{"id": "b1", "kind": "pass_line", "amount": 1000}, ...],   # the layout now
 "rolls": [[3, 4],                                 # a roll: two dice 1..6
           {"dice": [2, 2], "remove": ["b2"], "amounts": {"b1": 1500},
            "place": [{"id": "b7", "kind": "odds", "on": "b1", "amount": 2000}]},
           {"void": "off_table"}],                 # «tirada nula»: decides nothing
 "limits": {"minimum": 100, "maximum": 50000}}     # optional; or per kind, see limits.py

The changes in a roll object happen before its dice, in the order remove, amounts, place.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.core.errors import FieldError, RulesError
from services.rules.core.limits import Limits
from services.rules.core.money import parse_amount
from services.rules.craps.bets import Bet, parse_bet
from services.rules.craps.dice import POINT_NUMBERS, VOID_REASONS, Roll, parse_dice
from services.rules.craps.limits import check_covered, parse_craps_limits

VARIANTS = {"craps": "Craps", "mini_craps": "Mini Craps"}
STEP_FIELDS = ("dice", "void", "remove", "amounts", "place")


@dataclass(frozen=True)
class Step:
    """What happens before one throw, then the throw (or the void)."""

    roll: Roll | None
    void: str | None = None
    remove: tuple[str, ...] = ()
    amounts: tuple[tuple[str, int], ...] = ()
    place: tuple[Bet, ...] = ()


@dataclass(frozen=True)
class CrapsRequest:
    variant: str
    point: int | None
    bets: tuple[Bet, ...]
    steps: tuple[Step, ...]
    limits: Limits = None


def _bets(raw: object, field: str, prefix: str) -> tuple[Bet, ...]:
    if not isinstance(raw, list):
        raise RulesError(field, "must be a list of bets")
    bets, errors = [], []
    for i, item in enumerate(raw):
        try:
            bets.append(parse_bet(item, f"{prefix}{i}"))
        except RulesError as err:
            errors += err.prefixed(f"{field}[{i}]").errors
    if errors:
        raise RulesError(errors=errors)
    return tuple(bets)


def _ids(raw: object, field: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise RulesError(field, "must be a list of bet ids, e.g. [\"b2\"]")
    return tuple(raw)


def _amounts(raw: object, field: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(raw, Mapping):
        raise RulesError(field, "must be an object of bet id -> new amount, e.g. {\"b1\": 1500}")
    return tuple((k, parse_amount(v, f"{field}.{k}", allow_zero=True)) for k, v in raw.items())


def parse_step(raw: object, i: int) -> Step:
    field = f"rolls[{i}]"
    if isinstance(raw, (list, tuple)):
        return Step(parse_dice(raw, field))
    if not isinstance(raw, Mapping):
        raise RulesError(field, "a roll is a pair of dice such as [3, 4], or an object with "
                         "\"dice\" or \"void\"")
    unknown = sorted(set(raw) - set(STEP_FIELDS))
    if unknown:
        raise RulesError(f"{field}.{unknown[0]}", f"unknown field; known: {', '.join(STEP_FIELDS)}")
    if ("dice" in raw) == ("void" in raw):
        raise RulesError(field, "give either \"dice\": [d1, d2] or \"void\": reason")
    void = raw.get("void")
    if void is not None and void not in VOID_REASONS:
        raise RulesError(f"{field}.void", f"unknown reason {void!r}; known: "
                         f"{', '.join(VOID_REASONS)}")
    return Step(parse_dice(raw["dice"], f"{field}.dice") if "dice" in raw else None, void,
                _ids(raw.get("remove", []), f"{field}.remove"),
                _amounts(raw.get("amounts", {}), f"{field}.amounts"),
                _bets(raw.get("place", []), f"{field}.place", f"r{i}b"))


def _point(request: Mapping[str, Any]) -> int | None:
    if "point" not in request:
        raise RulesError("point", "required: the point before the first roll, null when OFF "
                         "or one of 4, 5, 6, 8, 9, 10 when ON")
    point = request["point"]
    if point is not None and (isinstance(point, bool) or point not in POINT_NUMBERS):
        raise RulesError("point", f"must be null (OFF) or one of 4, 5, 6, 8, 9, 10; got {point!r}")
    return point


def parse_request(request: Mapping[str, Any]) -> CrapsRequest:
    errors: list[FieldError] = []

    def attempt(fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except RulesError as err:
            errors.extend(err.errors)
            return None

    variant = request.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:  # a {} is unhashable
        errors.append(FieldError("variant", f"required: one of {', '.join(VARIANTS)}; "
                                 f"got {variant!r}"))
    point = attempt(_point, request)
    bets = attempt(_bets, request.get("bets"), "bets", "b")
    rolls = request.get("rolls")
    steps: list[Step | None] = []
    if not isinstance(rolls, list):
        errors.append(FieldError("rolls", "required: a list of rolls such as [[3, 4], [6, 6]]"))
    else:
        steps = [attempt(parse_step, raw, i) for i, raw in enumerate(rolls)]
    limits = attempt(parse_craps_limits, request.get("limits"))
    if errors:
        raise RulesError(errors=errors)
    assert isinstance(variant, str)  # else an error was raised above
    done = tuple(s for s in steps if s is not None)
    check_covered(limits, bets + tuple(b for s in done for b in s.place))
    return CrapsRequest(variant, point, bets, done, limits)

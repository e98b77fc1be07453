"""Roulette bets: what a player can stake on, and which pockets each bet covers.

A bet is validated against a wheel: the numbers must form the bet on that layout (a split two
adjacent numbers, a street a row, a corner a 2x2 block, a six-line two adjacent rows ...).
Errors name the field relative to the bet ("numbers", "index", "kind", "amount"); the caller
prefixes the bet's position ("bets[2].numbers").
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from services.rules.core.errors import RulesError
from services.rules.core.money import parse_amount
from services.rules.roulette.layout import (
    BLACK,
    COLUMNS,
    DOZENS,
    EVEN,
    HIGH,
    LOW,
    ODD,
    RED,
    Group,
    Wheel,
)

# kind -> (count of numbers, Spanish name in the seeds)
INSIDE_KINDS: Mapping[str, tuple[int, str]] = {
    "straight": (1, "pleno"), "split": (2, "semipleno / medio pleno / caballo"),
    "street": (3, "calle / fila transversal"), "corner": (4, "cuadro / cuadra"),
    "five_number": (5, "línea especial / sexta"), "six_line": (6, "línea / seisena"),
}
EVEN_CHANCES: Mapping[str, Group] = {
    "red": RED, "black": BLACK, "odd": ODD, "even": EVEN, "low": LOW, "high": HIGH,
}
# indexed outside bets: kind -> {index: pockets}
INDEXED: Mapping[str, Mapping[int, Group]] = {
    "dozen": DOZENS, "column": COLUMNS,
    # a caballo on the line between two consecutive dozens/columns; index = the first of them
    "two_dozens": {i: DOZENS[i] | DOZENS[i + 1] for i in (1, 2)},
    "two_columns": {i: COLUMNS[i] | COLUMNS[i + 1] for i in (1, 2)},
}
CALLED_KINDS = ("voisins", "tiers", "orphelins", "neighbours")
KINDS: tuple[str, ...] = (*INSIDE_KINDS, *INDEXED, *EVEN_CHANCES, *CALLED_KINDS)
ZERO_OPTIONS = ("half_back", "prison")


@dataclass(frozen=True)
class RouletteBet:
    """One stake on one spot of the layout (or one called bet, expanded when settled).

    numbers: pockets as strings "0", "00", "1".."36" (inside bets; the centre of neighbours).
    index: 1..3 for dozen/column; 1..2 for two_dozens/two_columns (the first of the two);
    for neighbours, how many neighbours on each side (default 2).
    zero_option: the player's choice when zero comes out on an even chance, where the
    profile offers one (seed 000 §4.1.4.2 item 11): "half_back" or "prison".
    imprisoned: this even-chance stake is already «en prisión» from the previous spin.
    noticed_before_result: an over-maximum stake noticed before the result (or chips of
    unreadable value at «no va más», seed 001, domain.md A-40): the excess is returned
    whatever the outcome.
    """

    kind: str
    amount: int
    numbers: tuple[str, ...] = ()
    index: int | None = None
    zero_option: str | None = None
    imprisoned: bool = False
    noticed_before_result: bool = False


def _kind(bet: RouletteBet) -> str:
    if bet.kind not in KINDS:
        raise RulesError("kind", f"unknown bet kind {bet.kind!r}; known: {', '.join(KINDS)}")
    return bet.kind


def _pockets(bet: RouletteBet, wheel: Wheel) -> Group:
    if not isinstance(bet.numbers, tuple) or not all(isinstance(n, str) for n in bet.numbers):
        raise RulesError("numbers", "must be a list of pockets as strings, e.g. [\"17\", \"20\"]")
    bad = [n for n in bet.numbers if n not in wheel.pockets]
    if bad:
        raise RulesError("numbers", f"{', '.join(bad)} not a pocket of the {wheel.name} wheel "
                         f"(pockets: {', '.join(wheel.pockets[:len(wheel.zeros)])}, 1-36)")
    group = frozenset(bet.numbers)
    if len(group) != len(bet.numbers):
        raise RulesError("numbers", f"a pocket is repeated: {list(bet.numbers)}")
    return group


def _inside(bet: RouletteBet, wheel: Wheel) -> Group:
    size, spanish = INSIDE_KINDS[bet.kind]
    if bet.index is not None:
        raise RulesError("index", f"a {bet.kind} takes numbers, not an index")
    group = _pockets(bet, wheel)
    if len(group) != size:
        raise RulesError("numbers", f"a {bet.kind} ({spanish}) covers {size} number(s), "
                         f"got {len(group)}")
    legal = {"straight": None, "split": wheel.splits, "street": wheel.streets,
             "corner": wheel.corners, "five_number": wheel.five_numbers,
             "six_line": wheel.six_lines}[bet.kind]
    if legal is not None and group not in legal:
        shown = "-".join(sorted(group, key=_order))
        if not legal:
            raise RulesError("kind", f"no {bet.kind} ({spanish}) on the {wheel.name} layout")
        raise RulesError("numbers", f"{shown} is not a {bet.kind} ({spanish}) on the "
                         f"{wheel.name} layout: {_shape(bet.kind, wheel)}")
    return group


def _shape(kind: str, wheel: Wheel) -> str:
    """What the bet looks like on this layout; the zero spots differ by wheel (seed 004 II §1.5:
    with 0 and 00 the 0-1-2-3 spot is the five-number bet, there is no zero corner)."""
    zero_corner = _g_text(next((c for c in wheel.corners if wheel.zeros & c), None))
    return {"split": "two numbers side by side or one above the other",
            "street": "the three numbers of one row (or a zero street)",
            "corner": "four numbers in a 2x2 block" + (f" (or {zero_corner})" if zero_corner
                                                        else ""),
            "five_number": "0-00-1-2-3",
            "six_line": "the six numbers of two adjacent rows"}[kind]


def _g_text(group: Group | None) -> str:
    return "-".join(sorted(group, key=_order)) if group else ""


def _indexed(bet: RouletteBet) -> Group:
    table = INDEXED[bet.kind]
    if bet.numbers:
        raise RulesError("numbers", f"a {bet.kind} takes an index, not numbers")
    if isinstance(bet.index, bool) or bet.index is None or bet.index not in table:
        raise RulesError("index", f"a {bet.kind} needs index one of "
                         f"{', '.join(map(str, table))}; got {bet.index!r}")
    return table[bet.index]


def _even_chance(bet: RouletteBet) -> Group:
    if bet.numbers or bet.index is not None:
        raise RulesError("numbers" if bet.numbers else "index",
                         f"{bet.kind} is an even chance: give neither numbers nor index")
    return EVEN_CHANCES[bet.kind]


def coverage(bet: RouletteBet, wheel: Wheel) -> Group:
    """The pockets a (non-called) bet wins on, after validating that it forms the bet."""
    kind = _kind(bet)
    if kind in INSIDE_KINDS:
        return _inside(bet, wheel)
    if kind in INDEXED:
        return _indexed(bet)
    if kind in EVEN_CHANCES:
        return _even_chance(bet)
    raise RulesError("kind", f"{kind} is a called bet; it is expanded before coverage")


def check_amount(bet: RouletteBet) -> int:
    return parse_amount(bet.amount, "amount")


def _order(pocket: str) -> int:
    return -1 if pocket == "00" else int(pocket)


def sort_pockets(pockets: Group) -> list[str]:
    return sorted(pockets, key=_order)

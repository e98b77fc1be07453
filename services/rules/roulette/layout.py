"""Wheels and the betting layout (el paño): which pockets exist and which groups of pockets
form a legal inside bet. Pure data, generated from the layout geometry once at import.

The layout is 12 rows (calles) of 3 numbers: row r holds 3r+1, 3r+2, 3r+3; column c holds the
numbers with (n-1) % 3 == c (domain.md §5.1). Zero (and 00) sit above the first row.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Pocket = str
Group = frozenset[Pocket]

NUMBERS: tuple[Pocket, ...] = tuple(str(n) for n in range(1, 37))
# seed 000 §4.1.4.2 item 10, seed 001 «COLORADO», seed 004 II §1.5 (identical lists)
RED: frozenset[Pocket] = frozenset(str(n) for n in (1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23,
                                                    25, 27, 30, 32, 34, 36))
BLACK: frozenset[Pocket] = frozenset(NUMBERS) - RED
ODD: frozenset[Pocket] = frozenset(str(n) for n in range(1, 37, 2))
EVEN: frozenset[Pocket] = frozenset(str(n) for n in range(2, 37, 2))
LOW: frozenset[Pocket] = frozenset(str(n) for n in range(1, 19))
HIGH: frozenset[Pocket] = frozenset(str(n) for n in range(19, 37))
DOZENS: Mapping[int, Group] = {i: frozenset(str(n) for n in range(12 * i - 11, 12 * i + 1))
                               for i in (1, 2, 3)}
COLUMNS: Mapping[int, Group] = {i: frozenset(str(n) for n in range(i, 37, 3)) for i in (1, 2, 3)}

# Wheel orders (for called bets and neighbours); standard single- and double-zero wheels.
EUROPEAN_ORDER = ("0 32 15 19 4 21 2 25 17 34 6 27 13 36 11 30 8 23 10 5 24 16 33 1 20 14 31 "
                  "9 22 18 29 7 28 12 35 3 26").split()
AMERICAN_ORDER = ("0 28 9 26 30 11 7 20 32 17 5 22 34 15 3 24 36 13 1 00 27 10 25 29 12 8 19 "
                  "31 18 6 21 33 16 4 23 35 14 2").split()


def _g(*pockets: object) -> Group:
    return frozenset(str(p) for p in pockets)


def _rows() -> list[tuple[int, int, int]]:
    return [(3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12)]


def _number_splits() -> set[Group]:
    """57 splits among 1-36: side by side in a row, or one above the other."""
    out = set()
    for n in range(1, 37):
        if n % 3 != 0:
            out.add(_g(n, n + 1))
        if n + 3 <= 36:
            out.add(_g(n, n + 3))
    return out


def _number_corners() -> set[Group]:
    return {_g(n, n + 1, n + 3, n + 4) for n in range(1, 33) if n % 3 != 0}


def _six_lines() -> set[Group]:
    rows = _rows()
    return {_g(*rows[r], *rows[r + 1]) for r in range(11)}


@dataclass(frozen=True)
class Wheel:
    name: str
    pockets: tuple[Pocket, ...]   # every pocket the ball can land in
    zeros: frozenset[Pocket]      # pockets outside every outside bet
    order: tuple[Pocket, ...]     # around the wheel
    splits: frozenset[Group]
    streets: frozenset[Group]
    corners: frozenset[Group]
    six_lines: frozenset[Group]
    five_numbers: frozenset[Group]


def _european() -> Wheel:
    """Seed 000 §4.1.4.2 items 2-5 and seed 001: 60 semiplenos, 14 calles (incl. (0,1,2) and
    (0,2,3)), 23 cuadros (incl. (0,1,2,3)), 11 líneas (none with the zero)."""
    rows = _rows()
    return Wheel(
        "european", ("0",) + NUMBERS, _g(0), tuple(EUROPEAN_ORDER),
        frozenset(_number_splits() | {_g(0, 1), _g(0, 2), _g(0, 3)}),
        frozenset({_g(*r) for r in rows} | {_g(0, 1, 2), _g(0, 2, 3)}),
        frozenset(_number_corners() | {_g(0, 1, 2, 3)}),
        frozenset(_six_lines()), frozenset(),
    )


def _american() -> Wheel:
    """Seed 004 II §1.5. Zero streets as printed: (0,1,2), (0,2,3), (0,00,2) (domain.md A-35).
    Splits with the zeros follow the double-zero layout (0 above 1-2, 00 above 2-3, 0|00 side by
    side): 0-1, 0-2, 00-2, 00-3, 0-00 — the seed says only «contiguos» (implementation
    decision). No zero corner: the 0-00-1-2-3 spot is the línea especial (five numbers)."""
    rows = _rows()
    zero_splits = {_g(0, 1), _g(0, 2), _g("00", 2), _g("00", 3), _g(0, "00")}
    return Wheel(
        "american", ("0", "00") + NUMBERS, _g(0, "00"), tuple(AMERICAN_ORDER),
        frozenset(_number_splits() | zero_splits),
        frozenset({_g(*r) for r in rows} | {_g(0, 1, 2), _g(0, 2, 3), _g(0, "00", 2)}),
        frozenset(_number_corners()), frozenset(_six_lines()),
        frozenset({_g(0, "00", 1, 2, 3)}),
    )


def _american_single() -> Wheel:
    """Seed 004 II §1.5, «la ruleta americana con un cero»: the layout lists it beside the
    double-zero one — the zero streets «(0, 1, 2) y (0, 2,3)» and the four-number «Cuadro
    especial» (0-1-2-3) of the merged row «Cuadro Cuadro especial o línea especial o sexta /
    4 números 5 números» (domain.md A-35: four numbers with one zero, five with two). So its
    spots are the single-zero ones; no five-number bet. The seed prints no wheel order: the
    standard single-zero order is used (it only matters to neighbours, which CL does not take)."""
    single = _european()
    return Wheel("american_single", single.pockets, single.zeros, single.order, single.splits,
                 single.streets, single.corners, single.six_lines, frozenset())


WHEELS: Mapping[str, Wheel] = {w.name: w for w in (_european(), _american(),
                                                    _american_single())}

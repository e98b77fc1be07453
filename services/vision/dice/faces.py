"""Pip layout of a standard die face, shared by the renderer and the reader (one definition).

Pips sit on a 3x3 grid of cells (x, y in {-1, 0, 1}) at +-PIP_OFFSET of the side from the face
centre. A face is read up to quarter turns, so the 2, 3 and 6 each have two grid patterns.
"""
from __future__ import annotations

PIP_OFFSET = 0.27   # grid spacing as a fraction of the die side
PIP_RADIUS = 0.085  # pip radius as a fraction of the die side
CORNER_RADIUS = 0.13  # rounding of the die's corners, fraction of the side

Cell = tuple[int, int]
_CORNERS: tuple[Cell, ...] = ((-1, -1), (1, -1), (1, 1), (-1, 1))
CELLS: tuple[Cell, ...] = tuple((x, y) for y in (-1, 0, 1) for x in (-1, 0, 1))

# Canonical layout per value (as printed), used by the renderer.
LAYOUT: dict[int, tuple[Cell, ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: _CORNERS,
    5: _CORNERS + ((0, 0),),
    6: _CORNERS + ((-1, 0), (1, 0)),
}


def _quarter_turn(cells: tuple[Cell, ...]) -> frozenset[Cell]:
    return frozenset((-y, x) for x, y in cells)


# Every grid pattern a flat die can show -> its value (quarter turns included).
PATTERNS: dict[frozenset[Cell], int] = {}
for _value, _cells in LAYOUT.items():
    PATTERNS[frozenset(_cells)] = _value
    PATTERNS[_quarter_turn(_cells)] = _value

"""The drawing tables transcribed from the seeds, independently of the engine's tableau.py.

Rows are copied from the seed text (tabs between cells as in the seed files) and parsed here,
so a test compares the engine with what the regulation prints, not with itself.
"""
from __future__ import annotations

import re

# seed 002 §2.2.5.1 «Pedida de cartas», b) «Para la mano de la banca» (BO)
SEED_002_BANCA = """\
0,1 ó 2\t0-1-2-3-4-5-6-7-8-9\t-
3\t0-1-2-3-4-5-6-7-9\t8
4\t2-3-4-5-6-7\t0-1-8-9
5\t4-5-6-7\t0-1-2-3-8-9
6\t6-7\t0-1-2-3-4-5-8-9
7\t-\t0-1-2-3-4-5-6-7-8-9
"""

# seed 004 III §2.5 «Pedida de cartas», b) (CL-ARICA) — same table, «o» for «ó»
SEED_004_BANCA = """\
0, 1 o 2\t0-1-2-3-4-5-6-7-8-9\t-
3\t0-1-2-3-4-5-6-7-9\t8
4\t2-3-4-5-6-7\t0-1-8-9
5\t4-5-6-7\t0-1-2-3-8-9
6\t6-7\t0-1-2-3-4-5-8-9
7\t-\t0-1-2-3-4-5-6-7-8-9
"""

# seed 003 Bac §3.5.1 (LIVE-GG), machine-translated; draw lists as printed, with the reading of
# domain.md §3.2.6 («Banca 5: ... si el jugador suma 4-5-6-7» = Punto's third card is 4-7;
# «Banca 6: La banca empata si el jugador hace 6-7» = Banca draws on a third card of 6-7).
SEED_003_BANCA_DRAWS = {
    0: "0-1-2-3-4-5-6-7-8-9", 1: "0-1-2-3-4-5-6-7-8-9", 2: "0-1-2-3-4-5-6-7-8-9",  # «siempre»
    3: "1-2-3-4-5-6-7-9-0",   # «(no 8)»
    4: "2-3-4-5-6-7",
    5: "4-5-6-7",
    6: "6-7",
    7: "",                    # «La banca se mantiene»
}

# Punto, a) of the same sections: «0, 1, 2, 3, 4 Debe pedir»; «5 ... debe pedir» (in chemin de
# fer the largest Punto bettor decides); «6 ó 7 Debe plantarse»; «8 ó 9 Natural».
PUNTO_DRAWS_ON = {0, 1, 2, 3, 4, 5}
PUNTO_STANDS_ON = {6, 7}
NATURALS = {8, 9}
# «Si la mano del punto se planta ... la tabla de pedir de la banca es igual a la tabla de
# pedir del punto»: after Punto stands Banca draws on 0-5 and stands on 6-7.


def _numbers(cell: str) -> set[int]:
    return {int(x) for x in re.findall(r"\d", cell)}


def parse_banca_table(text: str) -> dict[int, tuple[set[int], set[int]]]:
    """Banca total -> (third-card values on which Banca draws, values on which it stands)."""
    table: dict[int, tuple[set[int], set[int]]] = {}
    for line in text.strip().splitlines():
        totals, draws, stands = line.split("\t")
        for total in _numbers(totals):
            table[total] = (_numbers(draws), _numbers(stands))
    return table


def banca_draws(banca: int, punto_third: int | None) -> bool:
    """The seed 002 reading, for tests that need an oracle."""
    if punto_third is None:
        return banca <= 5
    return punto_third in _BANCA[banca][0]


_BANCA = parse_banca_table(SEED_002_BANCA)


def cards_needed(punto: int, banca: int, punto_third: int | None, draw_at_5: bool = True) -> int:
    """How many cards a round uses, from the transcribed tables (punto_third used if drawn)."""
    if punto in NATURALS or banca in NATURALS:
        return 4
    punto_draws = punto in PUNTO_DRAWS_ON and (punto != 5 or draw_at_5)
    if punto_draws:
        return 5 + (punto_third in _BANCA[banca][0])
    return 4 + (banca <= 5)

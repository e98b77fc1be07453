"""Card values and the drawing tables («Pedida de cartas») of Punto y Banca.

The tables are the same in every profile that prints them: seed 002 §2.2.5.1 (BO), seed 004
III §2.5 (CL-ARICA) and, machine-translated, seed 003 Bac §3.5.1 (LIVE-GG; domain.md §3.2.6
gives the reading). Only the Punto-at-5 row differs: in BO Baccarat (chemin de fer) the player
with the largest Punto bet decides («a elección»). Everything here works on points 0-9 so the
exact edge enumeration (edges.py) and the settlement of a dealt round share one table.
"""
from __future__ import annotations

from services.rules.core.cards import Card

NATURALS = frozenset({8, 9})  # «Natural»: 8 or 9 with the first two cards ends the round

# Punto's two-card total -> draws? (None = the chemin-de-fer decider chooses at 5).
PUNTO_DRAWS: dict[int, bool] = {0: True, 1: True, 2: True, 3: True, 4: True, 5: True,
                                6: False, 7: False}

# Banca's two-card total -> Punto third-card values on which Banca draws («Pide carta si la
# tercera carta del punto es»). Totals 8-9 are naturals and never reach this table.
BANCA_DRAWS_ON: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
    7: frozenset(),
}


def point(card: Card) -> int:
    """Ace = 1, 2-9 at face value, 10 and figures = 0 (seed 002 §2.2.5.1, seed 004 III §2.5)."""
    return card.rank if card.rank < 10 else 0


def total(points: list[int]) -> int:
    """Only the units digit counts: 7 + 5 = 12 -> 2 («se desprecian las decenas»)."""
    return sum(points) % 10


def is_natural(punto: int, banca: int) -> bool:
    return punto in NATURALS or banca in NATURALS


def punto_draws(punto_total: int, choice_at_5: bool | None) -> bool:
    """Whether Punto draws.

    `choice_at_5` is None where the profile's table says «debe pedir» at 5 (Punto y Banca,
    Midi, Mini, live); in chemin de fer it is the decider's answer (True = draw).
    """
    if punto_total == 5 and choice_at_5 is not None:
        return choice_at_5
    return PUNTO_DRAWS[punto_total]


def banca_draws(banca_total: int, punto_third: int | None) -> bool:
    """Banca's row of the table; if Punto stood, Banca follows Punto's table (draws on 0-5)."""
    if punto_third is None:
        return banca_total <= 5
    return punto_third in BANCA_DRAWS_ON[banca_total]


def banca_row_text(banca_total: int, punto_third: int | None) -> str:
    """The row of the printed table that decided Banca, in the seed's own words."""
    if punto_third is None:
        return (f"Punto stood, so Banca follows Punto's table («la tabla de pedir de la banca es "
                f"igual a la tabla de pedir del punto»): Banca {banca_total} "
                f"{'draws (0-5)' if banca_total <= 5 else 'stands (6-7)'}")
    draws_on = sorted(BANCA_DRAWS_ON[banca_total])
    listed = "-".join(map(str, draws_on)) if draws_on else "—"
    verdict = "draws" if punto_third in BANCA_DRAWS_ON[banca_total] else "stands"
    return (f"Banca table row '{banca_total}': draws if Punto's third card is {listed}; "
            f"Punto's third card is {punto_third}, so Banca {verdict}")

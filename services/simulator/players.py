"""Random but valid roulette bets (and, at a small rate, the mistakes real tables see: an
over-maximum stake, a bet after «no más apuestas»). Pure: takes a random generator."""
from __future__ import annotations

import random
from dataclasses import dataclass

from contracts.money import Money
from contracts.table import BetKind, BetSpec

# Single-zero layout: number n sits at row (n-1)//3, column (n-1)%3 of the 12x3 grid.
STAKES = (100, 200, 500, 1_000, 2_500, 5_000, 10_000)
EVEN_CHANCES: tuple[BetKind, ...] = ("red", "black", "odd", "even", "low", "high")


@dataclass(frozen=True)
class Mix:
    over_max_rate: float = 0.02   # stakes above the table maximum (refused: OVER_MAXIMUM)
    late_bet_rate: float = 0.05   # per round, one bet after «no más apuestas» (BETTING_CLOSED)
    prison_rate: float = 0.0      # even chances whose player takes «prisión» on zero, where the
                                  # profile offers the choice (seed 000 §4.1.4.2 item 11)


def _numbers(kind: str, rng: random.Random) -> tuple[str, ...]:
    row, col = rng.randrange(12), rng.randrange(3)
    n = 3 * row + col + 1
    if kind == "straight":
        return (str(rng.randrange(37)),)
    if kind == "split":
        if col < 2 and rng.random() < 0.5:
            return (str(n), str(n + 1))
        n = n if n <= 33 else n - 3
        return (str(n), str(n + 3))
    if kind == "street":
        return tuple(str(3 * row + i) for i in (1, 2, 3))
    if kind == "corner":
        n = 3 * min(row, 10) + min(col, 1) + 1
        return tuple(str(x) for x in (n, n + 1, n + 3, n + 4))
    if kind == "six_line":
        first = 3 * min(row, 10) + 1
        return tuple(str(first + i) for i in range(6))
    return ()


def random_bet(rng: random.Random, currency: str, max_bet: int, mix: Mix) -> BetSpec:
    kinds: tuple[BetKind, ...] = ("straight", "straight", "split", "street", "corner",
                                  "six_line", "dozen", "column", *EVEN_CHANCES)
    kind = rng.choice(kinds)
    stake = rng.choice(STAKES)
    if rng.random() < mix.over_max_rate:
        stake = max_bet + rng.choice(STAKES)
    index = rng.randint(1, 3) if kind in ("dozen", "column") else None
    prison = kind in EVEN_CHANCES and mix.prison_rate > 0 and rng.random() < mix.prison_rate
    return BetSpec(kind=kind, numbers=_numbers(kind, rng), index=index,
                   stake=Money(amount=stake, currency=currency),
                   zero_option="prison" if prison else None)

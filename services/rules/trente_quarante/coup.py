"""One coup of Treinta y Cuarenta: the NEGRO row, then the ROJO row, each dealt until ≥ 31.

seed 000 §2.4.3.3: «El croupier de apoyo distribuirá obligatoriamente las cartas para la fila
NEGRA, hasta que la cuenta de ésta sea igual o superior a 31. Luego se iniciará la distribución
de cartas para la fila ROJA»; «el As como uno (1), del dos (2) al diez (10) por su valor y
figuras como diez (10)». So every row ends between 31 and 40 (domain.md A-18: 40 is valid).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.rules.core.cards import Card
from services.rules.core.errors import RulesError

TARGET = 31


def points(card: Card) -> int:
    """Ace 1, two to ten by their value, figures (J, Q, K) 10."""
    return min(card.rank, 10)


def is_red(card: Card) -> bool:
    return card.suit in "HD"


def row_ends(values: Sequence[int]) -> tuple[int, ...]:
    """Where each row stops in a sequence of card points: the index after the card that takes
    the NEGRO row to 31 or more, then the same for ROJO (one entry per completed row)."""
    ends, total = [], 0
    for i, value in enumerate(values):
        total += value
        if total >= TARGET:
            ends.append(i + 1)
            total = 0
            if len(ends) == 2:
                break
    return tuple(ends)


@dataclass(frozen=True)
class CoupResult:
    """What the bets depend on: the two totals and the colour of each row's first card."""

    negro: int
    rojo: int
    negro_first_red: bool
    rojo_first_red: bool

    @property
    def refait(self) -> bool:
        """The 31 tie: «empate en 31 puntos» (seed 000 §2.4.5.2)."""
        return self.negro == self.rojo == TARGET

    @property
    def winner(self) -> str | None:
        """The row closest to 31 wins; None on a tie («Ancar») or the refait."""
        if self.negro == self.rojo:
            return None
        return "negro" if self.negro < self.rojo else "rojo"


@dataclass(frozen=True)
class Coup:
    negro: tuple[Card, ...]
    rojo: tuple[Card, ...]

    def result(self) -> CoupResult:
        return CoupResult(sum(map(points, self.negro)), sum(map(points, self.rojo)),
                          is_red(self.negro[0]), is_red(self.rojo[0]))


def deal(cards: Sequence[Card], field: str = "cards") -> Coup:
    """Split the cards as they came out of the shoe into the two rows; a sequence that is
    not exactly one coup is rejected, naming the card or the row at fault."""
    ends = row_ends([points(c) for c in cards])
    if len(ends) < 2:
        row = "NEGRO" if not ends else "ROJO"
        dealt = cards[ends[0]:] if ends else cards
        raise RulesError(field, f"incomplete coup: the {row} row stops at "
                         f"{sum(map(points, dealt))}, below 31, after {len(cards)} cards "
                         "(seed 000 §2.4.3.3: each row is dealt until it reaches 31)")
    if ends[1] < len(cards):
        raise RulesError(f"{field}[{ends[1]}]", f"extra card {cards[ends[1]]}: both rows had "
                         "reached 31 before it (seed 000 §2.4.3.3)")
    return Coup(tuple(cards[:ends[0]]), tuple(cards[ends[0]:ends[1]]))

"""Blackjack card values and hand totals (seed 002 §2.1.5.3, seed 004 III §1.5.1, seed 003 BJ).

Figures count ten, the ace one or eleven «según convenga», other cards their face value.
A total is *soft* when an ace is counted as eleven.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.rules.core.cards import Card

ACE = 1
TEN = 10
_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)   # by rank; figures count ten


def value(card: Card) -> int:
    """Blackjack value of a card: ace 1 (may count 11 in a total), figures 10."""
    return _VALUE[card.rank]


@dataclass(frozen=True)
class Total:
    hard: int    # aces counted as one
    best: int    # an ace counted as eleven when that does not pass 21
    soft: bool   # best counts an ace as eleven

    @property
    def bust(self) -> bool:
        return self.hard > 21

    def __str__(self) -> str:
        if self.bust:
            return f"{self.hard} (bust)"
        return f"soft {self.best}" if self.soft else f"{self.best}"


def total(cards: Sequence[Card]) -> Total:
    hard, ace = 0, False
    for card in cards:   # a plain loop: this is the engine's hottest function
        hard += _VALUE[card.rank]
        ace = ace or card.rank == ACE
    if ace and hard + 10 <= 21:
        return Total(hard, hard + 10, True)
    return Total(hard, hard, False)


def is_two_card_21(cards: Sequence[Card]) -> bool:
    """An ace with a ten or figure (a blackjack unless the hand comes from a split)."""
    return len(cards) == 2 and sorted(value(c) for c in cards) == [ACE, TEN]


def dealer_stands(cards: Sequence[Card], hits_soft17: bool) -> bool:
    """Dealer drawing rule: draw on 16 or less, stand on 17 — soft 17 too unless H17."""
    t = total(cards)
    if t.best > 17:
        return True
    return t.best == 17 and not (t.soft and hits_soft17)


def same_value(a: Card, b: Card) -> bool:
    """Splittable pair: «dos primeras cartas del mismo valor» (10-K is a pair)."""
    return value(a) == value(b)

"""Hand classes and the integer value of a poker hand (higher value = better hand).

A five-card value packs the class and the tie-break ranks into one int, so comparing two
hands is comparing two ints:  value = class << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5
where r1..r5 are ranks 2..14 (ace high) in tie-break order (e.g. two pair: high pair, low pair,
kicker; straight: its top card, 5 for the ace-to-five "rueda"). This is the order both seeds
give: seed 000 §2.3.7.1.1 «se desempata con la carta mayor sucesivamente», seed 004 III §3.5.1
tie-breaks a)–j). Suits are never ranked («ninguna pinta se valora más que otra»).

Three-card poker (Poker Tres Cartas, seed 000 §2.3.7.1.5) has its own order, where a straight
beats a flush; its value is class << 12 | r1 << 8 | r2 << 4 | r3.
"""
from __future__ import annotations

import enum
from collections.abc import Sequence

CLASS_SHIFT = 20
THREE_SHIFT = 12


class HandClass(enum.IntEnum):
    """Five-card classes, low to high, with the seeds' Spanish names."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8   # not royal (seed 000 §2.5.5.1 «que no sea escalera real»)
    ROYAL_FLUSH = 9

    @property
    def spanish(self) -> str:
        return _SPANISH[self]


_SPANISH = {
    HandClass.HIGH_CARD: "Carta Alta", HandClass.PAIR: "Un Par", HandClass.TWO_PAIR: "Dos Pares",
    HandClass.THREE_OF_A_KIND: "Trío", HandClass.STRAIGHT: "Escalera", HandClass.FLUSH: "Color",
    HandClass.FULL_HOUSE: "Full", HandClass.FOUR_OF_A_KIND: "Póker",
    HandClass.STRAIGHT_FLUSH: "Escalera de Color", HandClass.ROYAL_FLUSH: "Escalera Real",
}


class ThreeCardClass(enum.IntEnum):
    """Three-card classes, low to high (straight above flush, trips above straight)."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5

    @property
    def spanish(self) -> str:
        return _SPANISH_THREE[self]


_SPANISH_THREE = {
    ThreeCardClass.HIGH_CARD: "Carta Alta", ThreeCardClass.PAIR: "Un Par",
    ThreeCardClass.FLUSH: "Color", ThreeCardClass.STRAIGHT: "Escalera",
    ThreeCardClass.THREE_OF_A_KIND: "Trío", ThreeCardClass.STRAIGHT_FLUSH: "Escalera de Color",
}

RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def pack(hand_class: int, ranks: Sequence[int], shift: int = CLASS_SHIFT) -> int:
    """The value of a hand of `hand_class` whose tie-break ranks (2..14) are `ranks`."""
    value = hand_class
    slots = shift // 4
    padded = list(ranks) + [0] * (slots - len(ranks))
    for rank in padded[:slots]:
        value = (value << 4) | rank
    return value


def hand_class(value: int) -> HandClass:
    return HandClass(value >> CLASS_SHIFT)


def three_card_class(value: int) -> ThreeCardClass:
    return ThreeCardClass(value >> THREE_SHIFT)


def tiebreak_ranks(value: int, shift: int = CLASS_SHIFT) -> list[int]:
    slots = shift // 4
    ranks = [(value >> (4 * (slots - 1 - i))) & 0xF for i in range(slots)]
    return [r for r in ranks if r]


def rank_text(rank: int) -> str:
    return RANK_TEXT.get(rank, str(rank))


def describe(value: int) -> str:
    """'Dos Pares (two pair): K K / 9 9 / kicker 4'-style text for explanations."""
    cls = hand_class(value)
    return _describe(cls.spanish, cls.name, tiebreak_ranks(value))


def describe_three(value: int) -> str:
    cls = three_card_class(value)
    return _describe(cls.spanish, cls.name, tiebreak_ranks(value, THREE_SHIFT))


def _describe(spanish: str, name: str, ranks: list[int]) -> str:
    words = name.lower().replace("_", " ")
    return f"{spanish} ({words}; tie-break ranks {' '.join(rank_text(r) for r in ranks)})"

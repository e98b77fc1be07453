"""Playing cards as the seeds' games use them, parsed strictly from short strings.

"AS" ace of spades, "10H" or "TH" ten of hearts, "QD", "7C". Ranks: A 2-10 J Q K; suits:
S (picas), H (corazones), D (diamantes), C (tréboles). Lower case is accepted.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from services.rules.core.errors import RulesError

RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
         "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13}
RANK_NAMES = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
SUITS = "SHDC"


@dataclass(frozen=True, order=True)
class Card:
    rank: int  # 1 = ace ... 11 = J, 12 = Q, 13 = K
    suit: str  # one of "SHDC"

    def __str__(self) -> str:
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}"


def parse_card(text: object, field: str) -> Card:
    if not isinstance(text, str) or len(text) < 2:
        raise RulesError(field, f"not a card: {text!r} (expected e.g. 'AS', '10H', 'QD')")
    rank_text, suit = text[:-1].upper(), text[-1].upper()
    if rank_text not in RANKS:
        raise RulesError(field, f"not a card: {text!r}: unknown rank {rank_text!r}")
    if suit not in SUITS:
        raise RulesError(field, f"not a card: {text!r}: unknown suit {suit!r} (use S, H, D, C)")
    return Card(RANKS[rank_text], suit)


def parse_cards(texts: object, field: str) -> list[Card]:
    if not isinstance(texts, list):
        raise RulesError(field, "must be a list of cards such as ['AS', '10H']")
    return [parse_card(t, f"{field}[{i}]") for i, t in enumerate(texts)]


def check_shoe_counts(cards: Iterable[Card], decks: int, field: str,
                      paths: Sequence[str] | None = None) -> None:
    """A sequence cannot hold a card more times than there are decks in the shoe. The error
    names the card that is one too many (`cards[6]`), or `paths[i]` when the sequence joins
    several fields (cards already dealt + this round's), so the operator finds the bad entry."""
    seen: Counter[Card] = Counter()
    for index, card in enumerate(cards):
        seen[card] += 1
        if seen[card] > decks:
            where = paths[index] if paths else f"{field}[{index}]"
            raise RulesError(where, f"impossible sequence: {card} appears {seen[card]} times "
                             f"but a {decks}-deck shoe holds only {decks}")


def full_shoe(decks: int) -> Sequence[Card]:
    return [Card(r, s) for _ in range(decks) for s in SUITS for r in range(1, 14)]

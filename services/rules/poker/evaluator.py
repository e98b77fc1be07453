"""Plain-Python hand evaluators: one hand at a time, for settlement and explanations.

`evaluate(cards)` takes 5, 6 or 7 card ints (see tables.py) and returns the value of the best
five-card hand; `evaluate3` ranks a three-card hand. `card_index`/`card_from_index` convert
from and to core.cards.Card. The numpy twins for bulk work are in vector.py.
"""
from __future__ import annotations

from collections.abc import Sequence

from services.rules.core.cards import SUITS, Card
from services.rules.poker.hands import THREE_SHIFT, HandClass, ThreeCardClass, pack
from services.rules.poker.tables import CARD_BIT, CARD_KEY, flush_table, nonflush_table

_FLUSH = flush_table()
_NONFLUSH5 = nonflush_table(5)
_NONFLUSH: dict[int, dict[int, int]] = {5: _NONFLUSH5}  # 6 and 7 cards: built on first use


def card_index(card: Card) -> int:
    rank_index = 12 if card.rank == 1 else card.rank - 2
    return rank_index * 4 + SUITS.index(card.suit)


def card_from_index(index: int) -> Card:
    rank = (index >> 2) + 2
    return Card(1 if rank == 14 else rank, SUITS[index & 3])


def evaluate5(c0: int, c1: int, c2: int, c3: int, c4: int) -> int:
    s = c0 & 3
    if (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s and (c4 & 3) == s:
        return _FLUSH[CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4]]
    return _NONFLUSH5[CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4]]


def evaluate(cards: Sequence[int]) -> int:
    """Value of the best five-card hand among 5 to 7 distinct cards."""
    n = len(cards)
    if n == 5:
        return evaluate5(*cards)
    if not 5 <= n <= 7:
        raise ValueError(f"need 5 to 7 cards, got {n}")
    masks, counts, key = [0, 0, 0, 0], [0, 0, 0, 0], 0
    for c in cards:
        masks[c & 3] |= CARD_BIT[c]
        counts[c & 3] += 1
        key += CARD_KEY[c]
    table = _NONFLUSH.get(n) or _NONFLUSH.setdefault(n, nonflush_table(n))
    best = table[key]
    for suit in range(4):
        # With 7 cards a flush excludes quads and full houses, but max() keeps it obviously right.
        if counts[suit] >= 5:
            best = max(best, _FLUSH[masks[suit]])
    return best


def evaluate3(c0: int, c1: int, c2: int) -> int:
    """Three-card value (seed 000 §2.3.7.1.5 order: straight above flush). A-2-3 is the lowest
    straight and Q-K-A the highest — the seed is silent; this is the usual three-card rule."""
    r = sorted(((c0 >> 2) + 2, (c1 >> 2) + 2, (c2 >> 2) + 2), reverse=True)
    flush = (c0 & 3) == (c1 & 3) == (c2 & 3)
    if r[0] == r[2]:
        return pack(ThreeCardClass.THREE_OF_A_KIND, r[:1], THREE_SHIFT)
    top = r[0] if r[0] - r[2] == 2 and r[0] != r[1] != r[2] else (3 if r == [14, 3, 2] else 0)
    if top:
        cls = ThreeCardClass.STRAIGHT_FLUSH if flush else ThreeCardClass.STRAIGHT
        return pack(cls, [top], THREE_SHIFT)
    if flush:
        return pack(ThreeCardClass.FLUSH, r, THREE_SHIFT)
    if r[0] == r[1] or r[1] == r[2]:
        kicker = r[2] if r[0] == r[1] else r[0]
        return pack(ThreeCardClass.PAIR, [r[1], kicker], THREE_SHIFT)
    return pack(ThreeCardClass.HIGH_CARD, r, THREE_SHIFT)


def best_five(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The best hand's value and one set of five cards making it (for explanations)."""
    from itertools import combinations
    return max((evaluate5(*five), five) for five in combinations(cards, 5))


__all__ = ["HandClass", "ThreeCardClass", "card_index", "card_from_index", "evaluate",
           "evaluate5", "evaluate3", "best_five"]

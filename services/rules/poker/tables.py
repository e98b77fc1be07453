"""Lookup tables behind the evaluators, built once from first principles (no data files).

Cards are ints 0..51: index = rank_index * 4 + suit_index, rank_index 0 = deuce … 12 = ace,
suit_index as in core.cards.SUITS ("SHDC"). Two facts make the tables small:

* A flush depends only on the 13-bit mask of the ranks in one suit (8,192 masks).
* A non-flush hand depends only on the multiset of its ranks. Each rank gets a key from
  RANK_KEYS such that the sum of the keys of up to 7 ranks (at most 4 of a rank) is unique per
  multiset of a given size. The constants are the rank hashes of the open-source SKPokerEval
  evaluator; `nonflush_table` re-checks the uniqueness every time it builds a table.
"""
from __future__ import annotations

import itertools
from functools import cache

from services.rules.poker.hands import HandClass, pack

RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
WHEEL = 0b1_0000_0000_1111  # A, 2, 3, 4, 5: the lowest straight (seed 004 III §3.5.1 «del As al 5»)

CARD_RANK = [c >> 2 for c in range(52)]          # rank index 0..12
CARD_SUIT = [c & 3 for c in range(52)]
CARD_BIT = [1 << (c >> 2) for c in range(52)]
CARD_KEY = [RANK_KEYS[c >> 2] for c in range(52)]


def straight_top(mask: int) -> int:
    """The top rank (2..14) of the best straight inside a 13-bit rank mask, 0 if none."""
    for top in range(12, 3, -1):
        window = 0x1F << (top - 4)
        if mask & window == window:
            return top + 2
    return 5 if mask & WHEEL == WHEEL else 0


def best_flush(mask: int) -> int:
    """Value of the best hand from the cards of one suit (mask has >= 5 bits)."""
    top = straight_top(mask)
    if top == 14:
        return pack(HandClass.ROYAL_FLUSH, [14])
    if top:
        return pack(HandClass.STRAIGHT_FLUSH, [top])
    ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1]
    return pack(HandClass.FLUSH, ranks[:5])


def best_nonflush(counts: list[int]) -> int:
    """Value of the best five-card non-flush hand from rank counts (5 to 7 cards)."""
    desc = [r for r in range(12, -1, -1) if counts[r]]
    at_least = lambda k: [r for r in desc if counts[r] >= k]  # noqa: E731 (local helper)
    quads, trips, pairs = at_least(4), at_least(3), at_least(2)
    if quads:
        kicker = next(r for r in desc if r != quads[0])
        return pack(HandClass.FOUR_OF_A_KIND, [quads[0] + 2, kicker + 2])
    if trips:
        others = [r for r in pairs if r != trips[0]]
        if others:
            return pack(HandClass.FULL_HOUSE, [trips[0] + 2, others[0] + 2])
    top = straight_top(sum(1 << r for r in desc))
    if top:
        return pack(HandClass.STRAIGHT, [top])
    if trips:
        return _with_kickers(HandClass.THREE_OF_A_KIND, trips[:1], desc, 2)
    if len(pairs) >= 2:
        return _with_kickers(HandClass.TWO_PAIR, pairs[:2], desc, 1)
    if pairs:
        return _with_kickers(HandClass.PAIR, pairs[:1], desc, 3)
    return pack(HandClass.HIGH_CARD, [r + 2 for r in desc[:5]])


def _with_kickers(cls: HandClass, made: list[int], desc: list[int], n: int) -> int:
    kickers = [r for r in desc if r not in made][:n]
    return pack(cls, [r + 2 for r in made + kickers])


def rank_multisets(n: int):
    """Every multiset of n ranks with at most four of a rank (as sorted tuples)."""
    for ranks in itertools.combinations_with_replacement(range(13), n):
        if all(ranks.count(r) <= 4 for r in set(ranks)):
            yield ranks


@cache
def flush_table() -> tuple[int, ...]:
    """mask -> best flush value, for every 13-bit mask with at least 5 ranks (else 0)."""
    return tuple(best_flush(m) if m.bit_count() >= 5 else 0 for m in range(1 << 13))


@cache
def nonflush_table(n: int) -> dict[int, int]:
    """sum of RANK_KEYS of n cards -> best non-flush value (n in 5..7)."""
    table: dict[int, int] = {}
    for ranks in rank_multisets(n):
        counts = [0] * 13
        for r in ranks:
            counts[r] += 1
        key = sum(RANK_KEYS[r] for r in ranks)
        if key in table:
            raise AssertionError(f"RANK_KEYS collide for {n} cards at {ranks}")
        table[key] = best_nonflush(counts)
    return table

"""Vectorised (numpy) evaluators for bulk work: exhaustive counts, simulations, house edges.

Same values as evaluator.py, for arrays of hands: `evaluate_many(cards)` takes an (N, n) int
array of card ints (n = 5, 6 or 7) and returns N values; `evaluate3_many` ranks three-card
hands. `class_counts(k)` enumerates every k-card hand of one deck and counts the best-hand
classes (k = 5: 2,598,960 hands; k = 7: 133,784,560 hands, chunked to bound memory).
"""
from __future__ import annotations

import itertools
from functools import cache, lru_cache
from math import comb

import numpy as np

from services.rules.poker.hands import CLASS_SHIFT, THREE_SHIFT, ThreeCardClass
from services.rules.poker.tables import CARD_BIT, CARD_KEY, flush_table, nonflush_table

_BIT = np.array(CARD_BIT, dtype=np.int32)
_KEY = np.array(CARD_KEY, dtype=np.int32)


@cache
def _flush_values() -> np.ndarray:
    return np.array(flush_table(), dtype=np.int32)


@cache
def _nonflush_values(n: int) -> np.ndarray:
    """A dense array indexed by the rank-key sum (≈ 6.6–7.8 M int32 entries)."""
    table = nonflush_table(n)
    keys = np.fromiter(table.keys(), dtype=np.int64, count=len(table))
    out = np.full(int(keys.max()) + 1, -1, dtype=np.int32)
    out[keys] = np.fromiter(table.values(), dtype=np.int32, count=len(table))
    return out


def as_cards(cards: object, n: int | None = None) -> np.ndarray:
    """Validate an (N, n) array of card ints 0..51 (distinct within a row is the caller's job)."""
    arr = np.asarray(cards)
    if arr.ndim != 2 or (n is not None and arr.shape[1] != n):
        raise ValueError(f"expected an (N, {n or 'n'}) array of cards, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"card ints expected, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise ValueError("card ints must be in 0..51")
    return arr


def evaluate_many(cards: object) -> np.ndarray:
    """Best five-card value of each row of 5 to 7 cards."""
    arr = as_cards(cards)
    n = arr.shape[1]
    if not 5 <= n <= 7:
        raise ValueError(f"need 5 to 7 cards per hand, got {n}")
    cols = np.ascontiguousarray(arr.T)  # one contiguous row per card position: faster gathers
    key = _KEY[cols[0]]
    for col in cols[1:]:
        key = key + _KEY[col]
    values = _nonflush_values(n)[key]
    suits = cols & 3
    for suit in range(4):
        in_suit = suits == suit
        rows = np.flatnonzero(in_suit.sum(axis=0, dtype=np.int8) >= 5)
        if rows.size:
            masks = np.bitwise_or.reduce(np.where(in_suit[:, rows], _BIT[cols[:, rows]], 0), axis=0)
            values[rows] = np.maximum(values[rows], _flush_values()[masks])
    return values


def evaluate3_many(cards: object) -> np.ndarray:
    """Three-card values (same order and encoding as evaluator.evaluate3)."""
    arr = as_cards(cards, 3)
    r = np.sort((arr >> 2) + 2, axis=1)[:, ::-1]
    r0, r1, r2 = r[:, 0], r[:, 1], r[:, 2]
    s = arr & 3
    flush = (s[:, 0] == s[:, 1]) & (s[:, 1] == s[:, 2])
    trips = r0 == r2
    distinct = (r0 != r1) & (r1 != r2)
    top = np.where(distinct & (r0 - r2 == 2), r0,
                   np.where(distinct & (r0 == 14) & (r1 == 3) & (r2 == 2), 3, 0))
    pair = ~trips & ((r0 == r1) | (r1 == r2))
    C = ThreeCardClass
    cls = np.select([trips, (top > 0) & flush, top > 0, flush, pair],
                    [C.THREE_OF_A_KIND, C.STRAIGHT_FLUSH, C.STRAIGHT, C.FLUSH, C.PAIR],
                    C.HIGH_CARD)
    zero = np.zeros_like(r0)
    a = np.select([trips, top > 0, pair], [r0, top, r1], r0)
    b = np.select([trips, top > 0, pair], [zero, zero, np.where(r0 == r1, r2, r0)], r1)
    c = np.where(trips | (top > 0) | pair, 0, r2)
    return (cls << THREE_SHIFT) | (a << 8) | (b << 4) | c


def hand_classes(values: np.ndarray, three_card: bool = False) -> np.ndarray:
    return values >> (THREE_SHIFT if three_card else CLASS_SHIFT)


def all_hands(k: int, deck: int = 52) -> np.ndarray:
    """Every k-card hand of `deck` cards in lexicographic order, as a (C(deck,k), k) array."""
    flat = itertools.chain.from_iterable(itertools.combinations(range(deck), k))
    return np.fromiter(flat, dtype=np.uint8, count=comb(deck, k) * k).reshape(-1, k)


def colex_hands(k: int, deck: int = 52) -> np.ndarray:
    """All k-subsets in colexicographic order: the first C(m, k) rows are exactly the subsets
    of range(m), which lets an enumeration fix its highest cards and reuse one block."""
    lex = all_hands(k, deck)
    return ((deck - 1) - lex[:, ::-1])[::-1]


@lru_cache(maxsize=1)
def _low_blocks() -> _LowBlocks:
    return _LowBlocks()


class _LowBlocks:
    """Per-row key sums, suit counts and suit masks of every 5-card block, computed once."""

    def __init__(self) -> None:
        blocks = colex_hands(5).astype(np.intp)
        self.key = _KEY[blocks].sum(axis=1)
        suits, bits = blocks & 3, _BIT[blocks]
        self.count = [(suits == s).sum(axis=1).astype(np.int8) for s in range(4)]
        self.mask = [np.where(suits == s, bits, 0).sum(axis=1).astype(np.int32) for s in range(4)]


def class_counts(k: int) -> np.ndarray:
    """Counts of the ten HandClass values over all C(52, k) hands (k = 5, 6 or 7), exactly.

    Each hand is split into its k-5 highest cards ("high", iterated) and the five lowest,
    which are exactly the first C(h, 5) colex blocks for the lowest high card h."""
    if not 5 <= k <= 7:
        raise ValueError("k must be 5, 6 or 7")
    low = _low_blocks()
    classes = (_nonflush_values(k) >> CLASS_SHIFT).astype(np.int8)
    flush_classes = (_flush_values() >> CLASS_SHIFT).astype(np.int8)
    totals = np.zeros(10, dtype=np.int64)
    for high in itertools.combinations(range(52), k - 5):
        rows = comb(high[0], 5) if high else comb(52, 5)
        if rows == 0:
            continue
        cls = classes[low.key[:rows] + sum(CARD_KEY[c] for c in high)]
        for suit in range(4):
            extra = [c for c in high if c & 3 == suit]
            hit = np.flatnonzero(low.count[suit][:rows] >= 5 - len(extra))
            if hit.size:
                masks = low.mask[suit][hit] | sum(CARD_BIT[c] for c in extra)
                cls[hit] = np.maximum(cls[hit], flush_classes[masks])
        totals += np.bincount(cls, minlength=10)
    return totals

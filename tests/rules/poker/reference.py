"""A deliberately naive poker classifier, written independently of the engine's tables, to
check the fast evaluators against (Counter-based, no lookup tables, no bit tricks)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

CLASSES = ["high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
           "full_house", "four_of_a_kind", "straight_flush", "royal_flush"]


def ranks_suits(cards: list[int]) -> tuple[list[int], list[int]]:
    return [c // 4 + 2 for c in cards], [c % 4 for c in cards]


def straight_high(ranks: list[int]) -> int:
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return 0
    if distinct == [2, 3, 4, 5, 14]:
        return 5
    return distinct[-1] if distinct[-1] - distinct[0] == 4 else 0


def classify5(cards: list[int]) -> tuple[int, tuple[int, ...]]:
    """(class index, tie-break ranks) of exactly five cards."""
    ranks, suits = ranks_suits(cards)
    flush = len(set(suits)) == 1
    high = straight_high(ranks)
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    ordered = tuple(r for r, _ in groups)
    if high and flush:
        return (9 if high == 14 else 8), (high,)
    if shape == [4, 1]:
        return 7, ordered
    if shape == [3, 2]:
        return 6, ordered
    if flush:
        return 5, tuple(sorted(ranks, reverse=True))
    if high:
        return 4, (high,)
    return {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0), ordered


def best_of(cards: list[int]) -> tuple[int, tuple[int, ...]]:
    return max(classify5(list(five)) for five in combinations(cards, 5))


def classify3(cards: list[int]) -> tuple[int, tuple[int, ...]]:
    """Three-card: 0 high, 1 pair, 2 flush, 3 straight, 4 trips, 5 straight flush."""
    ranks, suits = ranks_suits(cards)
    flush = len(set(suits)) == 1
    distinct = sorted(set(ranks))
    high = 0
    if len(distinct) == 3:
        high = 3 if distinct == [2, 3, 14] else (
            distinct[2] if distinct[2] - distinct[0] == 2 else 0)
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ordered = tuple(r for r, _ in groups)
    if len(distinct) == 1:
        return 4, ordered
    if high:
        return (5 if flush else 3), (high,)
    if flush:
        return 2, tuple(sorted(ranks, reverse=True))
    return (1 if len(distinct) == 2 else 0), ordered

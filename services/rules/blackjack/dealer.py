"""The dealer's hand: its drawing rule and whether more cards can still change anything.

CL seed 004 III §1.5.1 «Casos Especiales» and LIVE seed 003 BJ §4.4 stop the dealer when his
further cards cannot change any result. Instead of coding the four CL cases one by one, we
enumerate every final dealer hand still reachable and ask whether any live bet would end
differently: the four cases are instances of that test (tests check each of them).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from services.rules.blackjack.hand import ACE, TEN, dealer_stands, is_two_card_21, total, value
from services.rules.core.cards import Card


@dataclass(frozen=True)
class DealerFinal:
    best: int          # 22 stands for any bust
    blackjack: bool

    @property
    def bust(self) -> bool:
        return self.best > 21


def final_of(cards: Sequence[Card]) -> DealerFinal:
    t = total(cards)
    return DealerFinal(22 if t.bust else t.best, is_two_card_21(cards))


def reachable_finals(cards: Sequence[Card], hits_soft17: bool) -> frozenset[DealerFinal]:
    """Every final hand the dealer can still end with, whatever cards come."""
    t = total(cards)
    if t.bust or stands(cards, hits_soft17):
        return frozenset({final_of(cards)})
    has_ace = any(c.rank == ACE for c in cards)
    first = value(cards[0]) if len(cards) == 1 else 0
    return _finals(t.hard, has_ace, len(cards), first, hits_soft17)


@cache
def _finals(hard: int, has_ace: bool, n: int, first: int, h17: bool) -> frozenset[DealerFinal]:
    best = hard + 10 if has_ace and hard + 10 <= 21 else hard
    soft = best != hard
    if hard > 21:
        return frozenset({DealerFinal(22, False)})
    if n >= 2 and (best > 17 or (best == 17 and not (soft and h17))):
        return frozenset({DealerFinal(best, False)})   # a two-card 21 is caught below
    out: set[DealerFinal] = set()
    for v in range(1, 11):
        if n == 1 and sorted((first, v)) == [ACE, TEN]:
            out.add(DealerFinal(21, True))
            continue
        out |= _finals(hard + v, has_ace or v == ACE, n + 1, first, h17)
    return frozenset(out)


def is_moot(cards: Sequence[Card], hits_soft17: bool,
            live_bets: Iterable[Callable[[DealerFinal], Hashable]]) -> bool:
    """True when no live bet's result depends on the dealer's further cards."""
    finals = reachable_finals(cards, hits_soft17)
    return all(len({bet(f) for f in finals}) <= 1 for bet in live_bets)


def stands(cards: Sequence[Card], hits_soft17: bool) -> bool:
    return len(cards) >= 2 and dealer_stands(cards, hits_soft17)

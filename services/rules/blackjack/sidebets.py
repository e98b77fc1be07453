"""Perfect Pairs (seed 002 §2.1.5.3 b, §2.1.7.2; seed 004 III §1.5.1 b) and the CL promotional
prizes (seed 004 III §1.8). Pure classification; payouts are applied in settle.py."""
from __future__ import annotations

from collections.abc import Sequence

from services.rules.blackjack.hand import ACE, is_two_card_21, total
from services.rules.core.cards import Card

RED = frozenset("HD")
JACK, SPADES = 11, "S"

# name -> (pays "to 1", Spanish name of the seed)
PERFECT_PAIRS = {
    "perfect_pair": (25, "Perfect Pairs (misma pinta)"),
    "colour_pair": (15, "Par de Color"),
    "mixed_pair": (5, "Par Mezclado"),
}


def perfect_pairs_kind(first: Card, second: Card) -> str | None:
    """A pair by symbol: J, Q, K and A count by their symbol, so 10-J is no pair, 10-10 is."""
    if first.rank != second.rank:
        return None
    if first.suit == second.suit:
        return "perfect_pair"
    if (first.suit in RED) == (second.suit in RED):
        return "colour_pair"
    return "mixed_pair"


# name -> (pays "to 1", rule key in refs.py, description)
PROMOTIONS = {
    "seven_cards": (1, "promo_seven", "seven cards without passing 21"),
    "jack_of_spades_blackjack": (4, "promo_jack_spades", "blackjack with the jack of spades"),
    "three_suited_sevens": (7, "promo_three_sevens", "three 7s of the same suit"),
    "suited_678": (5, "promo_678", "6-7-8 of the same suit"),
}


def promotions_won(cards: Sequence[Card], natural: bool) -> list[str]:
    """CL prizes a finished hand earns (seed 004 III §1.8.1-§1.8.4). `natural`: the hand is a
    blackjack (its first two cards, not from a split)."""
    won = []
    if len(cards) >= 7 and not total(cards).bust:
        won.append("seven_cards")
    if natural and is_two_card_21(cards) and any(c.rank == JACK and c.suit == SPADES
                                                   for c in cards) \
            and any(c.rank == ACE for c in cards):
        won.append("jack_of_spades_blackjack")
    if len(cards) == 3 and len({c.suit for c in cards}) == 1:
        ranks = sorted(c.rank for c in cards)
        if ranks == [7, 7, 7]:
            won.append("three_suited_sevens")
        elif ranks == [6, 7, 8]:
            won.append("suited_678")
    return won

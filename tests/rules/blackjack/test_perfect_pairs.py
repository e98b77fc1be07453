"""Perfect Pairs: pairs by symbol, 25/15/5 to 1, limits (A-4), variant and profile checks."""
from __future__ import annotations

from fractions import Fraction

import pytest

from services.rules.blackjack.edges import perfect_pairs_edge
from services.rules.blackjack.sidebets import perfect_pairs_kind
from services.rules.core.cards import parse_card
from tests.rules.blackjack.helpers import error, one, settle


def _pp(profile: str, first: str, second: str, stake: int = 10, **fields):
    boxes = [{"seat": 1, "bet": 100, "perfect_pairs": stake, "actions": ["stand"]}]
    cards = [first, "7D", second, "10C"]
    return settle(profile, boxes, cards, variant="perfect_pairs", **fields)


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
@pytest.mark.parametrize("first,second,outcome,paid", [
    ("8H", "8H", "win", 260),     # Perfect Pair, same suit: 25:1
    ("8H", "8D", "win", 160),     # Par de Color: 15:1
    ("8H", "8S", "win", 60),      # Par Mezclado: 5:1
    ("10H", "10S", "win", 60),    # 10-10 is a pair
    ("10H", "JH", "lose", 0),     # 10-J is not: figures count by symbol
    ("QH", "KH", "lose", 0),
    ("AH", "AD", "win", 160),
])
def test_perfect_pairs_pay_table(profile, first, second, outcome, paid):
    bet = one(_pp(profile, first, second), "perfect_pairs")
    assert (bet["outcome"], bet["paid"]) == (outcome, paid)
    assert bet["rule"] == {"BO": "seed 002 §2.1.7.2", "CL-ARICA": "seed 004 III §1.5.1"}[profile]


def test_perfect_pairs_is_independent_of_the_main_bet():
    # the pair of 8s wins its side bet, then the box busts
    out = settle("BO", [{"seat": 1, "bet": 100, "perfect_pairs": 10, "actions": ["hit"]}],
                 ["8H", "7D", "8C", "KS", "10C"], variant="perfect_pairs")
    assert one(out, "perfect_pairs")["paid"] == 60
    assert one(out)["outcome"] == "lose"


def test_perfect_pairs_limits_as_printed_return_the_excess():
    # table minimum 1000: PP 100..800 (A-4 literal); 900 plays 800, 100 returned
    out = _pp("BO", "8H", "8H", stake=900, limits={"minimum": 1000, "maximum": 50000})
    bet = one(out, "perfect_pairs")
    assert (bet["stake"], bet["paid"], bet["excess_returned"]) == (900, 800 * 26 + 100, 100)


def test_perfect_pairs_limit_reading_of_the_main_bet():
    limits = {"minimum": 50, "maximum": 50000}
    of_bet = _pp("BO", "8H", "2C", stake=80, limits=limits,
                 switches={"bj_pp_limits": "of_main_bet"})
    assert one(of_bet, "perfect_pairs").get("excess_returned", 0) == 0   # 80 % of the bet 100
    printed = _pp("BO", "8H", "2C", stake=80, limits=limits)
    assert one(printed, "perfect_pairs")["excess_returned"] == 40       # 80 % of 50 = 40


def test_perfect_pairs_needs_its_variant_and_is_not_live():
    err = error("BO", [{"seat": 1, "bet": 100, "perfect_pairs": 10}], ["8H", "7D", "8C", "10C"])
    assert err["field"] == "boxes[0].perfect_pairs"
    err = error("LIVE-GG", [{"seat": 1, "bet": 100, "perfect_pairs": 10}],
                ["8H", "7D", "8C", "10C"], variant="perfect_pairs")
    assert err["field"] == "variant"


def test_pair_classification_by_symbol_and_colour():
    c = parse_card
    assert perfect_pairs_kind(c("KS", "a"), c("KS", "b")) == "perfect_pair"
    assert perfect_pairs_kind(c("KS", "a"), c("KC", "b")) == "colour_pair"
    assert perfect_pairs_kind(c("KH", "a"), c("KC", "b")) == "mixed_pair"
    assert perfect_pairs_kind(c("KH", "a"), c("QH", "b")) is None


def test_perfect_pairs_edge_is_exact_for_six_decks():
    # 6 decks, 311 unseen cards after the first: 5 same card, 6 same colour other suit,
    # 12 other colour: EV = (25·5 + 15·6 + 5·12 − 288) / 311 = −13/311
    assert perfect_pairs_edge(6) == Fraction(13, 311)
    assert perfect_pairs_edge(1) == Fraction(-(25 * 0 + 15 * 1 + 5 * 2 - 48), 51)

"""Evaluators: exhaustive class counts, agreement with an independent naive classifier,
tie-break order of seed 004 III §3.5.1 a)–j), and plain/vectorised agreement."""
from __future__ import annotations

import random
from math import comb

import numpy as np
import pytest

from services.rules.core.cards import parse_cards
from services.rules.poker.edges import deal
from services.rules.poker.evaluator import (
    best_five,
    card_from_index,
    card_index,
    evaluate,
    evaluate3,
)
from services.rules.poker.hands import THREE_SHIFT, HandClass, ThreeCardClass, tiebreak_ranks
from services.rules.poker.vector import (
    all_hands,
    class_counts,
    colex_hands,
    evaluate3_many,
    evaluate_many,
    hand_classes,
)
from tests.rules.poker import reference

# Known counts (e.g. Wikipedia "Poker probability"), high card .. royal flush.
FIVE_CARD = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
SIX_CARD = [6_612_900, 9_730_740, 2_532_816, 732_160, 361_620, 205_792, 165_984, 14_664, 1_656, 188]
SEVEN_CARD = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
              224_848, 37_260, 4_324]
THREE_CARD = [16_440, 3_744, 1_096, 720, 52, 48]  # high, pair, flush, straight, trips, SF


def cards(text: str) -> list[int]:
    return [card_index(c) for c in parse_cards(text.split(), "cards")]


def value(text: str) -> int:
    return evaluate(cards(text))


def test_all_2598960_five_card_hands_have_the_known_class_counts():
    values = evaluate_many(all_hands(5))
    assert len(values) == 2_598_960
    assert np.bincount(hand_classes(values), minlength=10).tolist() == FIVE_CARD
    assert len(np.unique(values)) == 7_462  # distinct hand strengths of five-card poker


def test_all_five_card_hands_by_the_enumerator_match_the_vectorised_evaluator():
    assert class_counts(5).tolist() == FIVE_CARD


def test_all_20358520_six_card_hands_have_the_known_best_hand_counts():
    assert class_counts(6).tolist() == SIX_CARD


def test_all_22100_three_card_hands_have_the_known_class_counts():
    values = evaluate3_many(all_hands(3))
    assert np.bincount(hand_classes(values, three_card=True), minlength=6).tolist() == THREE_CARD


def test_seven_card_sample_frequencies_agree_with_the_exact_counts():
    """Verified sampled check of the 7-card path (the full 133,784,560 run is a benchmark)."""
    n = 400_000
    hands = deal(np.random.default_rng(7), n, 7)  # also checks the simulations' dealer is fair
    observed = np.bincount(hand_classes(evaluate_many(hands)), minlength=10)
    p = np.array(SEVEN_CARD) / sum(SEVEN_CARD)
    sigma = np.sqrt(n * p * (1 - p))
    assert np.all(np.abs(observed - n * p) <= 5 * sigma + 1), (observed, n * p)


@pytest.mark.parametrize("n", [5, 6, 7])
def test_plain_and_vectorised_evaluators_agree_with_the_naive_reference(n):
    rng = random.Random(n)
    hands = [rng.sample(range(52), n) for _ in range(1500)]
    fast = evaluate_many(np.array(hands))
    for hand, vec in zip(hands, fast):
        plain = evaluate(hand)
        assert plain == vec
        cls, ranks = reference.best_of(hand)
        assert (plain >> 20, tuple(tiebreak_ranks(plain))) == (cls, ranks), hand


def test_three_card_evaluators_agree_with_the_naive_reference_on_every_hand():
    hands = all_hands(3)
    fast = evaluate3_many(hands)
    for hand, vec in zip(hands.tolist(), fast.tolist()):
        assert evaluate3(*hand) == vec
        cls, ranks = reference.classify3(hand)
        assert (vec >> THREE_SHIFT, tuple(tiebreak_ranks(vec, THREE_SHIFT))) == (cls, ranks)


def test_three_card_order_straight_beats_flush_and_ace_two_three_is_lowest_straight():
    def v3(t):
        return evaluate3(*cards(t))
    assert v3("2S 3D 4H") > v3("AS KS 9S")                 # straight > flush (seed 000 §2.3.7.1.5)
    assert v3("2C 2D 2H") > v3("QS KD AH")                 # trips > straight
    assert v3("AS 2D 3H") < v3("2S 3D 4H") < v3("QS KD AH")
    assert v3("AS 2S 3S") >> THREE_SHIFT == ThreeCardClass.STRAIGHT_FLUSH
    assert v3("KS AS 2S") >> THREE_SHIFT == ThreeCardClass.FLUSH  # no wrap-around


@pytest.mark.parametrize("better, worse", [
    ("AS KD 9C 5H 3D", "AH KC 9D 5S 2C"),     # a) As y Rey: next highest card decides
    ("9S 9D AC 5H 3D", "9H 9C KD 5S 4C"),     # b) pair: same pair, kicker
    ("KS KD 9C 9H 2D", "KH KC 8D 8S AC"),     # c) two pair: second pair before kicker
    ("KS KD 9C 9H 3D", "KH KC 9D 9S 2C"),     # c) then the remaining card
    ("4S 4D 4C 2H 3D", "3H 3C 3D AS KC"),     # d) trips by the trio
    ("6S 5D 4C 3H 2D", "5H 4C 3D 2S AC"),     # e) the wheel is the lowest straight
    ("AS 9S 7S 5S 3S", "KH QH JH 9H 8H"),     # f) flush by highest card
    ("3S 3D 3C 2H 2D", "2H 2C 2S AS AC"),     # g) full by the trio
    ("9S 9D 9C 9H 2D", "8H 8C 8D 8S AC"),     # h) quads by the four cards
    ("KS QS JS 10S 9S", "6H 5H 4H 3H 2H"),    # i) straight flush by rank
    ("5D 4D 3D 2D AD", "KC QC JC 10C 8C"),    # the wheel flush is a straight flush
])
def test_seed_004_tie_break_order(better, worse):
    assert value(better) > value(worse)


def test_identical_values_tie_and_royal_against_royal_is_a_tie():
    assert value("AS KD 9C 5H 3D") == value("AH KC 9D 5S 3C")
    assert value("AS KS QS JS 10S") == value("AH KH QH JH 10H")           # j)
    assert value("AS KS QS JS 10S") >> 20 == HandClass.ROYAL_FLUSH


def test_best_of_seven_finds_hidden_hands():
    assert value("AS KD 7C 7H 2D 7D 7S") >> 20 == HandClass.FOUR_OF_A_KIND
    assert value("2S 3S 9D 5S 4S 6S KS") >> 20 == HandClass.STRAIGHT_FLUSH
    assert value("AS AD AC KH KD KC 2S") >> 20 == HandClass.FULL_HOUSE
    best, five = best_five(cards("AS AD AC KH KD KC 2S"))
    assert best == value("AS AD AC KH KD") and len(five) == 5


def test_card_index_round_trips_through_core_cards():
    for i in range(52):
        assert card_index(card_from_index(i)) == i


def test_colex_blocks_are_prefixes_of_subsets_of_range_m():
    blocks = colex_hands(3, 8)
    for m in range(3, 9):
        assert blocks[:comb(m, 3)].max() == m - 1
        assert len({tuple(r) for r in blocks[:comb(m, 3)].tolist()}) == comb(m, 3)


def test_vectorised_input_is_validated():
    with pytest.raises(ValueError):
        evaluate_many(np.array([[0, 1, 2, 3]]))
    with pytest.raises(ValueError):
        evaluate_many(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(ValueError):
        evaluate_many(np.array([[0.0, 1, 2, 3, 4]]))

"""Bad input gets an error naming the field and the reason."""
from __future__ import annotations

import pytest

from tests.rules.poker.conftest import errors

DEALER = "AS KD 7C 5H 2D"


def seat(cards="QS QD 9C 4H 3D", **kw):
    return {"seat": 1, "cards": cards, "ante": 100, "bet": 200, **kw}


@pytest.mark.parametrize("cards, field, words", [
    ("1X QD 9C 4H 3D", "seats[0].cards[0]", "unknown rank"),
    ("QS QD 9C 4H 3Z", "seats[0].cards[4]", "unknown suit"),
    ("QS QD 9C 4H", "seats[0].cards", "exactly 5 cards"),
    ("QS QD 9C 4H 3D 2D", "seats[0].cards", "exactly 5 cards"),
    ("QS QD 9C 4H AS", "seats[0].cards[4]",
     "duplicate card 'AS': already dealt at dealer.cards[0]"),
    ("QS QD 9C 4H QS", "seats[0].cards[4]", "duplicate card"),
])
def test_bad_cards_are_named(cards, field, words):
    err = errors("BO", "caribbean", DEALER, [seat(cards)])[0]
    assert err["field"] == field and words in err["reason"]


def test_duplicate_across_seats_and_discards():
    err = errors("BO", "draw", DEALER, [seat(), {"seat": 2, "cards": "2C 3C 8D 9S JH", "ante": 100,
                                               "bet": 200, "discarded": ["QD"]}])[0]
    assert err["field"] == "seats[1].discarded[0]" and "seats[0].cards[1]" in err["reason"]


def test_three_card_hands_have_three_cards():
    err = errors("BO", "three_card", "QS 5D 2C", [seat("KH 9C 4D 2H 3H")],
                 switches={"poker_three_card_ante_on_win": "returned",
                           "poker_three_card_high_card_win": "returned"})[0]
    assert err["field"] == "seats[0].cards" and "exactly 3" in err["reason"]


@pytest.mark.parametrize("profile, variant, words", [
    ("BO", "texas", "unknown poker variant"),
    ("BO", "arica", "not a banked poker game of profile BO"),
    ("CL-ARICA", "caribbean", "CL-ARICA defines: arica, arica_plus"),
])
def test_variant_must_belong_to_the_profile(profile, variant, words):
    err = errors(profile, variant, DEALER, [seat()])[0]
    assert err["field"] == "variant" and words in err["reason"]


def test_game_is_not_offered_by_other_profiles():
    err = errors("LIVE-GG", "caribbean", DEALER, [seat()])[0]
    assert err["field"] == "profile" and "does not define poker" in err["reason"]


@pytest.mark.parametrize("bad_seat, field", [
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": 100}, "seats[0].bet"),
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": 100, "bet": 200, "fold": True}, "seats[0].bet"),
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": -5, "bet": 200}, "seats[0].ante"),
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": "12.5", "bet": 200}, "seats[0].ante"),
    ({"seat": 0, "cards": "QS QD 9C 4H 3D", "ante": 100, "bet": 200}, "seats[0].seat"),
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": 100, "bet": 200, "bett": 1}, "seats[0].bett"),
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": 100, "bet": 200, "fold": "yes"},
     "seats[0].fold"),
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": 100, "go": [1, 1]}, "seats[0].go"),
    ({"seat": 1, "cards": "QS QD 9C 4H 3D", "ante": 100, "bet": 200, "discarded": ["2C"]},
     "seats[0].discarded"),
])
def test_bad_seat_fields_are_named(bad_seat, field):
    assert errors("BO", "caribbean", DEALER, [bad_seat])[0]["field"] == field


def test_seat_numbers_are_unique_and_cl_has_six_seats():
    assert errors("BO", "caribbean", DEALER,
                  [seat(), seat("2C 3C 8D 9S JH")])[0]["field"] == "seats[1].seat"
    err = errors("CL-ARICA", "arica", DEALER, [dict(seat(), seat=7, ante=100, bet=200)])[0]
    assert err["field"] == "seats[0].seat" and "6 seats" in err["reason"]


def test_round_level_fields():
    assert errors("BO", "caribbean", None, [seat()])[0]["field"] == "dealer"
    assert errors("BO", "caribbean", DEALER, [])[0]["field"] == "seats"
    assert errors("BO", "caribbean", DEALER, [seat()], table=3)[0]["field"] == "table"
    err = errors("BO", "caribbean", DEALER, [seat()], progressive={"pool": 10})[0]
    assert err["field"] == "progressive.unit_value"


def test_progressive_only_on_eligible_games():
    err = errors("BO", "three_card", "QS 5D 2C", [seat("KH 9C 4D", progressive=1)],
                 switches={"poker_three_card_ante_on_win": "returned",
                           "poker_three_card_high_card_win": "returned"})[0]
    assert err["field"] == "seats[0].progressive" and "§2.5.3" in err["reason"]


def test_unknown_switch_value_is_rejected():
    err = errors("BO", "caribbean", DEALER, [seat()],
                 switches={"poker_bet_when_dealer_unqualified": "maybe"})[0]
    assert err["field"] == "switches.poker_bet_when_dealer_unqualified"

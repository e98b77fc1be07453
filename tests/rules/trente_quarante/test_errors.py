"""Malformed and impossible input is rejected naming the field."""
from __future__ import annotations

import pytest

from tests.rules.trente_quarante.helpers import error, every_bet

NEGRO_WINS = ["KS", "9H", "7C", "5D", "QH", "JD", "8S", "4C"]


@pytest.mark.parametrize("bad, field, words", [
    ("1X", "cards[2]", "unknown rank '1'"), ("10Z", "cards[2]", "unknown suit 'Z'"),
    ("", "cards[2]", "not a card"), (7, "cards[2]", "not a card"), ("KSS", "cards[2]", "rank"),
])
def test_malformed_cards(bad, field, words):
    cards = NEGRO_WINS[:2] + [bad] + NEGRO_WINS[3:]
    got, reason = error(cards, every_bet())
    assert got == field and words in reason, reason


def test_cards_must_be_a_list():
    assert error("KS 9H", every_bet())[0] == "cards"
    assert error(None, every_bet())[0] == "cards"


def test_impossible_sequence_for_the_shoe_size():
    cards = ["AS"] * 7 + ["KH", "KH", "KS"] + ["AD", "KD", "KC", "KH"]
    field, reason = error(cards, every_bet(), decks=6)
    assert field == "cards[6]" and "AS appears 7 times but a 6-deck shoe holds only 6" in reason


def test_impossible_counting_the_cards_already_dealt_from_the_shoe():
    field, reason = error(NEGRO_WINS, every_bet(), dealt_before=["KS"] * 6)
    assert field == "cards[0]" and "KS appears 7 times" in reason  # the 7th KS of the shoe
    assert error(NEGRO_WINS, every_bet(), dealt_before=["ZZ"])[0] == "dealt_before[0]"


@pytest.mark.parametrize("decks", [5, 9, None, "6", True])
def test_shoe_has_6_to_8_decks(decks):
    field, reason = error(NEGRO_WINS, every_bet(), decks=decks)
    assert field == "decks" and "6 to 8" in reason


def test_incomplete_and_overlong_coups():
    field, reason = error(NEGRO_WINS[:6], every_bet())
    assert field == "cards" and "ROJO row stops at 20" in reason
    field, reason = error(NEGRO_WINS[:2], every_bet())
    assert field == "cards" and "NEGRO row stops at 19" in reason
    field, reason = error(NEGRO_WINS + ["2H"], every_bet())
    assert field == "cards[8]" and "extra card 2H" in reason


@pytest.mark.parametrize("bet, field, words", [
    ({"kind": "verde", "amount": 10}, "bets[0].kind", "one of rojo"),
    ({"kind": "rojo", "amount": -1}, "bets[0].amount", "negative"),
    ({"kind": "rojo", "amount": 10, "insured": True}, "bets[0].insured", "only a bet in prison"),
    ({"kind": "rojo", "amount": 10, "surrender": True}, "bets[0].surrender",
     "only a bet in prison"),
    ({"kind": "rojo", "amount": 10, "imprisoned": True, "surrender": True, "insured": True},
     "bets[0].insured", "surrendered"),
    ({"kind": "rojo", "amount": 10, "imprisoned": "yes"}, "bets[0].imprisoned", "true or false"),
    ({"kind": "rojo", "amount": 10, "side": "left"}, "bets[0].side", "unknown bet field"),
])
def test_bet_errors(bet, field, words):
    got, reason = error(NEGRO_WINS, [bet])
    assert got == field and words in reason, reason


def test_duplicate_ids_and_every_error_at_once():
    from services.rules.api import settle_request
    out = settle_request({"game": "trente_quarante", "profile": "BO", "decks": 4, "cards": [],
                          "bets": [{"id": "a", "kind": "rojo", "amount": 1},
                                   {"id": "a", "kind": "negro", "amount": 1}]})
    assert [e["field"] for e in out["errors"]] == ["decks", "bets[1].id"]


def test_only_bo_defines_the_game():
    from services.rules.api import settle_request
    out = settle_request({"game": "trente_quarante", "profile": "CL-ARICA", "decks": 6,
                          "cards": NEGRO_WINS, "bets": []})
    assert out["errors"][0]["field"] == "profile"

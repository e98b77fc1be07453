"""Bad input: every error names the field and says why."""
from __future__ import annotations

import pytest

from services.rules.api import settle_request
from tests.rules.blackjack.helpers import error, one, request, settle

BOX = {"seat": 1, "bet": 100}
CARDS = ["10H", "7D", "9S", "10C"]


@pytest.mark.parametrize("boxes,cards,fields,field,words", [
    ([BOX], ["10H", "1X", "9S", "10C"], {}, "cards[1]", "unknown rank '1'"),
    ([BOX], ["10H", "7Z", "9S", "10C"], {}, "cards[1]", "unknown suit"),
    ([BOX], ["10H", 7, "9S", "10C"], {}, "cards[1]", "not a card"),
    ([BOX], "10H 7D", {}, "cards", "list"),
    ([BOX], ["KS"] * 7, {}, "cards[6]", "appears 7 times but a 6-deck shoe"),
    ([BOX], [{"card": "5D", "irregularity": "lost"}], {}, "cards[0].irregularity", "one of"),
    ([BOX], [{"card": "5D", "why": "x"}], {}, "cards[0].why", "unknown field"),
    ([], CARDS, {}, "boxes", "non-empty"),
    ([{"seat": 0, "bet": 100}], CARDS, {}, "boxes[0].seat", "1-7"),
    ([{"seat": 7, "bet": 100}], CARDS, {"profile": "CL-ARICA"}, "boxes[0].seat", "1-6"),
    ([{"seat": 1}], CARDS, {}, "boxes[0].bet", "integer amount"),
    ([{"seat": 1, "bet": -5}], CARDS, {}, "boxes[0].bet", "negative"),
    ([{"seat": 1, "bet": 10.5}], CARDS, {}, "boxes[0].bet", "fractional"),
    ([{"seat": 1, "bet": 100, "actions": ["fly"]}], CARDS, {}, "boxes[0].actions[0]",
     "unknown decision"),
    ([{"seat": 1, "bet": 100, "actions": "hit"}], CARDS, {}, "boxes[0].actions", "list"),
    ([{"seat": 1, "bet": 100, "even_money": "yes"}], CARDS, {}, "boxes[0].even_money",
     "true or false"),
    ([{"seat": 1, "bet": 100, "tip": 5}], CARDS, {}, "boxes[0].tip", "unknown field"),
    ([{"seat": 1, "bet": 100, "insurance": [1]}], CARDS, {}, "boxes[0].insurance",
     "integer amount"),
    ([BOX, {"seat": 1, "bet": 5}], CARDS, {}, "boxes[1].seat", "already taken by boxes[0]"),
    ([BOX], CARDS, {"variant": "spanish21"}, "variant", "unknown variant"),
    ([BOX], CARDS, {"limits": {"minimum": 10}}, "limits.maximum", "integer amount"),
    ([BOX], CARDS, {"limits": {"minimum": 500, "maximum": 100}}, "limits", "minimum"),
    ([BOX], CARDS, {"incomplete": True}, "incomplete", "cut_card_missing"),
    ([BOX], CARDS, {"shoe": 1}, "shoe", "unknown field"),
    ([BOX], CARDS, {"switches": {"bj_double": "never"}}, "switches.bj_double", "not one of"),
    ([BOX], ["10H", "7D"], {}, "cards", "sequence ends"),
])
def test_bad_input_names_the_field(boxes, cards, fields, field, words):
    profile = fields.pop("profile", "BO")
    err = error(profile, boxes, cards, **fields)
    assert err["field"] == field
    assert words in err["reason"]


def test_blackjack_is_not_a_game_of_the_argentine_roulette_profile():
    out = settle_request(request("AR-RUL", [BOX], CARDS))
    assert out["errors"][0]["field"] == "profile"


def test_live_over_maximum_bet_is_rejected_before_the_deal():
    err = error("LIVE-GG", [{"seat": 1, "bet": 600}], ["10H", "7D", "9S", "10C"],
                limits={"minimum": 10, "maximum": 500})
    assert err["field"] == "boxes[0].bet" and "rejects" in err["reason"]


def test_bo_over_maximum_bet_plays_the_maximum_and_returns_the_excess():
    win = settle("BO", [{"seat": 1, "bet": 600}], ["10H", "7D", "9S", "10C"],
                 limits={"minimum": 10, "maximum": 500})
    lose = settle("BO", [{"seat": 1, "bet": 600}], ["10H", "7D", "6S", "10C"],
                  limits={"minimum": 10, "maximum": 500})
    assert (one(win)["stake"], one(win)["paid"], one(win)["excess_returned"]) == (600, 1100, 100)
    assert (one(lose)["paid"], one(lose)["outcome"]) == (100, "lose")

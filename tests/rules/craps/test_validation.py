"""Bad input gets an error naming the field and the reason."""
from __future__ import annotations

from typing import Any

import pytest

from services.rules.api import settle_request
from tests.rules.craps.oracle import error, ok


@pytest.mark.parametrize("dice, field", [
    ([0, 3], "rolls[0][0]"), ([3, 7], "rolls[0][1]"), ([3], "rolls[0]"), ([3, 4, 5], "rolls[0]"),
    ("7", "rolls[0]"), ([True, 3], "rolls[0][0]"), ([2.5, 3], "rolls[0][0]"),
])
def test_dice_must_be_two_faces_1_to_6(dice, field):
    got, reason = error(rolls=[dice])
    assert got == field and ("1 to 6" in reason or "pair of dice" in reason)


def test_dice_inside_a_roll_object():
    assert error(rolls=[{"dice": [6, 9]}])[0] == "rolls[0].dice[1]"
    assert error(rolls=[{"void": "cosmic_ray"}])[0] == "rolls[0].void"
    assert error(rolls=[{"dice": [1, 1], "void": "slid"}])[0] == "rolls[0]"
    assert error(rolls=[{"dice": [1, 1], "extra": 1}])[0] == "rolls[0].extra"


@pytest.mark.parametrize("bet, field, words", [
    ({"kind": "place", "number": 7, "amount": 100}, "bets[0].number", "7 is not one of them"),
    ({"kind": "place", "amount": 100}, "bets[0].number", "required"),
    ({"kind": "hardway", "number": 5, "amount": 100}, "bets[0].number", "4, 6, 8, 10"),
    ({"kind": "big_6", "number": 8, "amount": 100}, "bets[0].number", "8 is not one of them"),
    ({"kind": "field", "number": 4, "amount": 100}, "bets[0].number", "has no number"),
    ({"kind": "odds", "number": 4, "on": "x", "amount": 100}, "bets[0].number", "\"on\""),
    ({"kind": "odds", "amount": 100}, "bets[0].on", "name the line bet"),
    ({"kind": "field", "on": "b0", "amount": 100}, "bets[0].on", "only odds"),
    ({"kind": "yo", "amount": 100}, "bets[0].kind", "unknown craps bet kind"),
    ({"kind": "field", "amount": -5}, "bets[0].amount", "negative"),
    ({"kind": "field", "amount": 0}, "bets[0].amount", "greater than zero"),
    ({"kind": "field", "amount": "12.5"}, "bets[0].amount", "fractional"),
    ({"kind": "field", "amount": 100, "working": True}, "bets[0].working", "hardway"),
    ({"kind": "field", "amount": 100, "colour": "red"}, "bets[0].colour", "unknown bet field"),
    ({"kind": "field", "amount": 100, "id": ""}, "bets[0].id", "non-empty"),
    ({"kind": "place", "number": 4, "amount": 100, "commission_paid": True},
     "bets[0].commission_paid", "buy or lay"),
])
def test_bet_errors_name_the_field(bet, field, words):
    got, reason = error(bets=[bet], rolls=[[1, 1]])
    assert got == field and words in reason, reason


def test_every_bad_bet_is_reported_at_once():
    out = settle_request({"game": "craps", "profile": "BO", "variant": "craps", "point": None,
                          "bets": [{"kind": "place", "number": 7, "amount": 1},
                                   {"kind": "field", "amount": -1}], "rolls": [[9, 9]]})
    assert [e["field"] for e in out["errors"]] == ["bets[0].number", "bets[1].amount",
                                                   "rolls[0][0]", "rolls[0][1]"]


def test_request_level_fields():
    base: dict[str, Any] = {"game": "craps", "profile": "BO", "variant": "craps", "point": None,
                            "bets": [], "rolls": []}
    for broken, field in (({"variant": "street_craps"}, "variant"), ({"point": 7}, "point"),
                          ({"point": True}, "point"), ({"bets": {}}, "bets"),
                          ({"rolls": "3,4"}, "rolls")):
        out = settle_request({**base, **broken})
        assert out["ok"] is False and out["errors"][0]["field"] == field, out
    del base["point"]
    out = settle_request(base)
    assert out["errors"][0] == {"field": "point", "reason": out["errors"][0]["reason"]}
    assert "null when OFF" in out["errors"][0]["reason"]


def test_roulette_profile_does_not_define_craps():
    out = settle_request({"game": "craps", "profile": "AR-RUL", "variant": "craps", "point": None,
                          "bets": [], "rolls": []})
    assert out["errors"][0]["field"] == "profile"


def test_odds_need_a_line_bet_with_a_point_on_the_right_side():
    place = {"id": "pl", "kind": "place", "number": 6, "amount": 100}
    assert error(point=6, bets=[place, {"kind": "odds", "on": "pl", "amount": 100}]) == (
        "bets[1].on",
        "odds back a line bet (pass, don't pass, come, don't come); pl is a place bet")
    field, reason = error(bets=[{"id": "p", "kind": "pass_line", "amount": 100},
                                {"kind": "odds", "on": "p", "amount": 100}])
    assert field == "bets[1].on" and "no point yet" in reason
    field, reason = error(point=6, bets=[{"id": "p", "kind": "pass_line", "amount": 100},
                                         {"kind": "dont_odds", "on": "p", "amount": 100}])
    assert field == "bets[1].kind" and "its odds are odds" in reason
    assert error(point=6, bets=[{"kind": "odds", "on": "nobody", "amount": 1}])[0] == "bets[0].on"


def test_odds_may_come_before_their_line_bet_in_the_list():
    out = ok(point=6, bets=[{"id": "o", "kind": "odds", "on": "p", "amount": 500},
                            {"id": "p", "kind": "pass_line", "amount": 500}], rolls=[[3, 3]])
    assert [b["paid"] for b in out["bets"]] == [1000, 1100]


def test_pass_line_point_must_match_the_table():
    field, reason = error(point=6, bets=[{"kind": "pass_line", "number": 8, "amount": 1}])
    assert field == "bets[0].number" and "table's point 6" in reason
    field, reason = error(bets=[{"kind": "pass_line", "number": 8, "amount": 1}])
    assert field == "bets[0].number" and "point is OFF" in reason


def test_single_craps_bets_in_cl_need_the_switch():
    field, reason = error("CL-ARICA", bets=[{"kind": "craps_2", "amount": 100}], rolls=[[1, 1]])
    assert field == "bets[0].kind" and "silent on 'craps_single_craps_pays'" in reason
    out = ok("CL-ARICA", switches={"craps_single_craps_pays": "15_30"},
             bets=[{"kind": "craps_2", "amount": 100}], rolls=[[1, 1]])
    assert out["bets"][0]["paid"] == 3100 and "C-26" in out["bets"][0]["rule_note"]
    field, reason = error("BO", switches={"craps_single_craps_pays": "not_offered"},
                          bets=[{"kind": "craps_3", "amount": 100}], rolls=[[1, 2]])
    assert field == "bets[0].kind" and "not offered" in reason


def test_unknown_switch_value_is_rejected():
    out = settle_request({"game": "craps", "profile": "BO", "switches": {
        "craps_quote_reading": "por_uno"}, "variant": "craps", "point": None, "bets": [],
        "rolls": []})
    assert out["errors"][0]["field"] == "switches.craps_quote_reading"

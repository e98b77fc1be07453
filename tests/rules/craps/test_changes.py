"""Withdrawing, reducing and increasing bets between rolls (domain.md §4.6, A-29, C-28)."""
from __future__ import annotations

import pytest

from tests.rules.craps.oracle import by_id, error, ok

PASS_ON_6 = {"id": "p", "kind": "pass_line", "amount": 1000}
DONT_ON_6 = {"id": "d", "kind": "dont_pass", "amount": 1000}


def test_place_bet_withdrawn_comes_back_whole_and_is_not_decided_later():
    out = ok(bets=[{"id": "pl", "kind": "place", "number": 8, "amount": 600}],
             rolls=[[1, 2], {"dice": [4, 4], "remove": ["pl"]}])
    (bet,) = by_id(out)["pl"]
    assert (bet["outcome"], bet["stake"], bet["paid"], bet["roll"]) == ("void", 600, 600, 1)
    assert out["totals"]["house_win"] == 0


def test_reduction_returns_the_difference_and_the_rest_plays():
    out = ok(bets=[{"id": "b", "kind": "big_6", "amount": 1000}],
             rolls=[{"dice": [3, 3], "amounts": {"b": 400}}])
    back, played = by_id(out)["b"]
    assert (back["outcome"], back["paid"]) == ("void", 600)
    assert (played["outcome"], played["stake"], played["paid"]) == ("win", 400, 800)
    assert out["totals"] == {"staked": 1000, "paid": 1400, "house_win": -400}


def test_withdrawing_a_line_bet_takes_its_odds_with_it():
    out = ok("CL-ARICA", point=6, bets=[DONT_ON_6, {"id": "x", "kind": "dont_odds", "on": "d",
                                                   "amount": 1200}],
             rolls=[{"dice": [3, 4], "remove": ["d"]}])
    assert [(b["id"], b["outcome"], b["paid"]) for b in out["bets"]] == [
        ("d", "void", 1000), ("x", "void", 1200)]


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_pass_line_with_a_point_cannot_be_withdrawn_or_reduced(profile):
    for change in ({"remove": ["p"]}, {"amounts": {"p": 500}}):
        field, reason = error(profile, point=6, bets=[PASS_ON_6],
                              rolls=[{"dice": [1, 1], **change}])
        assert field in ("rolls[0].remove[0]", "rolls[0].amounts.p")
        assert "cannot be withdrawn or reduced" in reason


def test_pass_line_increase_allowed_in_cl_forbidden_in_bo_until_a_ruling():
    steps = [{"dice": [3, 3], "amounts": {"p": 1500}}]
    assert by_id(ok("CL-ARICA", point=6, bets=[PASS_ON_6], rolls=steps))["p"][0]["paid"] == 3000
    field, reason = error("BO", point=6, bets=[PASS_ON_6], rolls=steps)
    assert field == "rolls[0].amounts.p" and "no se pueden modificar" in reason
    out = ok("BO", point=6, switches={"craps_pass_line_increase": "allowed"},
             bets=[PASS_ON_6], rolls=steps)
    assert by_id(out)["p"][0]["paid"] == 3000


def test_dont_pass_withdrawal_cl_yes_bo_must_be_set():
    out = ok("CL-ARICA", point=6, bets=[DONT_ON_6], rolls=[{"dice": [3, 3], "remove": ["d"]}])
    assert by_id(out)["d"][0]["outcome"] == "void"
    field, reason = error("BO", point=6, bets=[DONT_ON_6], rolls=[{"dice": [3, 3],
                                                                   "remove": ["d"]}])
    assert field == "rolls[0].remove[0]" and "silent on 'craps_dont_removable'" in reason
    field, reason = error("BO", point=6, switches={"craps_dont_removable": "no"},
                          bets=[DONT_ON_6], rolls=[{"dice": [3, 3], "amounts": {"d": 10}}])
    assert "cannot be withdrawn or reduced" in reason


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_dont_pass_cannot_be_increased(profile):
    field, reason = error(profile, point=6, bets=[DONT_ON_6],
                          rolls=[{"dice": [3, 3], "amounts": {"d": 2000}}])
    assert field == "rolls[0].amounts.d" and "no podrá aumentarse" in reason


def test_line_bets_are_not_accepted_once_the_point_is_set():
    for kind in ("pass_line", "dont_pass"):
        field, reason = error("CL-ARICA", point=5, rolls=[{"dice": [1, 1], "place": [
            {"id": "n", "kind": kind, "amount": 100}]}])
        assert field == "rolls[0].place[0].kind" and "come-out" in reason


def test_come_bets_only_once_the_point_is_set():
    field, reason = error(bets=[{"kind": "come", "amount": 100}], rolls=[[1, 1]])
    assert field == "bets[0].kind" and "A-31" in reason


def test_field_timing_switch():
    assert ok(bets=[{"id": "f", "kind": "field", "amount": 100}], rolls=[[1, 1]])["ok"]
    field, reason = error(switches={"craps_field_timing": "after_point"},
                          bets=[{"kind": "field", "amount": 100}], rolls=[[1, 1]])
    assert field == "bets[0].kind" and "after_point" in reason


def test_removing_an_unknown_bet_names_it():
    field, reason = error(bets=[], rolls=[{"dice": [1, 1], "remove": ["zz"]}])
    assert field == "rolls[0].remove[0]" and "'zz'" in reason


def test_odds_and_one_roll_bets_may_be_withdrawn_before_the_roll():
    out = ok(point=4, bets=[PASS_ON_6, {"id": "o", "kind": "odds", "on": "p", "amount": 100},
                            {"id": "h", "kind": "horn", "amount": 100}],
             rolls=[{"dice": [2, 2], "remove": ["o", "h"]}])
    got = {k: v[0]["outcome"] for k, v in by_id(out).items()}
    assert got == {"o": "void", "h": "void", "p": "win"}

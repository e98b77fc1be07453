"""Table limits on craps bets (seed 002 §1.2.1.1, seed 004 RG §4.2; domain.md §1.2, A-2).

Expected figures are worked by hand from the pay tables: the playing stake (at most the
maximum) is paid or lost, the excess comes back on top whatever the outcome.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.api import explain_request
from tests.rules.craps.oracle import by_id, error, ok, settle
from tests.rules.craps.test_properties import tables

LIMITS = {"minimum": 100, "maximum": 600}
BO_RULE = "seed 002 §1.2.1.1"
CL_RULE = "seed 004 RG §4.2"


def one(out: dict, bet_id: str) -> dict:
    return by_id(out)[bet_id][-1]


def test_winning_over_maximum_is_paid_on_the_maximum_and_the_excess_returned():
    out = ok(bets=[{"id": "p", "kind": "pass_line", "amount": 1000}], rolls=[[3, 4]],
             limits=LIMITS)
    bet = one(out, "p")
    # 600 plays and wins 1:1 (1200 back), the 400 over the maximum comes back too
    assert (bet["outcome"], bet["stake"], bet["paid"], bet["excess_returned"]) == \
        ("win", 1000, 1600, 400)
    assert bet["limit_rule"] == BO_RULE and "400 over the table maximum returned" in bet["detail"]
    assert bet["rule"] == "seed 000 §3.1.7.2"          # the pay rule is still named
    assert out["totals"] == {"staked": 1000, "paid": 1600, "house_win": -600}


def test_losing_over_maximum_returns_the_excess():
    out = ok("CL-ARICA", bets=[{"id": "p", "kind": "pass_line", "amount": 1000}],
             rolls=[[1, 1]], limits=LIMITS)
    bet = one(out, "p")
    assert (bet["outcome"], bet["paid"], bet["net"], bet["excess_returned"]) == \
        ("lose", 400, -600, 400)
    assert bet["limit_rule"] == CL_RULE and CL_RULE in bet["detail"]


def test_under_minimum_is_settled_on_the_actual_stake_and_flagged():
    out = ok(bets=[{"id": "f", "kind": "field", "amount": 50},
                   {"id": "g", "kind": "field", "amount": 40}], rolls=[[1, 1]], limits=LIMITS)
    won = one(out, "f")
    assert (won["outcome"], won["paid"], won["under_minimum"]) == ("win", 150, True)  # 2 pays 2:1
    assert "jefe de sala" in won["detail"] and "A-2" in won["detail"]
    assert "excess_returned" not in won
    out = ok(bets=[{"id": "f", "kind": "field", "amount": 50}], rolls=[[3, 4]], limits=LIMITS)
    assert (one(out, "f")["paid"], one(out, "f")["under_minimum"]) == (0, True)


def test_within_limits_nothing_is_added():
    out = ok(bets=[{"id": "p", "kind": "pass_line", "amount": 600}], rolls=[[5, 6]],
             limits=LIMITS)
    bet = one(out, "p")
    assert bet["paid"] == 1200 and not {"excess_returned", "under_minimum",
                                        "limit_rule"} & set(bet)


def test_limits_per_bet_kind_with_a_default():
    limits = {"default": {"minimum": 100, "maximum": 5000},
              "odds": {"minimum": 100, "maximum": 1500},
              "hardway": {"minimum": 50, "maximum": 100}}
    out = ok(bets=[{"id": "p", "kind": "pass_line", "amount": 1000}],
             rolls=[[2, 4], {"dice": [4, 4], "place": [
                 {"id": "o", "kind": "odds", "on": "p", "amount": 2000},
                 {"id": "h", "kind": "hardway", "number": 4, "amount": 300}]}, [2, 2], [3, 3]],
             limits=limits)
    assert one(out, "p")["paid"] == 2000                        # within the default
    odds = one(out, "o")
    assert (odds["paid"], odds["excess_returned"]) == (1500 + 1800 + 500, 500)  # 6:5 on 1500
    hard = one(out, "h")                                        # hard 4 pays 8:1 on 100
    assert (hard["paid"], hard["excess_returned"]) == (100 + 800 + 200, 200)


def test_a_pending_bet_keeps_its_amount_and_says_the_excess_comes_back_later():
    first = ok(bets=[{"id": "p", "kind": "pass_line", "amount": 1000}], rolls=[[2, 2]],
               limits=LIMITS)
    pending = one(first, "p")
    assert pending["outcome"] == "pending" and pending["paid"] == 0
    assert "400 over the table maximum, returned when the bet is decided" in pending["detail"]
    assert first["state"]["bets"][0]["amount"] == 1000
    second = ok(point=first["state"]["point"], bets=first["state"]["bets"], rolls=[[1, 3]],
                limits=LIMITS)
    assert (one(second, "p")["paid"], one(second, "p")["excess_returned"]) == (1600, 400)


def test_upfront_commission_is_taken_on_the_stake_that_plays():
    sw = {"craps_buy_lay_commission": "5pct_upfront"}
    buy = {"id": "b", "kind": "buy", "number": 4, "amount": 3000}
    out = ok(switches=sw, bets=[buy], rolls=[[2, 2]], limits={"minimum": 100, "maximum": 2000})
    fee, won = by_id(out)["b"]
    assert (fee["kind"], fee["stake"]) == ("buy_commission", 100)   # 5 % of 2000, not of 3000
    assert (won["paid"], won["excess_returned"]) == (2000 + 4000 + 1000, 1000)  # 2:1 on 2000
    # an increase pays commission only on the part of it that plays: 1000 -> 2000 plays +1000
    out = ok(switches=sw, bets=[dict(buy, amount=1000)],
             rolls=[[1, 1], {"dice": [1, 1], "amounts": {"b": 5000}}],
             limits={"minimum": 100, "maximum": 2000})
    assert [b["stake"] for b in by_id(out)["b"] if b["kind"] == "buy_commission"] == [50, 50]


def test_commission_on_a_win_is_taken_on_the_stake_that_plays():
    out = ok(switches={"craps_buy_lay_commission": "5pct_on_win"},
             bets=[{"id": "l", "kind": "lay", "number": 4, "amount": 3000}], rolls=[[3, 4]],
             limits={"minimum": 100, "maximum": 2000})
    lay = one(out, "l")   # lay 4 pays 1:2 on 2000 = 1000, less 5 % of that win
    assert (lay["paid"], lay["commission"]) == (2000 + 1000 - 50 + 1000, 50)


@pytest.mark.parametrize("limits, field, words", [
    ("600", "limits", "minimum"),
    ({"minimum": 700, "maximum": 600}, "limits", "0 <= minimum <= maximum"),
    ({"minimum": 100}, "limits.maximum", "integer amount"),
    ({"minimum": 100, "maximum": 0}, "limits.maximum", "greater than zero"),
    ({"minimum": -1, "maximum": 10}, "limits.minimum", "negative"),
    ({"minimum": 1, "maximum": 10, "max": 3}, "limits.max", "unknown field"),
    ({"parlay": {"minimum": 1, "maximum": 10}}, "limits.parlay", "bet kind"),
    ({"odds": {"minimum": 1, "maximum": 10}}, "limits.pass_line", "limits.default"),
    ({"pass_line": {"minimum": 1, "maximum": 10.5}}, "limits.pass_line.maximum", "fractional"),
    ({}, "limits", "per bet kind"),
])
def test_limits_errors_name_the_field(limits, field, words):
    got, reason = error(bets=[{"id": "p", "kind": "pass_line", "amount": 100}], rolls=[],
                        limits=limits)
    assert got == field and words in reason, reason


def test_bets_placed_later_must_be_covered_too():
    got, reason = error(bets=[], rolls=[{"dice": [1, 1], "place": [
        {"kind": "field", "amount": 100}]}], limits={"pass_line": LIMITS})
    assert got == "limits.field" and "no limits given for field bets" in reason


def test_reject_and_cascade_overrides():
    field, reason = error(switches={"over_max": "reject"}, limits=LIMITS,
                          bets=[{"kind": "field", "amount": 700}], rolls=[[1, 1]])
    assert field == "bets[0].amount" and "outside the table limits 100–600" in reason
    field, _ = error(switches={"over_max": "reject"}, limits=LIMITS, bets=[],
                     rolls=[{"dice": [1, 1], "place": [{"kind": "field", "amount": 50}]}])
    assert field == "rolls[0].place[0].amount"
    field, _ = error(switches={"over_max": "reject"}, limits=LIMITS,
                     bets=[{"id": "f", "kind": "place", "number": 6, "amount": 200}],
                     rolls=[{"dice": [1, 1], "amounts": {"f": 900}}])
    assert field == "rolls[0].amounts.f"
    field, reason = error(switches={"over_max": "ar_cascade"}, limits=LIMITS, bets=[], rolls=[])
    assert field == "switches.over_max" and "roulette" in reason
    # without limits the switch changes nothing
    assert settle(switches={"over_max": "ar_cascade"}, bets=[], rolls=[])["ok"]


def test_explain_shows_the_limits_and_the_excess():
    lines = explain_request({"game": "craps", "profile": "BO", "variant": "craps", "point": None,
                             "bets": [{"id": "p", "kind": "pass_line", "amount": 1000}],
                             "rolls": [[3, 4]], "limits": LIMITS})
    assert "Limits: 100–600 per bet" in lines
    assert any("paid 1600 (net +600), of which 400 over the maximum returned (seed 002 "
               "§1.2.1.1)" in line for line in lines)


def capped(bets: list[dict], maximum: int) -> list[dict]:
    return [dict(b, amount=min(b["amount"], maximum)) for b in bets]


@settings(max_examples=80, deadline=None)
@given(tables(), st.integers(1, 10**7), st.integers(0, 10**7))
def test_limits_conserve_stakes_and_pay_exactly_the_capped_bet_plus_the_excess(table, high, low):
    """Settling with limits = settling the capped amounts without limits, plus the excess."""
    profile, point, bets, rolls = table
    limits = {"minimum": min(low, high), "maximum": high}
    got = ok(profile, point=point, bets=bets, rolls=rolls, limits=limits)
    plain = ok(profile, point=point, bets=capped(bets, high), rolls=rolls)
    amounts = {b["id"]: b["amount"] for b in bets}
    assert sum(b["stake"] for b in got["bets"]) == sum(amounts.values())
    for b, p in zip(got["bets"], plain["bets"]):
        excess = max(0, amounts[b["id"]] - high) if b["outcome"] != "pending" else 0
        assert (b["id"], b["outcome"]) == (p["id"], p["outcome"])
        assert b["paid"] == p["paid"] + excess and b.get("excess_returned", 0) == excess
        assert b["paid"] >= excess >= 0
        flagged = b["outcome"] != "pending" and amounts[b["id"]] < limits["minimum"]
        assert b.get("under_minimum", False) == flagged
    decided = [b for b in got["bets"] if b["outcome"] != "pending"]
    assert got["totals"]["house_win"] == sum(b["stake"] - b["paid"] for b in decided)
    assert got["totals"]["house_win"] == plain["totals"]["house_win"]


def test_a_withdrawn_bet_comes_back_whole_without_a_limit_note():
    out = ok(bets=[{"id": "s", "kind": "place", "number": 6, "amount": 1000}],
             rolls=[{"dice": [1, 1], "remove": ["s"]}], limits=LIMITS)
    back = one(out, "s")
    assert (back["outcome"], back["paid"]) == ("void", 1000) and "limit_rule" not in back


@settings(max_examples=40, deadline=None)
@given(tables(), st.integers(0, 10), st.integers(1, 10**7))
def test_splitting_the_rolls_with_the_same_limits_changes_nothing(table, cut, high):
    profile, point, bets, rolls = table
    limits = {"minimum": 0, "maximum": high}
    whole = ok(profile, point=point, bets=bets, rolls=rolls, limits=limits)
    first = ok(profile, point=point, bets=bets, rolls=rolls[:cut], limits=limits)
    second = ok(profile, point=first["state"]["point"], bets=first["state"]["bets"],
                rolls=rolls[cut:], limits=limits)
    strip = lambda out: sorted((b["id"], b["outcome"], b["stake"], b["paid"])  # noqa: E731
                               for b in out["bets"])
    done_first = [b for b in first["bets"] if b["outcome"] != "pending"]
    assert strip({"bets": done_first + second["bets"]}) == strip(whole)

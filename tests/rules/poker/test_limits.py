"""Table limits on banked poker (seed 002 §1.2.1.1, seed 004 RG §4.2; poker/limits.py).

The table limits are the ANTE's; CL's BET (twice the ANTE) follows it, BO's BET and Go's «ir»
stakes are bets of their own; the progressive side bet has its own limits, in credits.
Figures are worked by hand from the printed tables.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.api import explain_request, settle_request
from tests.rules.poker.conftest import bets_of, errors, request, settle
from tests.rules.poker.test_properties import rounds

AK_HIGH = "AS KD 7C 5H 2D"           # the croupier opens with exactly As-Rey
NOT_OPEN = "AS QD 7C 5H 2D"
PAIR = "QS QD 9C 4H 3D"              # beats AK_HIGH; pays 1:1 on the BET
LOSER = "AH KC 7D 4S 2C"             # loses to AK_HIGH
FLAT = {"minimum": 100, "maximum": 1000}
BO_RULE, CL_RULE = "seed 002 §1.2.1.1", "seed 004 RG §4.2"


def seat(n, cards, ante, bet=None, **kw):
    out = {"seat": n, "cards": cards, "ante": ante, **kw}
    if bet is not None:
        out["bet"] = bet
    return out


def money(b):
    return b["stake"], b["paid"], b.get("excess_returned", 0), b["outcome"]


def test_bo_winning_over_maximum_ante_and_bet():
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, PAIR, 1500, 3000)], limits=FLAT)
    b = bets_of(r, 1)
    # ANTE: 1000 plays, 1:1 -> 2000, +500 back; BET (BO: its own bet, same table limits):
    # 1000 plays, pair 1:1 -> 2000, +2000 back
    assert money(b["ante"]) == (1500, 2500, 500, "win")
    assert money(b["bet"]) == (3000, 4000, 2000, "win")
    assert b["ante"]["limit_rule"] == BO_RULE
    assert "500 over the table maximum" in b["ante"]["detail"]
    assert b["bet"]["rule"] == "seed 000 §2.3.7.1.2"
    assert r["totals"] == {"staked": 4500, "paid": 6500, "house_win": -2000}
    # with limits of its own the BET plays whole
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, PAIR, 1500, 3000)],
               limits=dict(FLAT, bet={"minimum": 200, "maximum": 3000}))
    assert money(bets_of(r, 1)["bet"]) == (3000, 6000, 0, "win")


def test_losing_over_maximum_returns_the_excess():
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, LOSER, 1500, 3000)], limits=FLAT)
    b = bets_of(r, 1)
    assert money(b["ante"]) == (1500, 500, 500, "lose")
    assert money(b["bet"]) == (3000, 2000, 2000, "lose")
    assert r["totals"]["house_win"] == 2000               # 1000 + 1000 that played


def test_fold_over_maximum_returns_the_ante_excess():
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, LOSER, 1500, fold=True)], limits=FLAT)
    assert money(bets_of(r, 1)["ante"]) == (1500, 500, 500, "lose")


def test_under_minimum_is_settled_on_the_stake_and_flagged():
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, PAIR, 50, 300)], limits=FLAT)
    b = bets_of(r, 1)
    assert money(b["ante"]) == (50, 100, 0, "win") and b["ante"]["under_minimum"] is True
    assert "jefe de sala" in b["ante"]["detail"] and "A-2" in b["ante"]["detail"]
    assert "under_minimum" not in b["bet"]              # BO: the BET is over the minimum
    r = settle("CL-ARICA", "arica", AK_HIGH, [seat(1, LOSER, 50, 100)], limits=FLAT)
    b = bets_of(r, 1)                                   # CL: the BET follows its ANTE
    assert b["ante"]["under_minimum"] and b["bet"]["under_minimum"]
    assert b["ante"]["limit_rule"] == CL_RULE and (b["ante"]["paid"], b["bet"]["paid"]) == (0, 0)


def test_cl_bet_follows_the_ante_twice_its_excess():
    r = settle("CL-ARICA", "arica", AK_HIGH, [seat(1, PAIR, 1500, 3000)], limits=FLAT)
    b = bets_of(r, 1)
    assert money(b["ante"]) == (1500, 2500, 500, "win")
    assert money(b["bet"]) == (3000, 2000 * 2 + 1000, 1000, "win")  # 2000 plays, pair 1:1
    r = settle("CL-ARICA", "arica", NOT_OPEN, [seat(1, LOSER, 1500, 3000)], limits=FLAT)
    b = bets_of(r, 1)                               # the croupier does not open: ANTE 1:1
    assert money(b["ante"]) == (1500, 2500, 500, "win")
    assert money(b["bet"]) == (3000, 3000, 1000, "push")


def test_arica_plus_card_price_is_the_ante_that_plays():
    r = settle("CL-ARICA", "arica_plus", AK_HIGH,
               [seat(1, PAIR, 1500, 3000, discarded=["2C"])], limits=FLAT)
    price = bets_of(r, 1)["card_purchase"]
    assert money(price) == (1500, 500, 500, "lose") and "under_minimum" not in price
    assert r["totals"] == {"staked": 6000, "paid": 500 + 2500 + 5000, "house_win": -2000}


def test_go_stakes_are_limited_one_by_one():
    sw = {"poker_go_settlement": "pay_table"}
    r = settle("BO", "go", None, [{"seat": 1, "cards": "10S 10D 4C 5H 7S", "ante": 1500,
                                   "go": [800, 2500]}],
               switches=sw, limits=dict(FLAT, go={"minimum": 100, "maximum": 2000}))
    b = bets_of(r, 1)   # a pair of tens pays 1:1 on every stake
    assert money(b["ante"]) == (1500, 2500, 500, "win")
    assert money(b["go_1"]) == (800, 1600, 0, "win")
    assert money(b["go_2"]) == (2500, 4500, 500, "win")


def test_a_void_hand_returns_every_stake_whole():
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, ["5C", "5S"], 5000, void="dealt two cards")],
               limits=FLAT)
    ante = bets_of(r, 1)["ante"]
    assert money(ante) == (5000, 5000, 0, "void") and "limit_rule" not in ante


def progressive_rows(r):
    return {row["seat"]: row for row in r["progressive"]["seats"]}


def test_progressive_over_maximum_wins_on_the_maximum_and_returns_the_extra_credits():
    flush = "2H 6H 9H JH KH"
    r = settle("BO", "caribbean", AK_HIGH,
               [seat(1, flush, 100, 200, progressive=7), seat(2, LOSER, 100, fold=True,
                                                              progressive=9),
                seat(3, PAIR, 100, 200, progressive=1)],
               progressive={"pool": 10_000_000, "unit_value": 100},
               limits={"progressive": {"minimum": 2, "maximum": 5}})
    rows = progressive_rows(r)
    # flush: 50 × the bet of 5 credits × 100 (seed 000 §2.5.6.2), not 7 credits
    assert (rows[1]["status"], rows[1]["award"]) == ("winner", 50 * 5 * 100)
    assert (rows[1]["units_played"], rows[1]["excess_units_returned"]) == (5, 2)
    assert rows[1]["limit_rule"] == BO_RULE
    assert rows[2]["status"] == "forfeited" and rows[2]["excess_units_returned"] == 4
    assert rows[3]["under_minimum"] is True and "A-2" in rows[3]["limit_detail"]
    # the table limits never reach the ANTE/BET here, nor the progressive there
    assert all("limit_rule" not in b for b in r["bets"])
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, flush, 100, 200, progressive=7)],
               progressive={"pool": 10_000_000, "unit_value": 100}, limits=FLAT)
    assert progressive_rows(r)[1]["award"] == 50 * 7 * 100


def test_cl_progressive_pays_per_credit_played():
    r = settle("CL-ARICA", "arica", AK_HIGH,
               [seat(1, "2H 6H 9H JH KH", 100, 200, progressive=3)],
               progressive={"pool": 10_000_000, "unit_value": 1000},
               limits={"progressive": {"minimum": 1, "maximum": 2}})
    row = progressive_rows(r)[1]
    assert (row["award"], row["units_played"]) == (25_000 * 2, 2)   # seed 004 III §6.6
    assert row["limit_rule"] == CL_RULE


@pytest.mark.parametrize("profile, variant, limits, field, words", [
    ("BO", "caribbean", [100, 1000], "limits", "must be an object"),
    ("BO", "caribbean", {"minimum": 100, "maximum": 1000, "side": 1}, "limits.side",
     "unknown field"),
    ("BO", "caribbean", {"minimum": 900, "maximum": 100}, "limits", "0 <= minimum <= maximum"),
    ("BO", "caribbean", {"minimum": 100}, "limits.maximum", "integer amount"),
    ("BO", "caribbean", {"progressive": {"minimum": 1}}, "limits.progressive.maximum",
     "integer amount"),
    ("BO", "caribbean", {"bet": {"minimum": 1, "maximum": 9, "x": 1}}, "limits.bet.x",
     "unknown field"),
    ("BO", "caribbean", {"go": {"minimum": 1, "maximum": 9}}, "limits.go", "Go Poker"),
    ("CL-ARICA", "arica", {"minimum": 100, "maximum": 1000,
                           "bet": {"minimum": 1, "maximum": 9}}, "limits.bet", "twice the ANTE"),
])
def test_limits_errors_name_the_field(profile, variant, limits, field, words):
    errs = errors(profile, variant, AK_HIGH, [seat(1, PAIR, 100, 200)], limits=limits)
    assert errs[0]["field"] == field and words in errs[0]["reason"], errs


def test_reject_and_cascade_overrides():
    seats = [seat(3, PAIR, 500, 1000), seat(1, LOSER, 5000, 10000)]
    errs = errors("CL-ARICA", "arica", AK_HIGH, seats, limits=FLAT,
                  switches={"over_max": "reject"})
    assert errs[0]["field"] == "seats[1].ante" and "outside the table limits" in errs[0]["reason"]
    errs = errors("BO", "caribbean", AK_HIGH, [seat(1, PAIR, 500, 1000, progressive=9)],
                  limits={"progressive": {"minimum": 1, "maximum": 5}},
                  switches={"over_max": "reject"})
    assert errs[0]["field"] == "seats[0].progressive"
    errs = errors("BO", "caribbean", AK_HIGH, [seat(1, PAIR, 500, 1000)], limits=FLAT,
                  switches={"over_max": "ar_cascade"})
    assert errs[0]["field"] == "switches.over_max" and "roulette" in errs[0]["reason"]


def test_explain_shows_the_limits():
    lines = explain_request(request("BO", "caribbean", AK_HIGH, [seat(1, PAIR, 1500, 3000)],
                                    limits=FLAT))
    assert "Limits: table (ANTE) 100–1000." in lines
    assert any(line.startswith("  ante: stake 1500 → paid 2500 (net +1000)") and
               "500 over the table maximum returned, 1000 played (seed 002 §1.2.1.1)" in line
               for line in lines)


def capped(req, maximum):
    """The same round with every stake cut to what plays, and no limits."""
    out = copy.deepcopy(req)
    for s in out["seats"]:
        s["ante"] = min(s["ante"], maximum)
        if "bet" in s:
            s["bet"] = 2 * s["ante"] if req["profile"] == "CL-ARICA" else min(s["bet"], maximum)
        if "go" in s:
            s["go"] = [min(a, maximum) for a in s["go"]]
    return out


@settings(max_examples=120, deadline=None)
@given(rounds(), st.integers(1, 10**6), st.integers(0, 10**6))
def test_limits_conserve_stakes_and_pay_exactly_the_capped_stakes_plus_the_excess(req, high, low):
    limits = {"minimum": min(low, high), "maximum": high}
    got = settle_request(dict(req, limits=limits))
    plain = settle_request(capped(req, high))
    assert got["ok"] and plain["ok"], (got.get("errors"), plain.get("errors"))
    assert got["totals"]["staked"] == sum(b["stake"] for b in got["bets"])
    assert got["totals"]["house_win"] == plain["totals"]["house_win"]
    antes = {s["seat"]: s["ante"] for s in req["seats"]}
    for b, p in zip(got["bets"], plain["bets"]):
        excess = b["stake"] - p["stake"]
        assert (b["seat"], b["kind"], b["outcome"]) == (p["seat"], p["kind"], p["outcome"])
        assert excess >= 0 and b["paid"] == p["paid"] + excess
        assert b.get("excess_returned", 0) == excess
        follows_ante = b["kind"] == "ante" or (b["kind"] == "bet" and req["profile"] == "CL-ARICA")
        own = antes[b["seat"]] if follows_ante else b["stake"]
        under = b["kind"] != "card_purchase" and own < limits["minimum"]
        assert b.get("under_minimum", False) == under, b

"""settle_request / explain_request with roulette requests (the JSON shape of README.md)."""
from __future__ import annotations

from services.rules.api import explain_request, settle_request


def req(**kw):
    base = {"id": "r1", "game": "roulette", "profile": "BO", "wheel": "european",
            "bets": [{"kind": "split", "numbers": ["17", "20"], "amount": 1000}],
            "outcome": {"pocket": "17"}}
    return {**base, **kw}


def test_the_example_request_of_the_brief():
    out = settle_request(req())
    assert out["ok"] and out["id"] == "r1"
    bet = out["bets"][0]
    assert (bet["paid"], bet["outcome"], bet["rule"]) == (18000, "win", "seed 000 §4.1.4.2 item 2")
    assert "implementation decision" in bet["rule_note"]
    assert out["totals"] == {"staked": 1000, "paid": 18000, "house_win": -17000}


def test_prison_round_trip_over_two_requests():
    first = settle_request(req(bets=[{"kind": "red", "amount": 600, "zero_option": "prison"}],
                               outcome={"pocket": "0"}))
    jailed = first["bets"][0]
    assert jailed["outcome"] == "prison" and first["totals"]["staked"] == 0
    second = settle_request(req(bets=[{"kind": "red", "amount": jailed["imprisoned_stake"],
                                       "imprisoned": True}], outcome={"pocket": "3"}))
    assert second["bets"][0]["outcome"] == "push" and second["totals"]["house_win"] == 0


def test_errors_name_each_field():
    out = settle_request(req(bets=[{"kind": "split", "numbers": ["17", "21"], "amount": 10},
                                   {"kind": "corner", "amount": "1.5"},
                                   {"kind": "red", "amount": 10, "numbr": 3}]))
    assert not out["ok"]
    fields = [e["field"] for e in out["errors"]]
    assert fields == ["bets[1].amount", "bets[2].numbr"]
    out = settle_request(req(bets=[{"kind": "split", "numbers": ["17", "21"], "amount": 10}]))
    assert [e["field"] for e in out["errors"]] == ["bets[0].numbers"]
    out = settle_request(req(outcome={"pocket": "00"}))
    assert out["errors"][0]["field"] == "outcome.pocket"
    out = settle_request(req(wheel="american"))
    assert out["errors"][0]["field"] == "wheel"
    out = settle_request(req(outcome=None, bets=[]))
    assert [e["field"] for e in out["errors"]] == ["bets", "outcome"]


def test_wheel_defaults_to_the_profile_wheel_and_int_pockets_are_read():
    out = settle_request({"game": "roulette", "profile": "CL-ARICA",
                          "bets": [{"kind": "five_number", "numbers": ["0", "00", 1, 2, 3],
                                    "amount": 100}], "outcome": {"pocket": "00"}})
    assert out["ok"] and out["wheel"] == "american" and out["bets"][0]["paid"] == 700


def test_limits_in_the_request_both_shapes():
    out = settle_request(req(limits={"minimum": 10, "maximum": 500}))
    assert out["bets"][0]["paid"] == 500 * 18 + 500
    out = settle_request(req(limits={"split": {"minimum": 10, "maximum": 400}}))
    assert out["bets"][0]["excess_returned"] == 600
    out = settle_request(req(limits={"spilt": {"minimum": 10, "maximum": 400}}))
    assert out["errors"][0]["field"] == "limits.spilt"


def test_ar_reduction_pays_what_the_bets_pay():
    bets = [{"kind": k, "numbers": n, "amount": 100, "player": "A"} for k, n in (
        ("split", ["17", "20"]), ("split", ["16", "17"]), ("corner", ["13", "14", "16", "17"]),
        ("street", ["16", "17", "18"]), ("six_line", ["13", "14", "15", "16", "17", "18"]))]
    out = settle_request(req(profile="AR-RUL", bets=bets))
    view = out["reductions"][0]
    assert view["paid"] == view["paid_per_bet"] == out["totals"]["paid"]
    assert view["plenos"] == 1 and view["leftover_chips"] == {"six_line": 1, "street": 1,
                                                              "corner": 1}


def test_explain_walks_through_each_bet_with_its_rule():
    lines = explain_request(req(bets=[{"kind": "split", "numbers": ["17", "20"], "amount": 1000},
                                      {"kind": "red", "amount": 500}], outcome={"pocket": "0"},
                                limits={"minimum": 100, "maximum": 800}))
    text = "\n".join(lines)
    assert "Pocket: 0 (zero" in text
    assert "bets[0]: split 17-20, stake 1000" in text
    assert "seed 002 §1.2.1.1" in text                       # the limit rule
    assert "half the stake back" in text and "seed 000 §4.1.4.2 item 11" in text
    assert lines[-1].startswith("Totals: staked 1500, paid 450")


def test_cl_plays_both_american_tables_and_defaults_to_double_zero():
    from services.rules.api import settle_request
    base = {"game": "roulette", "profile": "CL-ARICA", "outcome": {"pocket": "0"},
            "bets": [{"kind": "corner", "numbers": ["0", "1", "2", "3"], "amount": 100}]}
    single = settle_request({**base, "wheel": "american_single"})
    assert single["ok"] and single["bets"][0]["paid"] == 900  # «Cuadro especial» at 8:1
    assert "implementation decision" in single["bets"][0]["rule_note"]
    default = settle_request(base)  # no wheel: the double zero, no zero corner there
    assert default["ok"] is False and default["errors"][0]["field"] == "bets[0].numbers"
    five = settle_request({**base, "wheel": "american_single", "outcome": {"pocket": "1"},
                           "bets": [{"kind": "five_number", "amount": 100,
                                     "numbers": ["0", "00", "1", "2", "3"]}]})
    assert five["ok"] is False and five["errors"][0]["field"] in ("bets[0].kind",
                                                                   "bets[0].numbers")

"""Multi-roll sequences: point made, seven out, come bets travelling, odds, void rolls, and
the state carried from one request into the next."""
from __future__ import annotations

from tests.rules.craps.oracle import by_id, error, ok


def test_point_made_pays_pass_line_and_its_odds_at_true_odds():
    out = ok(bets=[{"id": "p", "kind": "pass_line", "amount": 1000},
                   {"id": "d", "kind": "dont_pass", "amount": 1000}],
             rolls=[[1, 3], {"dice": [2, 3], "place": [
                 {"id": "o", "kind": "odds", "on": "p", "amount": 1000},
                 {"id": "x", "kind": "dont_odds", "on": "d", "amount": 2000}]}, [2, 2]])
    bets = by_id(out)
    # 1-3 sets the point 4; 2-3 (5) does nothing; 2-2 makes the 4.
    assert out["rolls"][0]["point_after"] == 4 and out["rolls"][1]["decided"] == []
    assert bets["p"][0]["paid"] == 2000 and bets["p"][0]["roll"] == 2
    assert bets["o"][0]["paid"] == 1000 + 2000            # 2:1 on the 4
    assert bets["d"][0]["outcome"] == "lose" and bets["x"][0]["paid"] == 0
    assert out["state"] == {"point": None, "bets": []}
    assert out["totals"] == {"staked": 5000, "paid": 5000, "house_win": 0}


def test_seven_out_loses_right_bets_pays_wrong_bets_and_ends_the_shooter():
    out = ok(point=9, bets=[{"id": "p", "kind": "pass_line", "amount": 600},
                            {"id": "o", "kind": "odds", "on": "p", "amount": 600},
                            {"id": "d", "kind": "dont_pass", "amount": 600},
                            {"id": "x", "kind": "dont_odds", "on": "d", "amount": 900},
                            {"id": "pl", "kind": "place", "number": 6, "amount": 600},
                            {"id": "w", "kind": "place_to_lose", "number": 5, "amount": 800},
                            {"id": "b", "kind": "big_8", "amount": 500}],
             rolls=[[3, 4]])
    got = {k: v[0]["paid"] for k, v in by_id(out).items()}
    assert got == {"p": 0, "o": 0, "d": 1200, "x": 900 + 600, "pl": 0, "w": 800 + 500, "b": 0}
    assert out["rolls"][0]["seven_out"] is True and out["state"]["point"] is None


def test_come_bet_travels_then_wins_on_its_number_with_odds():
    out = ok(point=6, bets=[{"id": "c", "kind": "come", "amount": 500}],
             rolls=[[4, 4], {"dice": [3, 1], "place": [
                 {"id": "co", "kind": "odds", "on": "c", "amount": 500}]}, [5, 3]])
    bets = by_id(out)
    assert out["rolls"][0]["travelled"] == {"c": 8}
    assert bets["c"][0]["number"] == 8 and bets["c"][0]["paid"] == 1000
    assert bets["co"][0]["paid"] == 500 + 600 and bets["co"][0]["pay"] == "6:5"


def test_dont_come_travels_and_wins_on_the_seven_its_odds_lay_true_odds():
    out = ok(point=5, bets=[{"id": "dc", "kind": "dont_come", "amount": 1000}],
             rolls=[[5, 5], {"dice": [6, 1], "place": [
                 {"id": "lo", "kind": "dont_odds", "on": "dc", "amount": 1000}]}])
    bets = by_id(out)
    assert bets["dc"][0]["paid"] == 2000 and bets["lo"][0]["paid"] == 1500  # 1:2 on the 10


def test_come_bet_standing_on_a_number_loses_to_the_come_out_seven_with_its_odds():
    # Odds «siguen la suerte» of their line bet (seed 000 §3.1.5): no "off on come-out" rule.
    out = ok(point=None, bets=[{"id": "c", "kind": "come", "number": 5, "amount": 500},
                               {"id": "o", "kind": "odds", "on": "c", "amount": 500},
                               {"id": "p", "kind": "pass_line", "amount": 500}],
             rolls=[[4, 3]])
    assert {k: v[0]["outcome"] for k, v in by_id(out).items()} == {
        "c": "lose", "o": "lose", "p": "win"}


def test_come_out_naturals_and_craps_keep_the_point_off():
    out = ok(bets=[{"id": "p", "kind": "pass_line", "amount": 100}],
             rolls=[[6, 5], {"dice": [1, 1], "place": [
                 {"id": "p2", "kind": "pass_line", "amount": 100},
                 {"id": "d2", "kind": "dont_pass", "amount": 100}]},
                 {"dice": [6, 6], "place": [{"id": "d3", "kind": "dont_pass", "amount": 100}]}])
    got = {k: (v[0]["outcome"], v[0]["roll"]) for k, v in by_id(out).items()}
    assert got == {"p": ("win", 0), "p2": ("lose", 1), "d2": ("win", 1), "d3": ("push", 2)}
    assert [r["point_after"] for r in out["rolls"]] == [None, None, None]


def test_void_roll_decides_nothing():
    out = ok(point=8, bets=[{"id": "f", "kind": "field", "amount": 100},
                            {"id": "p", "kind": "pass_line", "amount": 100}],
             rolls=[{"void": "off_table"}, [4, 4]])
    bets = by_id(out)
    assert out["rolls"][0] == {"index": 0, "point_before": 8, "point_after": 8,
                               "void": "off_table"}
    assert bets["f"][0]["roll"] == 1 and bets["f"][0]["paid"] == 0     # 8 loses the field
    assert bets["p"][0]["roll"] == 1 and bets["p"][0]["paid"] == 200


def test_state_carries_into_the_next_request_as_if_one_request():
    bets = [{"id": "p", "kind": "pass_line", "amount": 1000},
            {"id": "h", "kind": "hardway", "number": 10, "amount": 100},
            {"id": "pl", "kind": "place", "number": 9, "amount": 500}]
    rolls = [[2, 3], [6, 4], {"dice": [4, 5], "place": [
        {"id": "c", "kind": "come", "amount": 200}]}, [2, 2], [5, 5], [3, 4]]
    whole = ok(bets=bets, rolls=rolls)
    first = ok(bets=bets, rolls=rolls[:3])
    second = ok(point=first["state"]["point"], bets=first["state"]["bets"], rolls=rolls[3:])
    decided = [b for b in first["bets"] if b["outcome"] != "pending"] + second["bets"]
    strip = lambda b: {k: v for k, v in b.items() if k != "roll"}  # noqa: E731
    assert sorted(map(str, map(strip, decided))) == sorted(map(str, map(strip, whole["bets"])))
    assert second["state"] == whole["state"]


def test_pending_bets_are_reported_and_left_out_of_totals():
    out = ok(point=4, bets=[{"id": "p", "kind": "pass_line", "amount": 1000},
                            {"id": "f", "kind": "field", "amount": 100}], rolls=[[3, 3]])
    bets = by_id(out)
    assert bets["p"][0]["outcome"] == "pending" and bets["p"][0]["paid"] == 0
    assert out["totals"] == {"staked": 100, "paid": 0, "house_win": 100}
    assert out["state"]["bets"] == [{"id": "p", "kind": "pass_line", "amount": 1000, "number": 4}]


def test_odds_payout_truncates_a_fraction_of_a_minor_unit():
    # 6:5 on 7 units is 8.4: the profile rounds down (core rounding switch)
    out = ok(point=6, bets=[{"id": "p", "kind": "pass_line", "amount": 10},
                            {"id": "o", "kind": "odds", "on": "p", "amount": 7}], rolls=[[5, 1]])
    assert by_id(out)["o"][0]["paid"] == 7 + 8


def test_half_up_rounding_rounds_up_from_the_half():
    out = ok(switches={"rounding": "half_up"},
             bets=[{"id": "pl", "kind": "place", "number": 6, "amount": 9}], rolls=[[3, 3]])
    assert by_id(out)["pl"][0]["paid"] == 9 + 11          # 9 × 7/6 = 10.5 -> 11
    out = ok(bets=[{"id": "pl", "kind": "place", "number": 6, "amount": 9}], rolls=[[3, 3]])
    assert by_id(out)["pl"][0]["paid"] == 9 + 10          # rounded down by default


def test_a_second_odds_bet_needs_its_own_id():
    field, reason = error(point=6, bets=[{"id": "p", "kind": "pass_line", "amount": 10},
                                         {"id": "p", "kind": "odds", "on": "p", "amount": 7}])
    assert field == "bets[1].id" and "already on the layout" in reason

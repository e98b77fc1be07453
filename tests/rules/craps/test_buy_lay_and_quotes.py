"""Buy/Lay commission ([gap], explicit switch) and the A-27 "to one" / "for one" reading."""
from __future__ import annotations

from fractions import Fraction

from services.rules.core.profiles import get_profile
from services.rules.registry import get_game
from tests.rules.craps.oracle import by_id, error, ok

BUY = {"id": "buy", "kind": "buy", "number": 4, "amount": 1000}
LAY = {"id": "lay", "kind": "lay", "number": 4, "amount": 2000}


def test_buy_and_lay_need_an_explicit_commission_in_every_profile():
    for profile in ("BO", "CL-ARICA"):
        field, reason = error(profile, bets=[BUY], rolls=[[2, 2]])
        assert field == "bets[0].kind" and "craps_buy_lay_commission" in reason
    field, reason = error(switches={"craps_buy_lay_commission": "not_offered"}, bets=[LAY])
    assert field == "bets[0].kind" and "not offered" in reason


def test_commission_collected_up_front_is_house_money_at_once():
    out = ok(switches={"craps_buy_lay_commission": "5pct_upfront"}, bets=[BUY, LAY],
             rolls=[[1, 1], [2, 2]])
    got = {(b["id"], b["kind"]): (b["stake"], b["paid"], b["outcome"]) for b in out["bets"]}
    assert got == {
        ("buy", "buy_commission"): (50, 0, "lose"),     # 5 % of the buy stake
        ("lay", "lay_commission"): (50, 0, "lose"),     # 5 % of the lay's 1000 win
        ("buy", "buy"): (1000, 3000, "win"),            # true odds 2:1, nothing deducted
        ("lay", "lay"): (2000, 0, "lose"),
    }
    # carried to the next request, the commission is not collected twice
    again = ok(switches={"craps_buy_lay_commission": "5pct_upfront"}, point=8,
               bets=[{**BUY, "commission_paid": True}], rolls=[[3, 4]])
    assert [b["kind"] for b in again["bets"]] == ["buy"]


def test_commission_on_win_is_deducted_from_a_winning_bet_only():
    out = ok(switches={"craps_buy_lay_commission": "5pct_on_win"}, bets=[BUY, LAY],
             rolls=[[3, 4]])
    got = {b["id"]: (b["paid"], b.get("commission")) for b in out["bets"]}
    assert got == {"buy": (0, None), "lay": (2000 + 1000 - 50, 50)}


def test_increase_of_a_buy_bet_pays_commission_on_the_increase():
    out = ok(switches={"craps_buy_lay_commission": "5pct_upfront"}, bets=[BUY],
             rolls=[[1, 1], {"dice": [2, 2], "amounts": {"buy": 3000}}])
    fees = [b["stake"] for b in out["bets"] if b["kind"] == "buy_commission"]
    assert fees == [50, 100]
    assert by_id(out)["buy"][-1]["paid"] == 3000 + 6000


def test_buy_lay_edges_follow_the_commission():
    game = get_game("craps")
    on_win = {r.bet: r.edge for r in game.edges(get_profile(
        "BO", {"craps_buy_lay_commission": "5pct_on_win"}))}
    upfront = {r.bet: r.edge for r in game.edges(get_profile(
        "BO", {"craps_buy_lay_commission": "5pct_upfront"}))}
    # buy 4: wins 1/3 of the time at 2:1 less 5 % of the stake on a win
    assert on_win["buy 4"] == -(Fraction(1, 3) * (2 - Fraction(5, 100)) - Fraction(2, 3))
    assert upfront["buy 4"] == Fraction(5, 100)
    # lay 6: wins 6/11 at 5:6, 5 % of the win taken
    assert on_win["lay 6"] == -(Fraction(6, 11) * Fraction(5, 6) * Fraction(95, 100)
                                - Fraction(5, 11))
    assert "buy 4" not in {r.bet for r in game.edges(get_profile("BO"))}


def test_bo_any_seven_and_hardways_read_to_one_by_default():
    out = ok(bets=[{"id": "s", "kind": "any_seven", "amount": 100},
                   {"id": "h6", "kind": "hardway", "number": 6, "amount": 100},
                   {"id": "h4", "kind": "hardway", "number": 4, "amount": 100}],
             rolls=[[3, 3], [2, 2], [3, 4]])
    got = {k: (v[0]["paid"], v[0].get("rule_note"))
           for k, v in by_id(out).items()}
    assert got["h6"][0] == 1100 and got["h4"][0] == 900 and got["s"][0] == 0
    assert "A-27" in (got["h6"][1] or "")


def test_for_one_reading_pays_one_less():
    out = ok(switches={"craps_quote_reading": "for_one"},
             bets=[{"id": "h6", "kind": "hardway", "number": 6, "amount": 100},
                   {"id": "h10", "kind": "hardway", "number": 10, "amount": 100}],
             rolls=[[5, 5], {"dice": [3, 4], "place": [
                 {"id": "s", "kind": "any_seven", "amount": 100}]}])
    got = {k: v[0]["paid"] for k, v in by_id(out).items()}
    assert got == {"h10": 800, "s": 500, "h6": 0}


def test_edges_flag_the_literal_bo_reading_and_not_the_for_one_reading():
    game = get_game("craps")
    literal = {r.bet: r for r in game.edges(get_profile("BO"))}
    for_one = {r.bet: r for r in game.edges(get_profile(
        "BO", {"craps_quote_reading": "for_one"}))}
    for bet in ("any_seven", "hardway 4", "hardway 6", "hardway 8", "hardway 10"):
        assert literal[bet].edge == 0 and literal[bet].flagged
        assert "craps_quote_reading=for_one" in literal[bet].note  # tells the way out
        assert for_one[bet].edge > 0 and not for_one[bet].flagged
    assert for_one["any_seven"].edge == Fraction(1, 6)
    assert for_one["hardway 6"].edge == Fraction(1, 11)
    assert for_one["hardway 4"].edge == Fraction(1, 9)

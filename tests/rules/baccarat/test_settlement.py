"""Settlement through the public API: pay tables per profile, commission, ties, limits, errors."""
from __future__ import annotations

import pytest

import services.rules.baccarat  # noqa: F401  (declares switches before api.resolve reads them)
from services.rules.api import explain_request, settle_request

BO_SWITCHES = {"baccarat_commission": "5%", "baccarat_tie_pays": "8:1",
               "baccarat_player_pays": "1:1"}
BANCA_WINS = ["2H", "KS", "3C", "5D", "8S"]       # Punto 2 +8 -> 0; Banca 5 stands on 8
PUNTO_WINS = ["9H", "KS", "KC", "5D"]             # Punto natural 9 vs Banca 5
TIE_ROUND = ["9H", "9S", "KC", "KD"]              # naturals 9 / 9


def req(profile="LIVE-GG", variant="live", bets=None, cards=None, **extra):
    out = {"game": "baccarat", "profile": profile, "variant": variant,
           "bets": bets if bets is not None else [{"kind": "banker", "amount": 1000}],
           "cards": cards or BANCA_WINS, **extra}
    return out


def ok(request):
    res = settle_request(request)
    assert res["ok"], res
    return res


def error(request):
    res = settle_request(request)
    assert not res["ok"], res
    return res["errors"][0]


def test_live_banker_win_pays_even_money_less_5_percent():
    res = ok(req(bets=[{"kind": "banker", "amount": 1000}, {"kind": "player", "amount": 500}]))
    banker, player = res["bets"]
    assert (banker["paid"], banker["commission"], banker["outcome"]) == (1950, 50, "win")
    assert banker["rule"] == "seed 003 Bac §2.1.8"
    assert (player["paid"], player["outcome"]) == (0, "lose")
    assert res["totals"] == {"staked": 1500, "paid": 1950, "house_win": -450}
    assert res["round"]["winner"] == "banker" and res["round"]["banca"]["total"] == 5


def test_live_commission_truncates_to_the_cent():
    # 5 % of 1999 = 99.95: the player receives floor(1999 × 0.95) = 1899 (A-37 truncation)
    banker = ok(req(bets=[{"kind": "banker", "amount": 1999}]))["bets"][0]
    assert (banker["paid"], banker["commission"]) == (1999 + 1899, 100)


def test_cl_commission_is_10_percent_and_clp_has_no_minor_unit():
    res = ok(req("CL-ARICA", "mini", [{"kind": "banker", "amount": 1005}]))
    assert (res["bets"][0]["paid"], res["bets"][0]["commission"]) == (1005 + 904, 101)
    assert res["bets"][0]["rule"] == "seed 004 III §2.7"


def test_commission_is_a_switch():
    res = ok(req("CL-ARICA", "mini", [{"kind": "banker", "amount": 1000}],
                 switches={"baccarat_commission": "5%"}))
    assert res["bets"][0]["paid"] == 1950


def test_tie_pays_8_to_1_and_voids_punto_and_banca():
    res = ok(req(bets=[{"kind": "tie", "amount": 100}, {"kind": "player", "amount": 300},
                       {"kind": "banker", "amount": 200}], cards=TIE_ROUND))
    tie, player, banker = res["bets"]
    assert (tie["paid"], tie["outcome"]) == (900, "win")
    assert (player["paid"], player["outcome"]) == (300, "push")
    assert (banker["paid"], banker["outcome"]) == (200, "push")
    assert player["rule"] == "seed 003 Bac §2.1.5"


def test_punto_win_even_money_cl():
    res = ok(req("CL-ARICA", "punto_banca", [{"kind": "player", "amount": 700, "seat": 3}],
                 cards=PUNTO_WINS))
    assert res["bets"][0]["paid"] == 1400 and res["bets"][0]["seat"] == 3


def test_bo_pay_table_is_a_gap_until_switched():
    err = error(req("BO", "punto_banca"))
    assert err["field"] == "profile" and "baccarat_commission" in err["reason"]
    res = ok(req("BO", "midi", switches=BO_SWITCHES))
    assert res["bets"][0]["paid"] == 1950
    assert res["bets"][0]["rule"] == "seed 002 §2.2.7" and "[gap]" in res["bets"][0]["rule_note"]


def test_bo_tie_needs_a_main_bet_by_the_same_player_live_does_not():
    bets = [{"kind": "banker", "amount": 100, "seat": 1}, {"kind": "tie", "amount": 10, "seat": 2}]
    err = error(req("BO", "mini", bets, cards=TIE_ROUND, switches=BO_SWITCHES))
    assert err["field"] == "bets[1]" and "same player" in err["reason"]
    ok(req("BO", "mini", [bets[0], {**bets[1], "seat": 1}], cards=TIE_ROUND, switches=BO_SWITCHES))
    ok(req(bets=[{"kind": "tie", "amount": 10}], cards=TIE_ROUND))


def test_live_one_stake_per_area():
    err = error(req(bets=[{"kind": "banker", "amount": 100}, {"kind": "banker", "amount": 100}]))
    assert err["field"] == "bets[1]" and "A-30" in err["reason"]
    ok(req(bets=[{"kind": "banker", "amount": 100, "seat": 1},
                 {"kind": "banker", "amount": 100, "seat": 2}]))


def test_over_maximum_excess_returned_in_cl_rejected_live():
    res = ok(req("CL-ARICA", "mini", [{"kind": "player", "amount": 15000}],
                 limits={"minimum": 1000, "maximum": 10000}))
    bet = res["bets"][0]
    assert (bet["paid"], bet["excess_returned"], bet["outcome"]) == (5000, 5000, "lose")
    res = ok(req("CL-ARICA", "mini", [{"kind": "banker", "amount": 15000}],
                 limits={"minimum": 1000, "maximum": 10000}))
    assert res["bets"][0]["paid"] == 10000 + 9000 + 5000
    err = error(req(bets=[{"kind": "banker", "amount": 15000}],
                    limits={"minimum": 1000, "maximum": 10000}))
    assert err["field"] == "bets[0].amount"


def test_under_minimum_is_flagged_for_the_jefe_de_sala():
    bet = ok(req("CL-ARICA", "mini", [{"kind": "banker", "amount": 500}],
                 limits={"minimum": 1000, "maximum": 10000}))["bets"][0]
    assert bet["under_minimum"] is True and bet["paid"] == 950


@pytest.mark.parametrize("change, field, words", [
    ({"cards": ["9H", "KS", "3C", "1X"]}, "cards[3]", "unknown rank"),
    ({"cards": ["9H", "KS", "3C", "5Z"]}, "cards[3]", "unknown suit"),
    ({"cards": "9H KS"}, "cards", "list"),
    ({"cards": ["2H", "KS", "3C", "5D", "8S", "9C"]}, "cards[5]", "impossible sequence"),
    ({"cards": ["2H", "KS", "3C", "5D"]}, "cards", "must draw a third card"),
    ({"variant": "midi"}, "variant", "not a baccarat modality"),
    ({"variant": None}, "variant", "not a baccarat modality"),
    ({"bets": [{"kind": "dragon", "amount": 5}]}, "bets[0].kind", "not a bet"),
    ({"bets": [{"kind": "banker", "amount": -5}]}, "bets[0].amount", "negative"),
    ({"bets": [{"kind": "banker", "amount": 12.5}]}, "bets[0].amount", "fractional"),
    ({"bets": [{"kind": "banker", "amount": 5, "seat": 0}]}, "bets[0].seat", "seat"),
    ({"bets": [{"kind": "banker", "amount": 5, "colour": "red"}]}, "bets[0].colour", "unknown"),
    ({"bets": None}, "bets", "required"),
    ({"betz": []}, "betz", "unknown field"),
    ({"bank": {"seat": 1, "amount": 100}}, "bank", "only for the chemin_de_fer"),
])
def test_errors_name_the_field(change, field, words):
    err = error({**req(), **change})
    assert err["field"] == field and words in err["reason"]


def test_impossible_repetition_for_the_shoe_size():
    # 6-deck Mini: 4 AH already out, cards[0] and cards[2] are the 5th and 6th, cards[4] the 7th
    err = error(req("CL-ARICA", "mini", cards=["AH", "KS", "AH", "5D", "AH"],
                    shoe={"previous_cards": ["AH"] * 4}))
    assert err["field"] == "cards[4]" and "6-deck" in err["reason"]
    err = error(req(cards=["9H"] * 4, shoe={"previous_cards": ["9H"] * 5}))
    assert err["field"] == "cards[3]" and "8-deck" in err["reason"]


def test_no_cl_midi_and_no_ar_baccarat():
    assert error(req("CL-ARICA", "midi"))["field"] == "variant"
    assert error(req("AR-RUL", "punto_banca"))["field"] == "profile"


def test_mini_seats_per_profile():
    bets = [{"kind": "banker", "amount": 100, "seat": 7}]
    ok(req("BO", "mini", bets, switches=BO_SWITCHES))
    err = error(req("CL-ARICA", "mini", bets))
    assert err["field"] == "bets[0].seat" and "6 seats" in err["reason"]


def test_explain_walks_the_table_and_the_payout():
    lines = explain_request(req(bets=[{"kind": "banker", "amount": 1000}]))
    text = "\n".join(lines)
    assert "cards[4] 8S (value 8) -> Punto's third card" in text
    assert "Banca table row '5': draws if Punto's third card is 4-5-6-7" in text
    assert "so Banca stands" in text
    assert "bets[0] banker 1000: win, paid 1950" in text and "seed 003 Bac §2.1.8" in text
    natural = "\n".join(explain_request(req(cards=PUNTO_WINS)))
    assert "natural (Punto 9)" in natural and "gana punto 9 a 5" in natural

"""Banked poker settlement, variant by variant, through api.settle_request (as a floor would)."""
from __future__ import annotations

import pytest

from tests.rules.poker.conftest import bets_of, errors, settle

AK_HIGH = "AS KD 7C 5H 2D"           # dealer opens with exactly As-Rey (seed 000 §2.3.7.1.2)
NOT_OPEN = "AS QD 7C 5H 2D"          # ace-queen: does not open


def seat(n, cards, ante=100, bet=200, **kw):
    return {"seat": n, "cards": cards, "ante": ante, "bet": bet, **kw}


# ---------------------------------------------------------------------------- Caribbean (BO)

@pytest.mark.parametrize("cards, cls, ratio", [
    ("AH KC 9D 5S 3C", "high_card", 1), ("QS QD 9C 4H 3D", "pair", 1),
    ("QS QD 9C 9H 3D", "two_pair", 2), ("QS QD QC 9H 3D", "three_of_a_kind", 3),
    ("9S 10D JC QH KS", "straight", 4), ("2H 6H 9H JH KH", "flush", 5),
    ("QS QD QC 9H 9D", "full_house", 7), ("QS QD QC QH 3D", "four_of_a_kind", 20),
    ("9S 10S JS QS KS", "straight_flush", 50), ("10H JH QH KH AH", "royal_flush", 100),
])
def test_caribbean_winner_gets_ante_1_to_1_and_bet_per_printed_table(cards, cls, ratio):
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, cards)])
    b = bets_of(r, 1)
    assert r["seats"][0] == {"seat": 1, "result": "win", "hand_class": cls}
    assert (b["ante"]["paid"], b["bet"]["paid"]) == (200, 200 + 200 * ratio)
    assert b["bet"]["rule"] == "seed 000 §2.3.7.1.2"
    assert r["totals"] == {"staked": 300, "paid": 400 + 200 * ratio,
                           "house_win": -100 - 200 * ratio}


def test_caribbean_dealer_not_opening_pays_ante_and_returns_bet_a20():
    r = settle("BO", "caribbean", NOT_OPEN, [seat(1, "2C 3C 8D 9S JH")])
    b = bets_of(r, 1)
    assert r["dealer"]["qualifies"] is False
    assert (b["ante"]["outcome"], b["ante"]["paid"]) == ("win", 200)
    assert (b["bet"]["outcome"], b["bet"]["paid"]) == ("push", 200)
    assert "A-20" in b["bet"]["rule_note"]


def test_a20_switch_lost_collects_the_bet():
    r = settle("BO", "caribbean", NOT_OPEN, [seat(1, "2C 3C 8D 9S JH")],
               switches={"poker_bet_when_dealer_unqualified": "lost"})
    assert bets_of(r, 1)["bet"]["paid"] == 0
    assert r["totals"]["house_win"] == 200 - 100


def test_caribbean_tie_is_neutral_and_loss_takes_both():
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, "AH KC 7D 5S 2C"), seat(2, "AC KH 7S 4C 3H")])
    tie, lose = bets_of(r, 1), bets_of(r, 2)
    assert [tie["ante"]["outcome"], tie["bet"]["outcome"]] == ["push", "push"]
    assert tie["ante"]["paid"] + tie["bet"]["paid"] == 300
    assert lose["ante"]["paid"] + lose["bet"]["paid"] == 0
    assert [s["result"] for s in r["seats"]] == ["tie", "lose"]


def test_fold_loses_the_ante_only():
    r = settle("BO", "caribbean", NOT_OPEN, [{"seat": 2, "cards": "2C 3C 8D 9S JH", "ante": 100,
                                              "fold": True}])
    assert r["bets"] == [{**r["bets"][0], "kind": "ante", "stake": 100, "paid": 0}]
    assert "no se rindieron" in r["bets"][0]["rule"]


# ---------------------------------------------------------------------------- Draw (BO)

def test_draw_qualifier_is_a_pair_of_eights():
    sevens = settle("BO", "draw", "7S 7D AC 5H 2D", [seat(1, "2C 3C 8D 9S JH")])
    eights = settle("BO", "draw", "8S 8D AC 5H 2D", [seat(1, "9C 9D 8H 2S JH")])
    assert sevens["dealer"]["qualifies"] is False and bets_of(sevens, 1)["ante"]["paid"] == 200
    assert eights["dealer"]["qualifies"] is True
    assert bets_of(eights, 1)["bet"]["paid"] == 400          # Un Par 1 a 1


def test_draw_two_pair_pays_1_to_1_as_printed():
    r = settle("BO", "draw", "8S 8D AC 5H 2D", [seat(1, "9C 9D 3H 3S JH")])
    assert bets_of(r, 1)["bet"]["paid"] == 400


def test_draw_allows_discards_and_the_dealer_may_have_drawn():
    req_seat = seat(1, "9C 9D 3H 3S JH", discarded=["2C", "4C"])
    r = settle("BO", "draw", "8S 8D AC 5H 2D", [req_seat])
    assert r["seats"][0]["result"] == "win"


# ---------------------------------------------------------------------------- Three-card (BO)

def test_three_card_needs_the_a21_switch(three_card_switches):
    errs = errors("BO", "three_card", "QS 5D 2C", [seat(1, "KH 9C 4D")])
    assert errs[0]["field"] == "profile" and "poker_three_card" in errs[0]["reason"]


@pytest.mark.parametrize("ante_rule, high_rule, ante_paid, bet_paid", [
    ("paid_1_to_1", "paid_1_to_1", 200, 400), ("returned", "returned", 100, 200),
])
def test_three_card_high_card_win_under_each_reading(ante_rule, high_rule, ante_paid, bet_paid):
    sw = {"poker_three_card_ante_on_win": ante_rule, "poker_three_card_high_card_win": high_rule}
    r = settle("BO", "three_card", "QS 5D 2C", [seat(1, "KH 9C 4D", bet=200)], switches=sw)
    b = bets_of(r, 1)
    assert (b["ante"]["paid"], b["bet"]["paid"]) == (ante_paid, bet_paid)
    assert "A-21" in b["ante"]["rule_note"]


@pytest.mark.parametrize("cards, ratio", [("9H 9C 4D", 1), ("2H 7H JH", 4), ("4S 5D 6C", 6),
                                          ("5S 5D 5C", 25), ("4S 5S 6S", 40)])
def test_three_card_table_on_the_bet(cards, ratio, three_card_switches):
    r = settle("BO", "three_card", "QS 5H 2C", [seat(1, cards)], switches=three_card_switches)
    assert bets_of(r, 1)["bet"]["paid"] == 200 + 200 * ratio


def test_three_card_dealer_below_queen_does_not_open(three_card_switches):
    r = settle("BO", "three_card", "JS 5D 2C", [seat(1, "3H 4C 9D")], switches=three_card_switches)
    b = bets_of(r, 1)
    assert r["dealer"]["qualifies"] is False
    assert (b["ante"]["paid"], b["bet"]["paid"]) == (200, 200)


# ---------------------------------------------------------------------------- Go Poker (BO)

def go_seat(n, cards, **kw):
    return {"seat": n, "cards": cards, "ante": 100, "go": [100, 100], **kw}


def test_go_needs_the_a22_switch():
    errs = errors("BO", "go", "2S 3D 5C 8H JS", [go_seat(1, "10S 10D 4C 5H 7S")])
    assert "poker_go_settlement" in errs[0]["reason"]


def test_go_pay_table_reading_ignores_the_croupier():
    sw = {"poker_go_settlement": "pay_table"}
    r = settle("BO", "go", None, [go_seat(1, "10S 10D 4C 5H 7S"), go_seat(2, "9S 9D 4D 5D 7C"),
                                  go_seat(3, "2H 6H 9H JH KH")], switches=sw)
    assert [sum(b["paid"] for b in bets_of(r, s).values()) for s in (1, 2, 3)] == [600, 0, 2700]
    assert "A-22" in r["bets"][0]["rule_note"]


def test_go_vs_dealer_reading_needs_beating_the_croupier():
    sw = {"poker_go_settlement": "vs_dealer"}
    r = settle("BO", "go", "JS JD 2C 3H 4S", [go_seat(1, "10S 10D 6C 5H 7S"),
                                              go_seat(2, "QS QD 6D 5D 7C")], switches=sw)
    assert [s["result"] for s in r["seats"]] == ["lose", "win"]
    assert sum(b["paid"] for b in bets_of(r, 2).values()) == 600


def test_go_fold_loses_what_was_staked():
    sw = {"poker_go_settlement": "pay_table"}
    r = settle("BO", "go", None, [{"seat": 1, "cards": "AS AD AC 5H 7S", "ante": 100, "go": [100],
                                   "fold": True}], switches=sw)
    assert r["totals"] == {"staked": 200, "paid": 0, "house_win": 200}


# ---------------------------------------------------------------------------- ARICA (CL)

def test_arica_plus_card_purchase_costs_the_ante_and_leaves_the_progressive():
    r = settle("CL-ARICA", "arica_plus", AK_HIGH,
               [seat(1, "QS QD 9C 4H 3D", ante=1000, bet=2000, discarded=["2C"], progressive=1)])
    b = bets_of(r, 1)
    assert (b["card_purchase"]["stake"], b["card_purchase"]["paid"]) == (1000, 0)
    assert r["totals"] == {"staked": 4000, "paid": 6000, "house_win": -2000}
    assert r["progressive"]["seats"][0]["status"] == "forfeited"


def test_arica_bet_must_be_twice_the_ante():
    errs = errors("CL-ARICA", "arica", AK_HIGH, [seat(1, "QS QD 9C 4H 3D", ante=1000, bet=1500)])
    assert errs[0]["field"] == "seats[0].bet" and "2000" in errs[0]["reason"]


def test_plain_arica_cannot_buy_a_card():
    errs = errors("CL-ARICA", "arica", AK_HIGH,
                  [seat(1, "QS QD 9C 4H 3D", ante=1000, bet=2000, discarded=["2C"])])
    assert errs[0]["field"] == "seats[0].discarded"


# ------------------------------------------------------------------- voids and payment order

def test_void_hand_returns_every_stake_and_void_round_annuls_all():
    r = settle("BO", "caribbean", AK_HIGH, [seat(1, "QS QD 9C 4H 3D"),
                                            seat(2, "2C 2H", void="dealt two cards")])
    assert [b["outcome"] for b in bets_of(r, 2).values()] == ["void", "void"]
    assert sum(b["paid"] for b in bets_of(r, 2).values()) == 300
    r = settle("BO", "caribbean", None, [seat(1, "QS QD 9C 4H 3D")], void_round="dealer misdealt")
    assert r["totals"] == {"staked": 300, "paid": 300, "house_win": 0}


def test_payment_order_is_seat_1_first_whatever_the_request_order():
    r = settle("BO", "caribbean", AK_HIGH, [seat(3, "QS QD 9C 4H 3D"), seat(1, "2C 3C 8D 9S JH")])
    assert r["payment_order"] == [1, 3]

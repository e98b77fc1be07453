"""Card irregularities (domain.md §2.8; seed 002 §2.1.7.1, seed 004 III §1.7) and the round
voids: undealt box, incomplete round (CL), system malfunction (LIVE)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.rules.blackjack.helpers import error, explain, one, settle


def _marked(card: str, kind: str) -> dict[str, str]:
    return {"card": card, "irregularity": kind}


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
@pytest.mark.parametrize("kind", ["face_up", "stuck"])
def test_face_up_and_stuck_cards_are_burned_and_play_goes_on(profile, kind):
    out = settle(profile, [{"seat": 1, "bet": 100, "actions": ["stand"]}],
                 ["10H", _marked("5D", kind), "7D", "9S", "10C"])
    assert out["dealer_hands"][0]["cards"] == ["7D", "10C"]
    assert out["burned"] == [{"field": "cards[1]", "card": "5D", "why": kind}]
    assert one(out)["outcome"] == "win"


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_dealer_extra_card_on_hard_17_is_burned(profile):
    out = settle(profile, [{"seat": 1, "bet": 100, "actions": ["stand"]}],
                 ["10H", "7D", "9S", "10C", _marked("4S", "dealer_extra")])
    assert out["dealer_hands"][0]["total"] == "17" and one(out)["outcome"] == "win"
    assert out["burned"][0]["why"] == "dealer_extra"


def test_dealer_extra_card_on_soft_17_bo_burned_cl_part_of_the_hand():
    cards = ["10H", "6D", "9S", "AC", _marked("4S", "dealer_extra")]
    out = settle("BO", [{"seat": 1, "bet": 100, "actions": ["stand"]}], cards)
    assert one(out)["outcome"] == "win"
    err = error("CL-ARICA", [{"seat": 1, "bet": 100, "actions": ["stand"]}], cards)
    assert err["field"] == "cards[4].irregularity"


def test_dealer_extra_card_before_the_dealer_stands_is_an_error():
    err = error("BO", [{"seat": 1, "bet": 100, "actions": ["stand"]}],
                ["10H", "6D", "9S", "10C", _marked("4S", "dealer_extra")])
    assert err["field"] == "cards[4].irregularity" and "still needs a card" in err["reason"]


def test_cards_after_the_round_are_burned_only_at_the_end():
    out = settle("BO", [{"seat": 1, "bet": 100, "actions": ["stand"]}],
                 ["10H", "7D", "9S", "10C", _marked("4S", "after_round"),
                  _marked("5S", "after_round")])
    assert [b["card"] for b in out["burned"]] == ["4S", "5S"]
    err = error("BO", [{"seat": 1, "bet": 100, "actions": ["hit"]}],
                ["10H", "7D", "2S", _marked("4S", "after_round"), "5S", "10C"])
    assert err["field"] == "cards[3].irregularity"


def test_refused_card_bo_burned_and_the_player_may_still_hit():
    out = settle("BO", [{"seat": 1, "bet": 100, "actions": ["refuse", "hit", "stand"]}],
                 ["10H", "7D", "2S", "9D", "5C", "10C"])
    assert out["burned"] == [{"field": "cards[3]", "card": "9D", "why": "refused"}]
    assert one(out)["outcome"] == "push"          # 17 vs 17


def test_refused_card_cl_burned_and_the_hand_stands():
    out = settle("CL-ARICA", [{"seat": 1, "bet": 100, "actions": ["refuse"]}],
                 ["10H", "7D", "8S", "9D", "10C"])
    assert one(out)["outcome"] == "win" and out["hands"][0]["cards"] == ["10H", "8S"]
    err = error("CL-ARICA", [{"seat": 1, "bet": 100, "actions": ["refuse", "hit"]}],
                ["10H", "7D", "2S", "9D", "5C", "10C"])
    assert err["field"] == "boxes[0].actions[1]"


def test_live_has_no_card_irregularities():
    err = error("LIVE-GG", [{"seat": 1, "bet": 100}],
                ["10H", _marked("5D", "face_up"), "7D", "9S", "10C"])
    assert err["field"] == "cards[1].irregularity" and "§4.1" in err["reason"]
    err = error("LIVE-GG", [{"seat": 1, "bet": 100, "actions": ["refuse"]}],
                ["10H", "7D", "2S", "10C", "9D"])
    assert err["field"] == "boxes[0].actions[0]" and "silent" in err["reason"]


def test_floor_card_stays_in_play():
    cards = ["10H", "7D", _marked("9S", "floor"), "10C"]
    out = settle("BO", [{"seat": 1, "bet": 100}], cards)
    assert out["hands"][0]["cards"] == ["10H", "9S"] and out["burned"] == []
    assert any("floor" in line for line in explain("BO", [{"seat": 1, "bet": 100}], cards))


def test_box_without_cards_is_void_in_cl_and_undefined_in_bo():
    boxes = [{"seat": 1, "bet": 100, "dealt": False}, {"seat": 2, "bet": 100}]
    out = settle("CL-ARICA", boxes, ["10H", "7D", "9S", "10C"])
    assert (one(out, seat=1)["outcome"], one(out, seat=1)["paid"]) == ("void", 100)
    assert one(out, seat=2)["outcome"] == "win"
    err = error("BO", boxes, ["10H", "7D", "9S", "10C"])
    assert err["field"] == "boxes[0].dealt" and "silent" in err["reason"]


def test_cl_round_cut_short_pays_only_two_card_21s():
    boxes: list[dict[str, Any]] = [{"seat": 1, "bet": 1000},
                                   {"seat": 2, "bet": 1000, "perfect_pairs": 0,
                                    "actions": ["hit"]}]
    cards = ["AS", "10H", "10D", "KH", "6C"]          # seat 2 hits: no card left
    out = settle("CL-ARICA", boxes, cards, incomplete="cut_card_missing")
    assert (one(out, seat=1)["outcome"], one(out, seat=1)["paid"]) == ("win", 2500)
    assert (one(out, seat=2)["outcome"], one(out, seat=2)["paid"]) == ("void", 1000)
    assert "§1.7" in one(out, seat=2)["rule"]
    assert error("CL-ARICA", boxes, cards)["field"] == "cards"
    assert error("BO", boxes, cards, incomplete="cut_card_missing")["field"] == "incomplete"
    complete = cards[:4] + ["6C", "2C", "7S"]
    err = error("CL-ARICA", [boxes[0], {**boxes[1], "actions": ["hit", "stand"]}],
                complete, incomplete="cut_card_missing")
    assert err["field"] == "incomplete"


def test_live_malfunction_voids_every_bet():
    out = settle("LIVE-GG", [{"seat": 1, "bet": 100, "insurance": 50}, {"seat": 2, "bet": 70}],
                 [], void="malfunction")
    assert [b["outcome"] for b in out["bets"]] == ["void", "void", "void"]
    assert out["totals"] == {"staked": 220, "paid": 220, "house_win": 0}
    assert error("BO", [{"seat": 1, "bet": 100}], [], void="malfunction")["field"] == "void"

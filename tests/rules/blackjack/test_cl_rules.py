"""CL-ARICA specifics: the dealer's «Casos Especiales», promotions, the multi-box formula;
and the other profiles' rules on the same points (A-5, A-10, A-11, A-12)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.rules.blackjack.helpers import bets, error, explain, one, settle

CL = "CL-ARICA"


def test_case_1_low_card_and_only_blackjacks_left_dealer_takes_nothing():
    boxes: list[dict[str, Any]] = [{"seat": 1, "bet": 1000},
                                   {"seat": 2, "bet": 1000, "actions": ["hit"]}]
    cards = ["AS", "10H", "9D", "KH", "6C", "KD"]      # seat 2 busts with 26
    out = settle(CL, boxes, cards)
    assert out["dealer_hands"][0]["cards"] == ["9D"]
    err = error(CL, boxes, cards + ["5C"])
    assert err["field"] == "cards[6]" and "left over" in err["reason"]
    assert any("no further card can change any result" in line
               for line in explain(CL, boxes, cards))


def test_case_2_ace_and_only_blackjacks_dealer_takes_one_card():
    out = settle(CL, [{"seat": 1, "bet": 1000}], ["AS", "AD", "KH", "5C"])
    assert out["dealer_hands"][0]["cards"] == ["AD", "5C"] and one(out)["paid"] == 2500
    assert error(CL, [{"seat": 1, "bet": 1000}], ["AS", "AD", "KH", "5C", "9C"])["field"] \
        == "cards[4]"


def test_case_3_ten_and_only_blackjacks_dealer_takes_one_card():
    out = settle(CL, [{"seat": 1, "bet": 1000}], ["AS", "KD", "KH", "5C"])
    assert out["dealer_hands"][0]["cards"] == ["KD", "5C"] and one(out)["paid"] == 2500
    tie = settle(CL, [{"seat": 1, "bet": 1000}], ["AS", "KD", "KH", "AC"])
    assert one(tie)["outcome"] == "push"


def test_case_4_insured_players_bust_dealer_takes_one_card_for_the_insurance():
    boxes = [{"seat": 1, "bet": 1000, "insurance": 500, "actions": ["hit"]}]
    out = settle(CL, boxes, ["10H", "AD", "6S", "9C", "5C"])
    assert out["dealer_hands"][0]["cards"] == ["AD", "5C"]
    assert one(out, "insurance")["outcome"] == "lose" and one(out)["outcome"] == "lose"
    won = settle(CL, boxes, ["10H", "AD", "6S", "9C", "KC"])
    assert one(won, "insurance")["paid"] == 1500


def test_live_dealer_takes_no_card_when_nothing_depends_on_it():
    boxes = [{"seat": 1, "bet": 100, "actions": ["hit"]}]
    out = settle("LIVE-GG", boxes, ["10H", "7D", "6S", "9C", "KC"])
    assert out["dealer_hands"][0]["cards"] == ["7D", "9C"]
    assert error("LIVE-GG", boxes, ["10H", "7D", "6S", "9C", "KC", "5D"])["field"] == "cards[5]"


def test_bo_dealer_may_stop_or_complete_when_nothing_depends_on_it():
    boxes = [{"seat": 1, "bet": 100, "actions": ["hit"]}]
    stopped = settle("BO", boxes, ["10H", "7D", "6S", "KC"])
    completed = settle("BO", boxes, ["10H", "7D", "6S", "KC", "9C", "5D"])
    assert stopped["totals"] == completed["totals"] == {"staked": 100, "paid": 0,
                                                        "house_win": 100}
    assert completed["dealer_hands"][0]["cards"] == ["7D", "9C", "5D"]


@pytest.mark.parametrize("cards,actions,name,prize", [
    (["2H", "10C", "2D", "AS", "AC", "2C", "2S", "3H", "7D"], ["hit"] * 5 + ["stand"],
     "seven_cards", 1000),
    (["AH", "9D", "JS"], [], "jack_of_spades_blackjack", 4000),
    (["7H", "10C", "7H", "7H", "8D"], ["hit"], "three_suited_sevens", 7000),
    (["6S", "10C", "8S", "7S", "8D"], ["hit"], "suited_678", 5000),
])
def test_cl_promotions_paid_besides_the_normal_pay(cards, actions, name, prize):
    out = settle(CL, [{"seat": 1, "bet": 1000, "actions": actions}], cards)
    promo = one(out, "promotion")
    assert (promo["promotion"], promo["stake"], promo["paid"]) == (name, 0, prize)
    assert promo["rule"].startswith("seed 004 III §1.8") and promo["rule_note"] == "A-12"
    off = settle(CL, [{"seat": 1, "bet": 1000, "actions": actions}], cards,
                 switches={"bj_promotions": "off"})
    assert bets(off, "promotion") == []
    assert off["totals"]["paid"] == out["totals"]["paid"] - prize


def test_cl_insurance_against_a_ten_pays_five_to_one():
    boxes = [{"seat": 1, "bet": 1000, "insurance_ten": 500, "actions": ["stand"]}]
    won = settle(CL, boxes, ["10H", "KD", "9S", "AC"])
    assert (one(won, "insurance_ten")["paid"], one(won)["outcome"]) == (3000, "lose")
    lost = settle(CL, boxes, ["10H", "KD", "9S", "7C"])
    assert one(lost, "insurance_ten")["paid"] == 0
    limits = {"minimum": 600, "maximum": 100000}
    ok = settle(CL, [{**boxes[0], "insurance_ten": 300}], ["10H", "KD", "9S", "7C"],
                limits=limits)
    assert one(ok, "insurance_ten")["stake"] == 300
    err = error(CL, [{**boxes[0], "insurance_ten": 400}], ["10H", "KD", "9S", "7C"],
                limits=limits)
    assert err["field"] == "boxes[0].insurance_ten" and "[300, 500]" in err["reason"]
    assert error(CL, boxes, ["10H", "9D", "9S", "7C"])["field"] == "boxes[0].insurance_ten"
    assert error("BO", boxes, ["10H", "KD", "9S", "7C"])["field"] == "boxes[0].insurance_ten"


FOUR = [{"seat": s, "player": "ana", "bet": b, "actions": ["stand"]}
        for s, b in zip((1, 2, 3, 4), (1000, 2000, 4000, 13000))]
FOUR_CARDS = ["10H", "10S", "10D", "10C", "7D", "9H", "9S", "9D", "9C", "10H"]
LIMITS = {"minimum": 1000, "maximum": 20000}


def test_cl_four_consecutive_boxes_meeting_the_formula():
    out = settle(CL, FOUR, FOUR_CARDS, limits=LIMITS)
    assert len(bets(out)) == 4 and out["totals"]["staked"] == 20000


def test_cl_formula_total_reading_and_per_box_reading():
    two = [{**FOUR[0], "bet": 1000}, {**FOUR[1], "bet": 1000}]
    cards = ["10H", "10S", "7D", "9H", "9S", "10C"]
    err = error(CL, two, cards, limits=LIMITS)
    assert err["field"] == "boxes[1].bet" and "3000 in total" in err["reason"]
    assert len(bets(settle(CL, [two[0], {**two[1], "bet": 2000}], cards, limits=LIMITS))) == 2
    err = error(CL, [two[0], {**two[1], "bet": 2000}], cards, limits=LIMITS,
                switches={"bj_multibox_stakes": "per_box"})
    assert err["field"] == "boxes[1].bet" and "3000" in err["reason"]


def test_cl_boxes_must_be_consecutive_and_the_limits_known():
    gap = [{**FOUR[0]}, {**FOUR[1], "seat": 3}]
    assert error(CL, gap, [], limits=LIMITS)["field"] == "boxes[1].seat"
    assert error(CL, FOUR[:2], [])["field"] == "limits"


@pytest.mark.parametrize("profile,boxes_allowed", [("BO", 2), ("CL-ARICA", 4),
                                                   ("LIVE-GG", 7)])
def test_boxes_per_player(profile, boxes_allowed):
    n = min(boxes_allowed + 1, 7)
    boxes = [{"seat": s, "player": "ana", "bet": 20000, "actions": ["stand"]}
             for s in range(1, n + 1)]
    fields = {"limits": {"minimum": 1, "maximum": 20000}} if profile == CL else {}
    if n > boxes_allowed:
        err = error(profile, boxes, [], **fields)
        assert err["field"] == f"boxes[{n - 1}].player" and f"at most {boxes_allowed}" \
            in err["reason"]
    k = min(n, boxes_allowed)
    ok = settle(profile, boxes[:k], ["10H"] * k + ["7D"] + ["9S"] * k + ["QC"], **fields)
    assert len(bets(ok)) == k and all(b["outcome"] == "win" for b in bets(ok))

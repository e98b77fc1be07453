"""Challenge 21 (BO only, seed 002 §2.1.3.2, §2.1.5.3): one player hand against three dealer
hands built on the same base card; two or three bets; decisions taken once for all rounds."""
from __future__ import annotations

from tests.rules.blackjack.helpers import bets, error, explain, settle

C21 = {"variant": "challenge21"}


def _by_round(out, seat=1):
    return {b["round"]: b for b in bets(out, seat=seat)}


def test_three_dealer_hands_on_one_base_card():
    # player 18; base 7D: round 1 7D+10C=17, round 2 7D+5C+9C=21, round 3 7D+7C+4D=18
    out = settle("BO", [{"seat": 1, "bets": [100, 100, 100], "actions": ["stand"]}],
                 ["10H", "7D", "8S", "10C", "5C", "9C", "7C", "4D"], **C21)
    rounds = _by_round(out)
    assert [rounds[r]["outcome"] for r in (1, 2, 3)] == ["win", "lose", "push"]
    assert [h["cards"] for h in out["dealer_hands"]] == [["7D", "10C"], ["7D", "5C", "9C"],
                                                         ["7D", "7C", "4D"]]
    assert all("§2.1.7.2" in b["rule"] for b in rounds.values())


def test_two_bets_play_two_dealer_hands_and_a_third_box_bet_plays_the_third():
    boxes = [{"seat": 1, "bets": [100, 100], "actions": ["stand"]},
             {"seat": 2, "bets": [50, 50, 50], "actions": ["stand"]}]
    cards = ["10H", "9H", "7D", "8S", "10S", "10C", "5C", "9C", "7C", "4D"]
    out = settle("BO", boxes, cards, **C21)
    assert sorted(_by_round(out, 1)) == [1, 2] and sorted(_by_round(out, 2)) == [1, 2, 3]
    assert _by_round(out, 2)[3]["outcome"] == "win"     # 19 vs 18


def test_a_bust_loses_every_bet():
    out = settle("BO", [{"seat": 1, "bets": [100, 100, 100], "actions": ["hit"]}],
                 ["10H", "7D", "8S", "KC"], **C21)
    assert [b["outcome"] for b in bets(out)] == ["lose"] * 3
    assert out["totals"]["house_win"] == 300


def test_a_double_doubles_every_bet():
    out = settle("BO", [{"seat": 1, "bets": [100, 100, 100], "actions": ["double"]}],
                 ["6H", "7D", "5S", "KC", "10C", "10D", "10H"], **C21)
    assert [b["stake"] for b in bets(out)] == [200, 200, 200]
    assert [b["paid"] for b in bets(out)] == [400, 400, 400]


def test_insurance_chosen_per_dealer_hand():
    # base ace: round 1 A+K blackjack (insured), round 2 A+6 (not insured), round 3 A+9
    out = settle("BO", [{"seat": 1, "bets": [100, 100, 100], "insurance": [50, 0, 50],
                         "actions": ["stand"]}],
                 ["10H", "AD", "8S", "KC", "6C", "9C"], **C21)
    ins = {b["round"]: b for b in bets(out, "insurance")}
    assert sorted(ins) == [1, 3]
    assert (ins[1]["paid"], ins[3]["paid"]) == (150, 0)
    # player 18: loses to the blackjack, beats soft 17 (S17 stands), loses to soft 20
    assert [b["outcome"] for b in sorted(bets(out), key=lambda b: b["round"])] == \
        ["lose", "win", "lose"]


def test_blackjack_paid_at_once_on_every_bet_when_the_base_card_cannot_make_one():
    out = settle("BO", [{"seat": 1, "bets": [100, 100]}], ["AH", "9D", "KS"], **C21)
    assert [b["paid"] for b in bets(out)] == [250, 250]


def test_challenge21_request_checks():
    assert error("CL-ARICA", [{"seat": 1, "bets": [1, 1]}], [], **C21)["field"] == "variant"
    assert error("BO", [{"seat": 1, "bets": [100]}], [], **C21)["field"] == "boxes[0].bets"
    assert error("BO", [{"seat": 1, "bet": 100}], [], **C21)["field"] == "boxes[0].bet"
    assert error("BO", [{"seat": 7, "bets": [1, 1]}], [], **C21)["field"] == "boxes[0].seat"
    err = error("BO", [{"seat": 1, "player": "ana", "bets": [1, 1]},
                       {"seat": 2, "player": "ana", "bets": [1, 1]}],
                ["10H", "9H", "7D", "8S", "10S", "10C"], **C21)
    assert err["field"] == "boxes[1].player" and "at most 1" in err["reason"]
    err = error("BO", [{"seat": 1, "bets": [1, 1], "perfect_pairs": 1}],
                ["10H", "7D", "8S", "10C", "10D"], **C21)
    assert err["field"] == "boxes[0].perfect_pairs"


def test_challenge21_shoe_has_eight_decks():
    cards = ["KS"] * 8
    err = error("BO", [{"seat": 1, "bets": [1, 1]}], cards + ["KS"], **C21)
    assert err["field"] == "cards[8]" and "9 times" in err["reason"]
    err = error("BO", [{"seat": 1, "bet": 1}], cards)
    assert err["field"] == "cards[6]" and "6-deck" in err["reason"]


def test_explain_shows_each_dealer_hand():
    lines = explain("BO", [{"seat": 1, "bets": [100, 100], "actions": ["stand"]}],
                    ["10H", "7D", "8S", "10C", "5C", "9C"], **C21)
    text = "\n".join(lines)
    assert "Dealer hand 1 on the base card 7D" in text and "Dealer hand 2" in text
    assert "dealer hand 2: lose" in text

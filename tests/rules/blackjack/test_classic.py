"""Classic blackjack: payouts, dealer rule, doubles, splits, per profile and per switch.

Card order of one box without a hole card: player, dealer up card, player, then the player's
draws, then the dealer's. LIVE-GG adds the dealer's hole card after the player's second card.
"""
from __future__ import annotations

import pytest

from tests.rules.blackjack.helpers import bets, error, explain, one, settle

PROFILES = ["BO", "CL-ARICA", "LIVE-GG"]


def _two_card(profile: str, player: tuple[str, str], dealer: list[str]) -> list[str]:
    """Cards for one standing box: player, dealer up, player, then the dealer's other cards
    (LIVE-GG's hole card takes that place in its deal, so the order is the same)."""
    return [player[0], dealer[0], player[1], *dealer[1:]]


@pytest.mark.parametrize("profile", PROFILES)
def test_higher_total_wins_one_to_one(profile):
    out = settle(profile, [{"seat": 1, "bet": 100, "actions": ["stand"]}],
                 _two_card(profile, ("10H", "9S"), ["7D", "10C"]))
    bet = one(out)
    assert (bet["outcome"], bet["paid"]) == ("win", 200)
    assert out["totals"] == {"staked": 100, "paid": 200, "house_win": -100}


@pytest.mark.parametrize("profile", PROFILES)
def test_lower_total_loses_and_equal_total_pushes(profile):
    lose = settle(profile, [{"seat": 1, "bet": 100}], _two_card(profile, ("10H", "7S"),
                                                                 ["9D", "10C"]))
    push = settle(profile, [{"seat": 1, "bet": 100}], _two_card(profile, ("10H", "9S"),
                                                                 ["9D", "10C"]))
    assert (one(lose)["outcome"], one(lose)["paid"]) == ("lose", 0)
    assert (one(push)["outcome"], one(push)["paid"]) == ("push", 100)


@pytest.mark.parametrize("profile", PROFILES)
def test_dealer_bust_pays_standing_hands_but_a_player_bust_lost_first(profile):
    # seat 1 busts (collected at once), seat 2 stands on 12; dealer 16 draws and busts
    boxes = [{"seat": 1, "bet": 100, "actions": ["hit"]}, {"seat": 2, "bet": 100,
                                                          "actions": ["stand"]}]
    cards = ["10H", "10S", "6D", "5C", "2D"]
    if profile == "LIVE-GG":
        cards = ["10H", "10S", "6D", "5C", "2D", "QD"]   # hole card QD → 16
        cards += ["KC", "9C"]                            # seat 1 hits KC, dealer draws 9C
        out = settle(profile, boxes, cards)
    else:
        cards += ["KC", "QD", "9C"]  # seat 1 hits KC (bust); dealer QD → 16, 9C → 25
        out = settle(profile, boxes, cards)
    assert one(out, seat=1)["outcome"] == "lose"
    assert (one(out, seat=2)["outcome"], one(out, seat=2)["paid"]) == ("win", 200)


@pytest.mark.parametrize("profile,stake,paid", [("BO", 25, 62), ("LIVE-GG", 25, 62),
                                                ("CL-ARICA", 2500, 6250), ("BO", 200, 500)])
def test_blackjack_pays_three_to_two_exactly_with_the_profile_rounding(profile, stake, paid):
    # paid at once (BO, CL: a 9 cannot make blackjack); CL's dealer then takes no card
    cards = ["AS", "9D", "KH"] + ([] if profile == "CL-ARICA" else ["8C"])
    out = settle(profile, [{"seat": 1, "bet": stake}], cards)
    bet = one(out)
    assert (bet["outcome"], bet["paid"]) == ("win", paid)   # 25 × 3/2 = 37.5 → 37 (down)


def test_blackjack_rounding_switch_half_up():
    out = settle("BO", [{"seat": 1, "bet": 25}], ["AS", "9D", "KH"],
                 switches={"rounding": "half_up"})
    assert one(out)["paid"] == 25 + 38


def test_blackjack_against_a_dealer_ten_waits_and_pushes_on_dealer_blackjack():
    # §2.1.7.2 reading (default): a 10 may still become blackjack, so the BJ waits
    out = settle("BO", [{"seat": 1, "bet": 100}], ["AS", "10D", "KH", "AC"])
    assert (one(out)["outcome"], one(out)["paid"]) == ("push", 100)
    assert out["dealer_hands"][0]["blackjack"] is True


def test_blackjack_paid_at_once_under_the_literal_not_ace_reading():
    out = settle("BO", [{"seat": 1, "bet": 100}], ["AS", "10D", "KH"],
                 switches={"bj_immediate_pay": "not_ace"})
    assert (one(out)["outcome"], one(out)["paid"]) == ("win", 250)
    assert "paid at once" in one(out)["detail"]


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_dealer_blackjack_without_hole_card_takes_the_double_too(profile):
    # player 6+5 doubles, gets 10 → 21; dealer A then K: blackjack, both stakes lost
    out = settle(profile, [{"seat": 1, "bet": 100, "actions": ["double"]}],
                 ["6H", "AD", "5S", "10C", "KD"])
    bet = one(out)
    assert (bet["stake"], bet["paid"], bet["outcome"]) == (200, 0, "lose")
    assert bet["detail"] == "player 21 vs dealer blackjack"
    assert bet["rule"] == ("seed 002 §2.1.7.2" if profile == "BO" else "seed 004 III §1.5.1")


def test_live_dealer_ten_up_hole_ace_blackjack_found_at_the_end_takes_the_double():
    out = settle("LIVE-GG", [{"seat": 1, "bet": 100, "actions": ["double"]}],
                 ["6H", "KD", "5S", "AC", "10C"])
    assert (one(out)["stake"], one(out)["paid"]) == (200, 0)


@pytest.mark.parametrize("profile", PROFILES)
def test_multi_card_21_loses_to_dealer_blackjack(profile):
    if profile == "LIVE-GG":   # the peek ends the round: no decision possible
        out = settle(profile, [{"seat": 1, "bet": 100}], ["7H", "AD", "7S", "KD"])
    else:
        out = settle(profile, [{"seat": 1, "bet": 100, "actions": ["hit"]}],
                     ["7H", "AD", "7S", "7C", "KD"])
    assert one(out)["outcome"] == "lose"


def test_live_peek_ends_the_round_before_any_decision():
    err = error("LIVE-GG", [{"seat": 1, "bet": 100, "actions": ["hit"]}],
                ["7H", "AD", "7S", "KD", "7C"])
    assert err["field"] == "boxes[0].actions[0]"
    assert "peek" in err["reason"]


def test_split_aces_21_is_not_blackjack_and_pays_even_money():
    out = settle("BO", [{"seat": 1, "bet": 100, "actions": ["split"]}],
                 ["AH", "9D", "AS", "KC", "KD", "8S"])
    first, second = sorted(bets(out), key=lambda b: b["hand"])
    assert (first["outcome"], first["paid"]) == ("win", 200)          # 21 vs 17, 1:1
    assert "§2.1.5.3 d" in first["rule"]
    assert (second["outcome"], second["paid"]) == ("win", 200)        # A+K vs 17


def test_split_aces_receive_one_card_each():
    err = error("BO", [{"seat": 1, "bet": 100, "actions": ["split", "hit"]}],
                ["AH", "9D", "AS", "5C", "6D", "8S"])
    assert err["field"] == "boxes[0].actions[1]"
    assert "one card" in err["reason"]


@pytest.mark.parametrize("profile,ok", [("BO", False), ("CL-ARICA", True), ("LIVE-GG", False)])
def test_resplitting_aces(profile, ok):
    cards = ["AH", "9D", "AS", "AC", "5D", "6S", "7H", "10S"]
    if profile == "LIVE-GG":
        cards = ["AH", "9D", "AS", "7C", "AC", "5D", "6S", "10S"]
    boxes = [{"seat": 1, "bet": 100, "actions": ["split", "split"]}]
    if ok:
        out = settle(profile, boxes, cards)
        assert len(bets(out)) == 3
    else:
        err = error(profile, boxes, cards)
        assert err["field"] == "boxes[0].actions[1]"


def test_bo_splits_up_to_three_times_four_hands():
    cards = ["8H", "9D", "8S", "8C", "8D", "8S", "2C", "3C", "4C", "5C", "10D"]
    out = settle("BO", [{"seat": 1, "bet": 10, "actions": ["split", "split", "split",
                                                           "stand", "stand", "stand",
                                                           "stand"]}], cards)
    assert len(bets(out)) == 4 and out["totals"]["staked"] == 40
    err = error("BO", [{"seat": 1, "bet": 10, "actions": ["split", "split", "split", "split"]}],
                ["8H", "9D", "8S", "8C", "8D", "8S", "8C", "3C", "4C", "5C", "10D"])
    assert err["field"] == "boxes[0].actions[3]" and "at most 3" in err["reason"]


def test_live_splits_once_and_deals_both_second_cards_at_the_split():
    cards = ["8H", "9D", "8S", "7C", "3C", "4D", "10S"]     # hole 7C; split 8s get 3C, 4D
    out = settle("LIVE-GG", [{"seat": 1, "bet": 10, "actions": ["split", "stand", "stand"]}],
                 cards)
    hands = sorted(out["hands"], key=lambda h: h["hand"])
    assert [h["cards"] for h in hands] == [["8H", "3C"], ["8S", "4D"]]
    err = error("LIVE-GG", [{"seat": 1, "bet": 10, "actions": ["split", "split"]}],
                ["8H", "9D", "8S", "7C", "8C", "4D", "10S"])
    assert "at most 1" in err["reason"]


def test_ten_and_king_are_a_pair_for_splitting():
    out = settle("BO", [{"seat": 1, "bet": 10, "actions": ["split", "stand", "stand"]}],
                 ["10H", "9D", "KS", "8C", "9C", "10D"])
    assert len(bets(out)) == 2


def test_split_of_unequal_values_is_refused():
    err = error("BO", [{"seat": 1, "bet": 10, "actions": ["split"]}], ["9H", "9D", "KS", "8C"])
    assert err["field"] == "boxes[0].actions[0]" and "same value" in err["reason"]


@pytest.mark.parametrize("profile,hand,ok", [
    ("BO", ("6H", "6S"), False), ("BO", ("5H", "6S"), True), ("BO", ("AH", "8S"), False),
    ("CL-ARICA", ("AH", "8S"), True), ("CL-ARICA", ("6H", "6S"), False),
    ("LIVE-GG", ("6H", "6S"), True), ("LIVE-GG", ("AH", "8S"), True)])
def test_double_totals_per_profile(profile, hand, ok):
    cards = [hand[0], "7D", hand[1]] + (["10S", "2C"] if profile == "LIVE-GG" else ["2C", "10C"])
    boxes = [{"seat": 1, "bet": 100, "actions": ["double"]}]
    if ok:
        assert one(settle(profile, boxes, cards))["stake"] == 200
    else:
        err = error(profile, boxes, cards)
        assert err["field"] == "boxes[0].actions[0]" and "9, 10 or 11" in err["reason"]


def test_double_after_split_bo_yes_live_no():
    out = settle("BO", [{"seat": 1, "bet": 100, "actions": ["split", "double", "stand"]}],
                 ["5H", "9D", "5S", "5C", "10D", "9C", "10C"])
    assert sorted(b["stake"] for b in bets(out)) == [100, 200]
    err = error("LIVE-GG", [{"seat": 1, "bet": 100, "actions": ["split", "double"]}],
                ["5H", "9D", "5S", "8C", "5C", "9C", "10D"])
    assert err["field"] == "boxes[0].actions[1]" and "after a split" in err["reason"]


def test_live_doubles_for_less_bo_must_double_the_same_amount():
    out = settle("LIVE-GG", [{"seat": 1, "bet": 100, "actions": [{"double": 40}]}],
                 ["5H", "9D", "6S", "8C", "9C"])
    assert one(out)["stake"] == 140 and one(out)["paid"] == 280
    err = error("BO", [{"seat": 1, "bet": 100, "actions": [{"double": 40}]}],
                ["5H", "9D", "6S", "9C", "8C"])
    assert "same amount" in err["reason"]
    same = settle("BO", [{"seat": 1, "bet": 100, "actions": [{"double": 100}]}],
                  ["5H", "9D", "6S", "9C", "8C"])
    assert one(same)["stake"] == 200


def test_no_card_on_21_and_no_decision_after_standing():
    err = error("BO", [{"seat": 1, "bet": 100, "actions": ["hit", "hit"]}],
                ["10H", "9D", "6S", "5C", "8D"])
    assert err["field"] == "boxes[0].actions[1]"
    err = error("BO", [{"seat": 1, "bet": 100, "actions": ["stand", "hit"]}],
                ["10H", "9D", "6S", "5C", "8D"])
    assert err["field"] == "boxes[0].actions[1]" and "every hand had finished" in err["reason"]


def test_a_blackjack_takes_no_decision():
    err = error("BO", [{"seat": 1, "bet": 100, "actions": ["hit"]}], ["AH", "9D", "KS", "8C"])
    assert err["field"] == "boxes[0].actions[0]" and "blackjack" in err["reason"]


@pytest.mark.parametrize("profile,soft17_draws", [("BO", False), ("CL-ARICA", True),
                                                  ("LIVE-GG", False)])
def test_dealer_soft_17(profile, soft17_draws):
    boxes = [{"seat": 1, "bet": 100, "actions": ["stand"]}]
    base = ["10H", "6D", "8S", "AC"]            # player 18; dealer 6 + A = soft 17
    if soft17_draws:
        out = settle(profile, boxes, base + ["3C"])           # soft 17 draws: 3 → 20
        assert out["dealer_hands"][0]["total"] == "soft 20" and one(out)["outcome"] == "lose"
        err = error(profile, boxes, base)
        assert err["field"] == "cards"
    else:
        out = settle(profile, boxes, base)
        assert one(out)["outcome"] == "win"
        err = error(profile, boxes, base + ["3C"])
        assert err["field"] == "cards[4]" and "left over" in err["reason"]


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_surrender_returns_half_not_against_an_ace(profile):
    # BO's dealer may still complete his hand; CL's takes no card (nothing left to decide)
    out = settle(profile, [{"seat": 1, "bet": 25, "actions": ["surrender"]}],
                 ["10H", "10D", "6S"] + (["7C"] if profile == "BO" else []))
    bet = one(out)
    assert (bet["outcome"], bet["paid"]) == ("half_back", 12)   # half of 25, rounded down
    err = error(profile, [{"seat": 1, "bet": 25, "actions": ["surrender"]}],
                ["10H", "AD", "6S", "7C"])
    assert err["field"] == "boxes[0].actions[0]" and "as" in err["reason"]


def test_cl_surrender_carries_the_a8_note_and_the_literal_reading_switch():
    out = settle("CL-ARICA", [{"seat": 1, "bet": 100, "actions": ["surrender"]}],
                 ["10H", "10D", "6S"])
    assert "A-8" in one(out)["rule_note"]
    out = settle("CL-ARICA", [{"seat": 1, "bet": 100, "actions": ["surrender"]}],
                 ["10H", "AD", "6S"], switches={"bj_surrender": "vs_ace_only"})
    assert one(out)["paid"] == 50
    err = error("CL-ARICA", [{"seat": 1, "bet": 100, "actions": ["surrender"]}],
                ["10H", "10D", "6S", "7C"], switches={"bj_surrender": "vs_ace_only"})
    assert "only against" in err["reason"]


def test_surrender_only_on_the_first_two_cards_and_not_live():
    err = error("BO", [{"seat": 1, "bet": 100, "actions": ["hit", "surrender"]}],
                ["10H", "10D", "2S", "3C", "7C"])
    assert err["field"] == "boxes[0].actions[1]"
    err = error("LIVE-GG", [{"seat": 1, "bet": 100, "actions": ["surrender"]}],
                ["10H", "10D", "6S", "7C"])
    assert "no surrender" in err["reason"]


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_insurance_up_to_half_pays_two_to_one(profile):
    boxes = [{"seat": 1, "bet": 100, "insurance": 50, "actions": ["stand"]}]
    won = settle(profile, boxes, ["10H", "AD", "9S", "KC"])
    assert (one(won, "insurance")["paid"], one(won)["outcome"]) == (150, "lose")
    lost = settle(profile, boxes, ["10H", "AD", "9S", "7C"])
    assert one(lost, "insurance")["paid"] == 0 and one(lost)["outcome"] == "win"
    err = error(profile, [{"seat": 1, "bet": 100, "insurance": 51}], ["10H", "AD", "9S", "KC"])
    assert err["field"] == "boxes[0].insurance" and "half" in err["reason"]


def test_insurance_only_against_an_ace():
    err = error("BO", [{"seat": 1, "bet": 100, "insurance": 50}], ["10H", "KD", "9S", "7C"])
    assert err["field"] == "boxes[0].insurance" and "ace" in err["reason"]


def test_live_insurance_is_exactly_half_and_lost_at_the_peek():
    err = error("LIVE-GG", [{"seat": 1, "bet": 101, "insurance": 40}],
                ["10H", "AD", "9S", "7C"])
    assert "exactly half" in err["reason"] and "50" in err["reason"]
    out = settle("LIVE-GG", [{"seat": 1, "bet": 101, "insurance": 50, "actions": ["stand"]}],
                 ["10H", "AD", "9S", "7C"])
    assert one(out, "insurance")["outcome"] == "lose" and one(out)["outcome"] == "win"


def test_even_money_bo_cl_not_live():
    out = settle("BO", [{"seat": 1, "bet": 100, "even_money": True}], ["AH", "AD", "KS", "KC"])
    assert (one(out)["paid"], one(out)["outcome"]) == (200, "win")
    assert "§2.1.5.3 a" in one(out)["rule"]
    err = error("LIVE-GG", [{"seat": 1, "bet": 100, "even_money": True}],
                ["AH", "AD", "KS", "7C"])
    assert err["field"] == "boxes[0].even_money"
    err = error("BO", [{"seat": 1, "bet": 100, "even_money": True}], ["9H", "AD", "KS", "7C"])
    assert "only to a blackjack" in err["reason"]
    err = error("CL-ARICA", [{"seat": 1, "bet": 100, "even_money": True, "insurance": 50}],
                ["AH", "AD", "KS", "7C"])
    assert err["field"] == "boxes[0].insurance" and "exclude" in err["reason"]


def test_blackjack_against_an_ace_waits_then_wins_three_to_two():
    out = settle("CL-ARICA", [{"seat": 1, "bet": 1000}], ["AH", "AD", "KS", "7C"])
    assert one(out)["paid"] == 2500


def test_explain_names_each_card_totals_decisions_and_rules():
    lines = explain("BO", [{"seat": 1, "bet": 100, "actions": ["hit", "stand"]}],
                    ["10H", "6D", "2S", "5C", "10C", "3D"])
    text = "\n".join(lines)
    assert "cards[0] 10H → seat 1 hand 1 (first card): 10" in text
    assert "cards[3] 5C → seat 1 hand 1 (hit): 17" in text
    assert "hit on 12 — allowed" in text
    assert "stands on all 17" in text and "seed 002 §2.1.5.3 a" in text
    assert "cards[4] 10C → dealer: 16" in text and "cards[5] 3D → dealer: 19" in text
    assert "player 17 vs dealer 19" in text
    assert lines[-1] == "Totals: staked 100, paid 0, house win 100"


def test_live_split_aces_one_card_by_default_played_on_when_the_casino_allows():
    boxes = [{"seat": 1, "bet": 100, "actions": ["split", "hit", "stand", "stand"]}]
    cards = ["AH", "9D", "AS", "7C", "5C", "6D", "4S", "10S"]   # hole 7C; A+5, A+6 at once
    err = error("LIVE-GG", boxes, cards)
    assert err["field"] == "boxes[0].actions[1]" and "one card" in err["reason"]
    out = settle("LIVE-GG", boxes, cards, switches={"bj_split_aces": "normal"})
    assert [h["cards"] for h in sorted(out["hands"], key=lambda h: h["hand"])] == \
        [["AH", "5C", "4S"], ["AS", "6D"]]


def _hands(out):
    return [h["cards"] for h in sorted(out["hands"], key=lambda h: h["hand"])]


def test_split_deal_order_switch():
    # BO default: the second split hand gets its card after the first is played
    cards = ["8H", "9D", "8S", "3C", "5C", "4D", "10S"]
    boxes = [{"seat": 1, "bet": 10, "actions": ["split", "hit", "stand", "stand"]}]
    seq = settle("BO", boxes, cards)
    both = settle("BO", boxes, cards, switches={"bj_split_deal": "both_at_once"})
    assert _hands(seq) == [["8H", "3C", "5C"], ["8S", "4D"]]
    assert _hands(both) == [["8H", "3C", "4D"], ["8S", "5C"]]


def test_live_shoe_holds_eight_decks_by_default():
    err = error("LIVE-GG", [{"seat": 1, "bet": 100}], ["KS"] * 9)
    assert "8-deck" in err["reason"]
    err = error("LIVE-GG", [{"seat": 1, "bet": 100}], ["KS"] * 7,
                switches={"bj_decks": "6"})
    assert "6-deck" in err["reason"]

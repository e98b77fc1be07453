"""Progressive side bet: both pay tables (C-37) and the multiple-winner rules 1–5."""
from __future__ import annotations

import pytest

from services.rules.core.errors import RulesError
from services.rules.core.profiles import get_profile
from services.rules.poker import HandClass as H
from services.rules.poker import Winner, progressive_award, qualifying, split_pool
from tests.rules.poker.conftest import settle

BO, CL = get_profile("BO"), get_profile("CL-ARICA")


@pytest.mark.parametrize("cls, units, amount", [
    (H.FLUSH, 2, 50 * 2 * 500), (H.FULL_HOUSE, 1, 100 * 500), (H.FOUR_OF_A_KIND, 3, 500 * 3 * 500),
])
def test_bo_fixed_prizes_are_multiples_of_the_bet(cls, units, amount):
    award = progressive_award(BO, cls, units, pool_amount=10_000_000, unit_value=500)
    assert (award.amount, award.kind, str(award.rule)) == (amount, "fixed", "seed 000 §2.5.6.2")


@pytest.mark.parametrize("cls, each", [(H.STRAIGHT, 20_000), (H.FLUSH, 25_000),
                                       (H.FULL_HOUSE, 40_000), (H.FOUR_OF_A_KIND, 100_000)])
def test_cl_fixed_prizes_are_amounts_per_credit(cls, each):
    award = progressive_award(CL, cls, 3, pool_amount=5_000_000, unit_value=1_000)
    assert award.amount == 3 * each and str(award.rule) == "seed 004 III §6.6"


def test_qualifying_hands_per_profile_and_a26_straight_switch():
    assert not qualifying(BO, H.STRAIGHT) and qualifying(CL, H.STRAIGHT)
    assert not qualifying(get_profile("CL-ARICA", {"progressive_straight": "does_not_qualify"}),
                          H.STRAIGHT)
    for p in (BO, CL):
        assert not qualifying(p, H.THREE_OF_A_KIND)
        assert all(qualifying(p, c) for c in (H.FLUSH, H.FULL_HOUSE, H.FOUR_OF_A_KIND,
                                              H.STRAIGHT_FLUSH, H.ROYAL_FLUSH))


def test_straight_flush_is_ten_percent_capped_at_5000_times_in_bo_only():
    small = progressive_award(BO, H.STRAIGHT_FLUSH, 1, pool_amount=1_000_000, unit_value=100)
    assert small.amount == 100_000 and small.rule.note is None
    capped = progressive_award(BO, H.STRAIGHT_FLUSH, 1, pool_amount=100_000_000, unit_value=100)
    assert capped.amount == 5000 * 100 and "A-25" in (capped.rule.note or "")
    uncapped = progressive_award(CL, H.STRAIGHT_FLUSH, 1, pool_amount=100_000_000, unit_value=100)
    assert uncapped.amount == 10_000_000


def test_royal_takes_the_whole_main_pool_and_the_stake_is_not_added():
    award = progressive_award(BO, H.ROYAL_FLUSH, 5, pool_amount=1_234_567, unit_value=100)
    assert award.amount == 1_234_567


def test_rule_3_equal_shares_with_indivisible_remainder_to_the_seat_nearest_1():
    split = split_pool(BO, [Winner(5, H.ROYAL_FLUSH, 1), Winner(2, H.ROYAL_FLUSH, 1),
                            Winner(4, H.ROYAL_FLUSH, 1)], 1_000_001, 100)
    by_seat = {a.winner.seat: a.amount for a in split.awards}
    assert by_seat == {2: 333_335, 4: 333_333, 5: 333_333}
    assert split.paid == 1_000_001 and split.pool_after == 0


def test_a24_switch_one_unit_each_from_seat_1():
    p = get_profile("BO", {"progressive_remainder": "one_each_from_seat_1"})
    split = split_pool(p, [Winner(s, H.ROYAL_FLUSH, 1) for s in (1, 3, 4, 6)], 1_000_003, 100)
    assert [a.amount for a in split.awards] == [250_001, 250_001, 250_001, 250_000]


def test_rules_4_and_5_fixed_first_then_sf_ten_percent_then_royal_on_the_rest():
    split = split_pool(BO, [Winner(6, H.ROYAL_FLUSH, 1), Winner(3, H.STRAIGHT_FLUSH, 1),
                            Winner(1, H.FLUSH, 2), Winner(2, H.FULL_HOUSE, 1)], 2_000_000, 100)
    kinds = [(a.winner.seat, a.kind, a.amount) for a in split.awards]
    # rule 1: paid lowest to highest; fixed: flush 50×200, full 100×100 = 20,000
    assert kinds == [(1, "fixed", 10_000), (2, "fixed", 10_000),
                     (3, "pool_share", 198_000), (6, "pool_share", 1_782_000)]
    assert split.pool_after == 0 and split.shortfall == 0


def test_a25_royal_base_after_a_capped_straight_flush():
    winners = [Winner(1, H.STRAIGHT_FLUSH, 1), Winner(2, H.ROYAL_FLUSH, 1)]
    default = split_pool(BO, winners, 100_000_000, 100)          # SF capped at 500,000
    assert [a.amount for a in default.awards] == [500_000, 99_500_000]
    literal = split_pool(get_profile("BO", {"progressive_royal_base": "ninety_percent"}),
                         winners, 100_000_000, 100)
    assert [a.amount for a in literal.awards] == [500_000, 90_000_000]
    assert literal.pool_after == 9_500_000


def test_fixed_prizes_beyond_the_pool_report_a_shortfall_and_never_a_negative_pool():
    split = split_pool(CL, [Winner(1, H.FOUR_OF_A_KIND, 1), Winner(2, H.STRAIGHT_FLUSH, 1)],
                       50_000, 1_000)
    assert split.shortfall == 50_000 and split.pool_after == 0
    assert [a.amount for a in split.awards] == [100_000, 0]


def test_non_qualifying_hands_get_nothing():
    split = split_pool(BO, [Winner(1, H.STRAIGHT, 1)], 1_000, 100)
    assert split.awards[0].amount == 0 and split.awards[0].kind == "none"


@pytest.mark.parametrize("winners, pool, unit, field", [
    ([Winner(1, H.FLUSH, 0)], 100, 1, "winners[0].bet_units"),
    ([Winner(1, H.FLUSH, 1), Winner(1, H.FULL_HOUSE, 1)], 100, 1, "winners[1].seat"),
    ([Winner(1, H.FLUSH, 1)], -1, 1, "pool"),
    ([Winner(1, H.FLUSH, 1)], 100, 0, "unit_value"),
])
def test_bad_split_input_names_the_field(winners, pool, unit, field):
    with pytest.raises(RulesError) as err:
        split_pool(BO, winners, pool, unit)
    assert err.value.field == field


def test_settlement_reports_progressive_classes_and_awards_from_the_pool():
    r = settle("BO", "caribbean", "AS KD 7C 5H 2D",
               [{"seat": 1, "cards": "2H 6H 9H JH KH", "ante": 100, "bet": 200, "progressive": 1},
                {"seat": 2, "cards": "QS QD QC 9D 3D", "ante": 100, "bet": 200, "progressive": 1},
                {"seat": 3, "cards": "2C 3C 4C 5C 6C", "ante": 100, "fold": True,
                 "progressive": 1}],
               progressive={"pool": 1_000_000, "unit_value": 100})
    rows = {row["seat"]: row for row in r["progressive"]["seats"]}
    assert (rows[1]["status"], rows[1]["award"]) == ("winner", 5_000)
    assert rows[2]["status"] == "no_prize" and "award" not in rows[2]
    assert rows[3]["status"] == "forfeited"          # «no ir» loses the side bet (§2.5.5.1)
    assert r["progressive"]["pool"]["pool_after"] == 995_000


def test_draw_player_who_changes_cards_leaves_the_progressive():
    r = settle("BO", "draw", "8S 8D AC 5H 2D",
               [{"seat": 1, "cards": "2H 6H 9H JH KH", "ante": 100, "bet": 200, "progressive": 1,
                 "discarded": ["3C"]}])
    assert r["progressive"]["seats"][0]["status"] == "forfeited"


def test_four_argument_call_takes_the_bet_in_minor_units():
    assert progressive_award(BO, H.FULL_HOUSE, 700, 10_000_000).amount == 70_000


def test_cl_dealer_checks_progressive_hands_even_when_he_does_not_open():
    r = settle("CL-ARICA", "arica", "AS QD 7C 5H 2D",
               [{"seat": 2, "cards": "2H 6H 9H JH KH", "ante": 1000, "bet": 2000,
                 "progressive": 2}],
               progressive={"pool": 3_000_000, "unit_value": 1000})
    assert r["dealer"]["qualifies"] is False
    row = r["progressive"]["seats"][0]
    assert (row["status"], row["award"], row["rule"]) == ("winner", 50_000, "seed 004 III §6.6")

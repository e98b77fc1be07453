"""Core money: one rounding, from the profile; seed 003's example rounds the fraction down.

Seed 003 (general terms, «Nota: los jugadores no recibirán fracciones de céntimo ...»): the
words say "al céntimo más cercano", the example «si gana $4.096, recibirá $4.09» truncates;
domain.md A-37 settles on the example (round down).
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from services.rules.api import settle_request
from services.rules.core.errors import RulesError
from services.rules.core.money import Rounding, apply_fraction, parse_amount, pay_ratio
from services.rules.core.profiles import PROFILES, get_profile


def test_seed_003_example_4_096_dollars_is_paid_4_09():
    # $4.096 = 409.6 cents: the player gets 409 cents, not the nearest 410
    assert Rounding.DOWN.apply(Fraction(4096, 10)) == 409
    assert Rounding.HALF_UP.apply(Fraction(4096, 10)) == 410


def test_live_profile_rounds_down_by_default_and_every_profile_has_a_rounding():
    assert get_profile("LIVE-GG").rounding is Rounding.DOWN
    for profile_id in PROFILES:  # no profile is silent on rounding: every payout needs one
        assert isinstance(get_profile(profile_id).rounding, Rounding)
    assert get_profile("LIVE-GG", {"rounding": "half_up"}).rounding is Rounding.HALF_UP


@pytest.mark.parametrize("value,down,half_up", [
    (Fraction(0), 0, 0), (Fraction(1, 2), 0, 1), (Fraction(99, 100), 0, 1),
    (Fraction(409999, 1000), 409, 410), (Fraction(375, 10), 37, 38), (Fraction(5), 5, 5),
    (Fraction(-375, 10), -37, -38),  # symmetric: never rounds a debt up for the house
])
def test_rounding_table(value, down, half_up):
    assert (Rounding.DOWN.apply(value), Rounding.HALF_UP.apply(value)) == (down, half_up)


def test_pay_ratio_and_commission_round_once():
    assert pay_ratio(25, 3, 2) == 37                      # 3:2 on 0.25 → 0.375 → 0.37
    assert pay_ratio(25, 3, 2, Rounding.HALF_UP) == 38
    assert apply_fraction(1999, Fraction(95, 100), Rounding.DOWN) == 1899  # 18.9905 → 18.99


def test_live_settlement_end_to_end_truncates_the_fraction_of_a_cent():
    # LIVE-GG blackjack 3:2 on 25 cents = 37.5 cents of winnings: 37 paid (seed 003 rounding)
    request = {"game": "blackjack", "profile": "LIVE-GG", "variant": "classic",
               "boxes": [{"seat": 1, "bet": 25}], "cards": ["AS", "9D", "KH", "8C"]}
    out = settle_request(request)
    assert out["ok"], out
    assert out["bets"][0]["paid"] == 25 + 37
    half_up = settle_request({**request, "switches": {"rounding": "half_up"}})
    assert half_up["bets"][0]["paid"] == 25 + 38


@pytest.mark.parametrize("raw,words", [
    (-1, "negative"), (12.5, "fractional minor units"), ("12.5", "fractional minor units"),
    (True, "integer amount"), (None, "integer amount"), ("abc", "not a number"),
    (0, "greater than zero"), ([5], "integer amount"),
])
def test_bad_amounts_name_the_field_and_reason(raw, words):
    with pytest.raises(RulesError) as err:
        parse_amount(raw, "bets[0].amount")
    assert err.value.errors[0].field == "bets[0].amount" and words in err.value.errors[0].reason


def test_integral_amounts_are_accepted():
    assert parse_amount(500, "a") == 500 and parse_amount("500", "a") == 500
    assert parse_amount(500.0, "a") == 500 and parse_amount(0, "a", allow_zero=True) == 0


@pytest.mark.parametrize("request_,field,section", [
    ({"game": "roulette", "bets": [{"kind": "red", "amount": 6000}], "outcome": {"pocket": "1"}},
     "bets[0].amount", "Rul §2.1.5"),
    ({"game": "baccarat", "variant": "live", "bets": [{"kind": "banker", "amount": 6000}],
      "cards": ["9H", "KS", "3C", "5D", "8S"]}, "bets[0].amount", "Bac §2.1.7"),
    ({"game": "blackjack", "variant": "classic", "boxes": [{"seat": 1, "bet": 6000}],
      "cards": ["10H", "9S", "10D", "8C"]}, "boxes[0].bet", "BJ §2.1.4"),
])
def test_live_over_max_is_rejected_citing_the_games_own_section(request_, field, section):
    # seed 003 prints «Una apuesta puede ser rechazada ... apuesta mínima o máxima» per game
    out = settle_request({**request_, "profile": "LIVE-GG",
                          "limits": {"minimum": 100, "maximum": 5000}})
    assert out["ok"] is False
    assert out["errors"][0]["field"] == field
    assert f"seed 003 {section}" in out["errors"][0]["reason"]

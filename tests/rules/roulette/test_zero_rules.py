"""Even chances when zero comes out: half back / prison (BO), all lose (AR, CL 0 and 00)."""
from __future__ import annotations

import pytest

from services.rules.core.errors import RulesError
from services.rules.core.profiles import get_profile
from services.rules.core.results import Outcome
from services.rules.roulette import RouletteBet, settle_bets

BO = get_profile("BO")


def one(profile, bet, pocket, wheel="european"):
    return settle_bets(profile, wheel, [bet], pocket)[0]


def test_bo_default_half_back_rounds_the_odd_minor_unit_down():
    r = one(BO, RouletteBet("low", 1001), "0")
    assert (r.outcome, r.paid) == (Outcome.HALF_BACK, 500)
    assert str(r.rule) == "seed 000 §4.1.4.2 item 11"


def test_bo_prison_keeps_the_stake_on_the_layout():
    r = one(BO, RouletteBet("black", 700, zero_option="prison"), "0")
    assert (r.outcome, r.paid, r.extra["imprisoned_stake"]) == (Outcome.PRISON, 0, 700)


@pytest.mark.parametrize("pocket,outcome,paid", [("2", Outcome.PUSH, 700),   # black wins
                                                 ("1", Outcome.LOSE, 0),     # red
                                                 ("0", Outcome.LOSE, 0)])    # zero again
def test_bo_second_spin_of_an_imprisoned_stake(pocket, outcome, paid):
    r = one(BO, RouletteBet("black", 700, imprisoned=True), pocket)
    assert (r.outcome, r.paid) == (outcome, paid)


def test_prison_switch_makes_prison_the_default():
    r = one(BO.with_switches({"roulette_zero_even_chance": "prison"}), RouletteBet("odd", 10), "0")
    assert r.outcome is Outcome.PRISON


def test_multiple_bets_not_covering_zero_lose_on_zero():
    r = one(BO, RouletteBet("dozen", 100, index=1), "0")
    assert (r.outcome, r.paid) == (Outcome.LOSE, 0)


@pytest.mark.parametrize("profile_id,wheel,pocket", [("AR-RUL", "european", "0"),
                                                     ("CL-ARICA", "american", "0"),
                                                     ("CL-ARICA", "american", "00"),
                                                     ("LIVE-GG", "european", "0")])
def test_even_chances_lose_everything_on_zero(profile_id, wheel, pocket):
    r = one(get_profile(profile_id), RouletteBet("red", 100), pocket, wheel)
    assert (r.outcome, r.paid) == (Outcome.LOSE, 0)


def test_ar_has_no_zero_option_and_no_prison():
    ar = get_profile("AR-RUL")
    with pytest.raises(RulesError) as err:
        one(ar, RouletteBet("red", 100, zero_option="prison"), "0")
    assert err.value.field == "bets[0].zero_option"
    with pytest.raises(RulesError) as err:
        one(ar, RouletteBet("red", 100, imprisoned=True), "5")
    assert err.value.field == "bets[0].imprisoned"


def test_only_even_chances_take_a_zero_option_or_go_to_prison():
    with pytest.raises(RulesError) as err:
        one(BO, RouletteBet("dozen", 100, index=1, zero_option="half_back"), "0")
    assert err.value.field == "bets[0].zero_option"
    with pytest.raises(RulesError) as err:
        one(BO, RouletteBet("straight", 100, ("5",), imprisoned=True), "5")
    assert err.value.field == "bets[0].imprisoned"
    with pytest.raises(RulesError) as err:
        one(BO, RouletteBet("red", 100, zero_option="keep"), "0")
    assert "half_back" in err.value.reason

"""Over- and under-limit stakes per profile (domain.md §1.2, conflicts C-1, C-2)."""
from __future__ import annotations

from typing import Any

import pytest

from services.rules.core.errors import RulesError
from services.rules.core.limits import TableLimits
from services.rules.core.profiles import get_profile
from services.rules.core.results import Outcome
from services.rules.roulette import RouletteBet, settle_bets

LIM = TableLimits(100, 2000)


def one(profile_id, bet, pocket, limits=LIM, wheel="european"):
    return settle_bets(get_profile(profile_id), wheel, [bet], pocket, limits)[0]


@pytest.mark.parametrize("profile_id,wheel", [("BO", "european"), ("CL-ARICA", "american")])
def test_bo_cl_over_max_win_paid_to_the_limit_and_excess_returned(profile_id, wheel):
    r = one(profile_id, RouletteBet("straight", 5000, ("17",)), "17", wheel=wheel)
    assert (r.paid, r.excess_returned) == (2000 * 36 + 3000, 3000)


@pytest.mark.parametrize("profile_id,wheel", [("BO", "european"), ("CL-ARICA", "american")])
def test_bo_cl_over_max_loss_returns_the_excess(profile_id, wheel):
    r = one(profile_id, RouletteBet("red", 5000), "2", wheel=wheel)
    assert (r.outcome, r.paid, r.excess_returned) == (Outcome.LOSE, 3000, 3000)


def test_under_minimum_is_settled_on_the_actual_stake_and_flagged():
    r = one("BO", RouletteBet("split", 50, ("1", "2")), "2")
    assert r.paid == 50 * 18 and r.extra["under_minimum"] is True


def test_ar_straight_excess_cascades_split_street_corner_line_then_returned():
    # 10000 on 17, max 2000 per kind: 2000 plays straight (35:1), then 2000 split (17:1),
    # 2000 street (11:1), 2000 corner (8:1), 2000 line (5:1); nothing left to return.
    r = one("AR-RUL", RouletteBet("straight", 10000, ("17",)), "17")
    assert r.paid == 2000 * (36 + 18 + 12 + 9 + 6)
    assert [c["kind"] for c in r.extra["cascade"]] == ["split", "street", "corner", "six_line"]
    r = one("AR-RUL", RouletteBet("straight", 12345, ("17",)), "17")
    assert (r.paid, r.excess_returned) == (2000 * 81 + 2345, 2345)


def test_ar_cascade_starts_below_the_bet_and_uses_per_kind_maxima():
    limits = {k: TableLimits(10, m) for k, m in
              (("split", 1000), ("street", 300), ("corner", 200), ("six_line", 100))}
    r = one("AR-RUL", RouletteBet("split", 1700, ("17", "20")), "20", limits)
    assert r.paid == 1000 * 18 + 300 * 12 + 200 * 9 + 100 * 6 + 100
    assert r.excess_returned == 100


def test_ar_losing_over_max_forfeits_everything():
    r = one("AR-RUL", RouletteBet("straight", 5000, ("17",)), "18")
    assert (r.paid, r.excess_returned) == (0, 0)


def test_ar_chance_over_max_paid_to_max_excess_returned():
    r = one("AR-RUL", RouletteBet("red", 5000), "1")
    assert (r.paid, r.excess_returned) == (4000 + 3000, 3000)


def test_ar_excess_noticed_before_the_result_is_returned_even_on_a_loss():
    r = one("AR-RUL", RouletteBet("straight", 5000, ("17",), noticed_before_result=True), "18")
    assert (r.paid, r.excess_returned) == (3000, 3000)


def test_ar_a_caballo_on_two_chances_may_stake_twice_the_maximum():
    r = one("AR-RUL", RouletteBet("two_dozens", 4000, index=1), "5")
    assert (r.paid, r.excess_returned) == (6000, 0)
    r = one("AR-RUL", RouletteBet("two_dozens", 4000, index=1),
            "5", {"dozen": TableLimits(100, 2000)})
    assert r.paid == 6000


def test_live_rejects_a_stake_outside_the_limits():
    with pytest.raises(RulesError) as err:
        one("LIVE-GG", RouletteBet("straight", 5000, ("17",)), "17")
    assert err.value.field == "bets[0].amount" and "Rul §2.1.5" in err.value.reason


def test_per_kind_limits_must_cover_the_kinds_bet():
    with pytest.raises(RulesError) as err:
        one("BO", RouletteBet("red", 100), "1", {"straight": LIM})
    assert err.value.field == "limits.red"  # the request field to fix, not a bet field


def test_ar_unnoticed_excess_follows_the_bet_into_prison():
    ar = get_profile("AR-RUL", {"roulette_zero_even_chance": "prison"})
    r = settle_bets(ar, "european", [RouletteBet("red", 5000)], "0", LIM)[0]
    assert (r.outcome, r.paid, r.extra["imprisoned_stake"]) == (Outcome.PRISON, 0, 5000)
    r = settle_bets(ar, "european", [RouletteBet("red", 5000, noticed_before_result=True)],
                    "0", LIM)[0]
    assert (r.paid, r.excess_returned, r.extra["imprisoned_stake"]) == (3000, 3000, 2000)


def test_per_kind_limits_take_a_default_for_the_kinds_not_listed():
    # AR «para cada suerte o chance»: a straight max of 1000, every other kind 5000 by default;
    # the cascade levels (split, street) use the default (seed 001 cascade)
    from services.rules.api import settle_request
    request: dict[str, Any] = {
        "game": "roulette", "profile": "AR-RUL", "outcome": {"pocket": "5"},
        "bets": [{"kind": "straight", "numbers": ["5"], "amount": 10000}],
        "limits": {"straight": {"minimum": 10, "maximum": 1000},
                   "default": {"minimum": 10, "maximum": 5000}}}
    bet = settle_request(request)["bets"][0]
    assert [(c["kind"], c["stake"]) for c in bet["cascade"]] == [("split", 5000), ("street", 4000)]
    assert bet["paid"] == 1000 * 36 + 5000 * 18 + 4000 * 12
    without = settle_request({**request, "limits": {"straight": request["limits"]["straight"]}})
    assert without["ok"] is False and without["errors"][0]["field"] == "limits.split"
    assert "limits.default" in without["errors"][0]["reason"]

"""Every craps bet against all 36 dice outcomes, in every point state, both profiles,
compared with the independent reading of the seeds in oracle.py."""
from __future__ import annotations

import pytest

from tests.rules.craps.oracle import ONE_ROLL_WINS, POINTS, ROLLS, by_id, expect, ok, paid, pay

AMOUNT = 3300  # divisible by 5, 6, 11 and 3: most ratios come out exact, the rest truncate


def layout(profile: str, point: int | None) -> list[dict]:
    """Every bet that can stand on the layout with the table at `point`."""
    bets = [{"id": k, "kind": k, "amount": AMOUNT} for k in ONE_ROLL_WINS
            if profile == "BO" or not k.startswith("craps_")]
    bets += [{"id": k, "kind": k, "amount": AMOUNT} for k in ("big_6", "big_8", "pass_line",
                                                             "dont_pass")]
    for n in POINTS:
        bets += [{"id": f"{k}{n}", "kind": k, "number": n, "amount": AMOUNT}
                 for k in ("place", "place_to_lose", "come", "dont_come")]
        bets += [{"id": f"odds{n}", "kind": "odds", "on": f"come{n}", "amount": AMOUNT},
                 {"id": f"dont_odds{n}", "kind": "dont_odds", "on": f"dont_come{n}",
                  "amount": AMOUNT}]
    bets += [{"id": f"hard{n}", "kind": "hardway", "number": n, "amount": AMOUNT}
             for n in (4, 6, 8, 10)]
    if point is not None:  # a new come bet is made only with the point on
        bets += [{"id": "come", "kind": "come", "amount": AMOUNT},
                 {"id": "dont_come", "kind": "dont_come", "amount": AMOUNT},
                 {"id": "pass_odds", "kind": "odds", "on": "pass_line", "amount": AMOUNT},
                 {"id": "dont_pass_odds", "kind": "dont_odds", "on": "dont_pass",
                  "amount": AMOUNT}]
    return bets


def number_of(bet: dict, point: int | None, bets: dict[str, dict]) -> int | None:
    """The number a bet is on: odds take their line bet's, the pass line the table's."""
    if bet["kind"] in ("odds", "dont_odds"):
        return number_of(bets[bet["on"]], point, bets)
    if bet["kind"] in ("pass_line", "dont_pass"):
        return point
    return {"big_6": 6, "big_8": 8}.get(bet["kind"], bet.get("number"))


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
@pytest.mark.parametrize("point", [None, *POINTS])
def test_every_bet_against_every_roll(profile, point):
    bets = layout(profile, point)
    named = {b["id"]: b for b in bets}
    hard_on = profile == "BO"  # CL: hardways are off with no point (seed 004 IV §1.5)
    for die1, die2 in ROLLS:
        out = ok(profile, point=point, bets=bets, rolls=[[die1, die2]])
        results = by_id(out)
        travelled = out["rolls"][0]["travelled"]
        for bet in bets:
            number = number_of(bet, point, named)
            want, travel = expect(profile, bet["kind"], number, point, die1, die2,
                                  hard_on_come_out=hard_on)
            (got,) = results[bet["id"]]
            where = (profile, point, die1, die2, bet["id"])
            assert got["outcome"] == want, where
            assert got["paid"] == paid(want, AMOUNT, pay(profile, bet["kind"], number,
                                                         die1 + die2)), where
            assert travelled.get(bet["id"]) == travel, where
            assert got["rule"].startswith("seed 00"), where


@pytest.mark.parametrize("point", [None, *POINTS])
def test_point_marker_after_every_roll(point):
    for die1, die2 in ROLLS:
        total = die1 + die2
        out = ok(point=point, bets=[], rolls=[[die1, die2]])
        if point is None:
            want = total if total in POINTS else None
        else:
            want = None if total in (7, point) else point
        assert out["state"]["point"] == want == out["rolls"][0]["point_after"]
        assert out["rolls"][0]["seven_out"] == (point is not None and total == 7)


def test_called_hardway_works_on_the_come_out_in_cl():
    bet = {"id": "h", "kind": "hardway", "number": 6, "amount": 1000, "working": True}
    assert ok("CL-ARICA", bets=[bet], rolls=[[3, 3]])["bets"][0]["paid"] == 10000
    assert ok("CL-ARICA", bets=[{**bet, "working": False}],
              rolls=[[3, 3]])["bets"][0]["outcome"] == "pending"

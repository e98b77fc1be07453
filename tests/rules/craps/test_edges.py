"""Exact house edges, checked against values derived here by hand (true probabilities)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from services.rules.core.profiles import get_profile
from services.rules.craps.edges import MULTI, SINGLE
from services.rules.registry import get_game


def ways(total: int) -> int:
    return 6 - abs(total - 7)


def first(n: int) -> F:
    """P(n before 7)."""
    return F(ways(n), ways(n) + 6)


PASS = F(8, 36) + sum(F(ways(n), 36) * first(n) for n in (4, 5, 6, 8, 9, 10))
DONT_WIN = F(3, 36) + sum(F(ways(n), 36) * (1 - first(n)) for n in (4, 5, 6, 8, 9, 10))
DONT_LOSE = F(8, 36) + sum(F(ways(n), 36) * first(n) for n in (4, 5, 6, 8, 9, 10))

EXPECTED_COMMON = {
    "pass_line": 1 - 2 * PASS, "come": 1 - 2 * PASS,
    "dont_pass": DONT_LOSE - DONT_WIN, "dont_come": DONT_LOSE - DONT_WIN,
    "field": -(F(14, 36) + F(2, 36) * 2 - F(20, 36)),
    "eleven": -(F(2, 36) * 15 - F(34, 36)), "horn": -(F(6, 36) * 4 - F(30, 36)),
    "any_craps": -(F(4, 36) * 7 - F(32, 36)), "under_7": F(6, 36), "over_7": F(6, 36),
    "big_6": 1 - 2 * first(6), "big_8": 1 - 2 * first(8),
    **{f"place {n}": -(first(n) * F(*r) - (1 - first(n)))
       for n, r in {4: (9, 5), 5: (7, 5), 6: (7, 6), 8: (7, 6), 9: (7, 5), 10: (9, 5)}.items()},
    **{f"place_to_lose {n}": -((1 - first(n)) * F(*r) - first(n))
       for n, r in {4: (5, 11), 5: (5, 8), 6: (4, 5), 8: (4, 5), 9: (5, 8), 10: (5, 11)}.items()},
    **{f"{k} {n}": F(0) for k in ("odds", "dont_odds") for n in (4, 5, 6, 8, 9, 10)},
}
HARD = {n: F(1, 6 + ways(n)) for n in (4, 6, 8, 10)}  # P(hard n before 7 or soft n)
EXPECTED = {
    "BO": {**EXPECTED_COMMON, "any_seven": F(0),
           "craps_2": -(F(1, 36) * 30 - F(35, 36)), "craps_12": -(F(1, 36) * 30 - F(35, 36)),
           "craps_3": -(F(2, 36) * 15 - F(34, 36)),
           **{f"hardway {n}": -(HARD[n] * (10 if n in (6, 8) else 8) - (1 - HARD[n]))
              for n in HARD}},
    "CL-ARICA": {**EXPECTED_COMMON, "any_seven": -(F(6, 36) * 4 - F(30, 36)),
                 **{f"hardway {n}": -(HARD[n] * (9 if n in (6, 8) else 7) - (1 - HARD[n]))
                    for n in HARD}},
}


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_every_edge_matches_the_hand_derivation(profile):
    rows = {r.bet: r for r in get_game("craps").edges(get_profile(profile))}
    assert set(rows) == set(EXPECTED[profile])
    for bet, want in EXPECTED[profile].items():
        assert rows[bet].edge == want, bet
        assert isinstance(rows[bet].edge, F)
        fair_odds = bet.startswith(("odds ", "dont_odds "))  # true odds, meant to be fair
        assert rows[bet].fair_by_design == fair_odds
        assert rows[bet].flagged == (want < 0 or (want == 0 and not fair_odds))
        assert rows[bet].method == (SINGLE if bet in ("field", "eleven", "horn", "any_craps",
                                                      "under_7", "over_7", "any_seven",
                                                      "craps_2", "craps_3", "craps_12")
                                    else MULTI)
        assert str(rows[bet].rule).startswith("seed 00")


def test_well_known_values():
    rows = {r.bet: r.edge for r in get_game("craps").edges(get_profile("BO"))}
    assert rows["pass_line"] == F(7, 495) and rows["dont_pass"] == F(3, 220)
    assert rows["place 6"] == F(1, 66) and rows["field"] == F(1, 18)


def test_cl_hardways_off_on_the_come_out_keep_the_same_edge():
    # Off rolls decide nothing, so the edge per bet is unchanged (the chain starts off).
    on = get_profile("CL-ARICA", {"craps_hardways_on_come_out": "working"})
    rows = {r.bet: r.edge for r in get_game("craps").edges(on)}
    assert rows["hardway 6"] == EXPECTED["CL-ARICA"]["hardway 6"]

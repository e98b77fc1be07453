"""Every inside bet the engine accepts, and only those, forms the bet on the layout."""
from __future__ import annotations

from itertools import combinations

import pytest

from services.rules.core.errors import RulesError
from services.rules.core.profiles import get_profile
from services.rules.roulette import WHEELS, RouletteBet, settle_bets
from tests.rules.roulette import oracle

PROFILE = {"european": "BO", "american": "CL-ARICA", "american_single": "CL-ARICA"}


def accepted(wheel: str, kind: str, numbers: tuple[str, ...]) -> bool:
    try:
        settle_bets(get_profile(PROFILE[wheel]), wheel, [RouletteBet(kind, 100, numbers)], "1")
    except RulesError as err:
        assert err.field == "bets[0].numbers", err
        return False
    return True


@pytest.mark.parametrize("wheel", ["european", "american", "american_single"])
@pytest.mark.parametrize("kind,size", [("split", 2), ("street", 3), ("corner", 4)])
def test_exactly_the_layout_groups_are_accepted(wheel, kind, size):
    pockets = oracle.pockets(wheel)
    expected = oracle.groups(wheel, kind)
    got = {frozenset(c) for c in combinations(pockets, size) if accepted(wheel, kind, c)}
    assert got == expected


def test_seed_001_counts_of_each_bet():
    """Seed 001: 60 semiplenos, 14 calles, 23 cuadros, 11 líneas."""
    w = WHEELS["european"]
    assert (len(w.splits), len(w.streets), len(w.corners), len(w.six_lines)) == (60, 14, 23, 11)
    assert len(w.pockets) == 37 and len(WHEELS["american"].pockets) == 38


@pytest.mark.parametrize("wheel", ["european", "american", "american_single"])
def test_six_lines_are_two_adjacent_rows(wheel):
    assert set(WHEELS[wheel].six_lines) == oracle.groups(wheel, "six_line")
    for line in oracle.groups(wheel, "six_line"):
        assert accepted(wheel, "six_line", tuple(sorted(line)))
    # rows 1 and 3 are not adjacent; a line with zero does not exist (seed 001)
    assert not accepted(wheel, "six_line", ("1", "2", "3", "7", "8", "9"))
    assert not accepted(wheel, "six_line", ("0", "1", "2", "3", "4", "5"))


def test_five_number_only_on_the_double_zero_wheel():
    assert accepted("american", "five_number", ("0", "00", "1", "2", "3"))
    with pytest.raises(RulesError) as err:
        settle_bets(get_profile("BO"), "european",
                    [RouletteBet("five_number", 100, ("0", "1", "2", "3", "4"))], "1")
    assert err.value.field == "bets[0].kind"


def test_wheel_orders_hold_every_pocket_once():
    for w in WHEELS.values():
        assert sorted(w.order) == sorted(w.pockets)

"""House edges by enumeration, against closed forms computed here by hand."""
from __future__ import annotations

from fractions import Fraction as F

from services.rules.core.profiles import get_profile
from services.rules.roulette.game import GAME


def table(profile_id, **switches):
    return {(r.variant, r.bet): r for r in GAME.edges(get_profile(profile_id, switches))}


def test_single_zero_edges():
    rows = table("BO")
    assert rows[("european", "straight")].edge == F(1, 37)
    assert rows[("european", "two_dozens")].edge == F(1, 37)
    assert rows[("european", "voisins")].edge == F(1, 37)
    # half back: lose 1/2 unit on zero only -> (1/37)(1/2)
    assert rows[("european, zero: half_back", "red")].edge == F(1, 74)
    # prison: on zero (1/37) the stake comes back only if the second spin wins it (18/37)
    ret = F(18, 37) * 2 + F(1, 37) * F(18, 37)
    assert rows[("european, zero: prison", "red")].edge == 1 - ret == F(19, 1369)
    assert not any(r.flagged for r in rows.values())
    assert all(r.method == "exact enumeration" for r in rows.values())


def test_ar_and_live_even_chances_lose_on_zero():
    assert table("AR-RUL")[("european", "red")].edge == F(1, 37)
    assert table("LIVE-GG")[("european", "low")].edge == F(1, 37)


def test_double_zero_edges_and_the_five_number_bet():
    rows = table("CL-ARICA")
    assert rows[("american", "split")].edge == F(2, 38)
    assert rows[("american", "five_number")].edge == 1 - F(5 * 7, 38) == F(3, 38)


def test_switch_changes_the_edge():
    rows = table("CL-ARICA", roulette_zero_even_chance="half_back")
    # 0 and 00 each give half back: (2/38)(1/2)
    assert rows[("american, zero: half_back", "black")].edge == F(1, 38)


def test_cl_single_zero_table_edges():
    # seed 004 II §1.5 lays out «la ruleta americana con un cero»: 37 pockets, no five-number
    rows = table("CL-ARICA")
    single = {bet: r for (variant, bet), r in rows.items() if variant == "american_single"}
    assert single and all(r.edge == F(1, 37) for r in single.values())
    assert "five_number" not in single  # no 0-00-1-2-3 spot without a 00
    assert "prints only the double-zero one" in single["straight"].rule.note

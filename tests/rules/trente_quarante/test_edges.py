"""House edges: exact in the infinite-shoe model, checked against an independent derivation;
the finite-shoe simulation is checked against the exact model within its interval."""
from __future__ import annotations

from fractions import Fraction as F

from services.rules.core.profiles import get_profile
from services.rules.registry import get_game
from services.rules.trente_quarante.edges import METHOD, simulate_shoe


def row_totals() -> dict[int, F]:
    """Forward iteration of the running-total distribution (a different algorithm from the
    engine's recursion): P(a row ends on each total)."""
    p = {v: F(4 if v == 10 else 1, 13) for v in range(1, 11)}
    running: dict[int, F] = {0: F(1)}
    final: dict[int, F] = {}
    while running:
        nxt: dict[int, F] = {}
        for total, q in running.items():
            for v, pv in p.items():
                target = final if total + v >= 31 else nxt
                target[total + v] = target.get(total + v, F(0)) + q * pv
        running = nxt
    return final


FINAL = row_totals()
P_REFAIT = FINAL[31] ** 2
P_TIE = sum(q * q for q in FINAL.values())          # every tie, 31 included
P_WIN = (1 - P_TIE) / 2                              # rows are symmetric; colour is 1/2
V_PRISON = P_WIN / (1 - (P_TIE - P_REFAIT))          # waits through neutral ties
V_INSURED = (P_WIN + P_REFAIT / 2 - F(1, 100)) / (1 - (P_TIE - P_REFAIT))


def test_row_law_is_a_distribution_over_31_to_40():
    assert set(FINAL) == set(range(31, 41)) and sum(FINAL.values()) == 1


def test_edges_match_the_independent_derivation_for_every_bet_and_option():
    rows = {r.bet: r for r in get_game("trente_quarante").edges(get_profile("BO"))}
    assert len(rows) == 12
    for kind in ("rojo", "negro", "color", "inverso"):
        assert rows[f"{kind} — 31 tie: surrender half"].edge == P_REFAIT / 2
        assert rows[f"{kind} — 31 tie: prison"].edge == P_REFAIT * (1 - V_PRISON)
        assert rows[f"{kind} — 31 tie: prison, insured 1 %"].edge == P_REFAIT * (1 - V_INSURED)
    for row in rows.values():
        assert isinstance(row.edge, F) and row.method == METHOD and not row.flagged
        assert str(row.rule) == "seed 000 §2.4.5.2"
    assert round(float(P_REFAIT), 5) == 0.02192      # the classical ~2.19 % refait


def test_color_reading_does_not_change_the_edge():
    game = get_game("trente_quarante")
    a = [r.edge for r in game.edges(get_profile("BO"))]
    b = [r.edge for r in game.edges(get_profile("BO", {"tq_color_card": "first_row"}))]
    assert a == b


def test_finite_shoe_simulation_agrees_with_the_model_within_its_interval():
    est = simulate_shoe(6, 20_000, seed=7)
    assert est == simulate_shoe(6, 20_000, seed=7)          # seeded: reproducible
    assert abs(est.refait - float(P_REFAIT)) < 2 * est.refait_ci
    assert abs(est.ties - float(P_TIE)) < 0.01
    assert est.surrender_edge == est.refait / 2

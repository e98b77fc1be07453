"""The wheel's outcome tests on simulated wheels (seeded): the false-alarm rate on fair wheels
stays at its stated level, and a biased wheel is caught."""
from __future__ import annotations

import random

import pytest

from services.rules.core.fairness import chi2_sf, chi_square
from services.rules.roulette.layout import WHEELS
from services.wheel.stats import ALPHA, WheelStats, sectors

POCKETS = WHEELS["european"].pockets


@pytest.mark.parametrize(("x", "dof", "p"), [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (11.070498, 5, 0.05), (20.515006, 5, 0.001),
    (50.998460, 36, 0.05), (67.985, 36, 0.001), (69.345, 37, 0.001)])
def test_the_chi_square_tail_matches_the_tables(x: float, dof: int, p: float) -> None:
    assert chi2_sf(x, dof) == pytest.approx(p, rel=2e-3)


def test_chi_square_of_a_perfectly_even_count_is_zero() -> None:
    result = chi_square([10] * 37, [1 / 37] * 37)
    assert result.statistic == 0 and result.p_value == 1.0 and result.dof == 36


def spin_wheel(rng: random.Random, spins: int, weights: list[float] | None = None) -> list[str]:
    stats, alarms = WheelStats("european"), list[str]()
    for pocket in rng.choices(POCKETS, weights, k=spins):
        stats.record(pocket=pocket, valid=True, repeat=False, revolutions=6)
        alarms += [f.test for f in stats.due(set())]
    return alarms


def test_fair_wheels_raise_false_alarms_at_the_stated_rate() -> None:
    """300 fair wheels x 370 spins: 2 evaluations x 2 tests each = 1,200 evaluations at
    p < 0.001, so about 1.2 false alarms expected; more than 6 would mean the stated rate is
    wrong (a Poisson(1.2) count exceeds 6 with probability 0.0001)."""
    rng = random.Random(13)
    alarms = sum(len(spin_wheel(rng, 370)) for _ in range(300))
    evaluations = 300 * 2 * 2
    assert alarms <= 6, f"{alarms} false alarms in {evaluations} evaluations (alpha {ALPHA})"


def test_a_biased_wheel_is_caught() -> None:
    """One arc of the wheel (6-7 pockets) half as likely again as the rest: caught within
    1,480 spins on at least 9 wheels of 10."""
    rng = random.Random(7)
    arc = set(sectors("european")[0])
    weights = [1.5 if p in arc else 1.0 for p in POCKETS]
    caught = [spin_wheel(rng, 1480, weights) for _ in range(30)]
    assert sum(bool(c) for c in caught) >= 27
    assert any("sector_frequency" in c for c in caught)


def test_the_sectors_cover_the_wheel_once() -> None:
    for variant, wheel in WHEELS.items():
        arcs = sectors(variant)
        assert len(arcs) == 6
        assert sorted(p for arc in arcs for p in arc) == sorted(wheel.pockets)


def test_a_dealer_who_alternates_and_gives_three_revolutions_raises_no_procedure_alert() -> None:
    """The direction and revolution checks count breaches: none for a compliant dealer, however
    long the history; a dealer breaching at 10 % is flagged within the first window."""
    rng = random.Random(2)
    compliant, careless = WheelStats("european"), WheelStats("european")
    flagged: list[str] = []
    for n in range(2_000):
        pocket = rng.choice(POCKETS)
        compliant.record(pocket=pocket, valid=True, repeat=False, revolutions=rng.randint(3, 12))
        assert not [f for f in compliant.due(set()) if f.test in ("direction_alternation",
                                                                  "revolutions")], n
        short = rng.random() < 0.1
        careless.record(pocket=pocket, valid=not short, repeat=False,
                        revolutions=2 if short else 8)
        if n < 50:
            flagged += [f.test for f in careless.due(set())]
    assert flagged == ["revolutions"]

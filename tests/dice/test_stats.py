"""The dice set's outcome tests on simulated dice (seeded): the false-alarm rate on fair dice
stays at its stated level, and a loaded die is caught."""
from __future__ import annotations

import random

from services.dice.stats import ALPHA, FACE_EVERY, TOTAL_EVERY, DiceStats

LOADED = [1, 2, 2, 2, 2, 3]   # weight moved from the 1 to the 6: a 6 one time in four


def throw(rng: random.Random, rolls: int, loaded: bool = False) -> list[str]:
    stats, alarms = DiceStats(), list[str]()
    for _ in range(rolls):
        a = rng.randint(1, 6)
        b = rng.choices(range(1, 7), LOADED)[0] if loaded else rng.randint(1, 6)
        stats.record((a, b), valid=True)
        alarms += [f.test for f in stats.due(set())]
    return alarms


def test_fair_dice_raise_false_alarms_at_the_stated_rate() -> None:
    """400 fair sets x 360 rolls: (6 face + 2 total) evaluations each = 3,200 evaluations at
    p < 0.001, about 3.2 false alarms expected; more than 10 would mean the stated rate is wrong
    (a Poisson(3.2) count exceeds 10 with probability 0.0007)."""
    rng = random.Random(13)
    alarms = sum(len(throw(rng, 360)) for _ in range(400))
    evaluations = 400 * (360 // FACE_EVERY + 360 // TOTAL_EVERY)
    assert evaluations == 3_200
    assert alarms <= 10, f"{alarms} false alarms in {evaluations} evaluations (alpha {ALPHA})"


def test_a_loaded_die_is_caught() -> None:
    """One die of the pair shows a 6 one time in four (a 1 one time in twelve): caught within
    720 rolls on at least 4 sets of 5."""
    rng = random.Random(5)
    caught = [throw(rng, 720, loaded=True) for _ in range(30)]
    assert sum(bool(c) for c in caught) >= 24
    assert any("face_frequency" in c for c in caught)


def test_void_rolls_are_not_counted() -> None:
    stats = DiceStats()
    stats.record((6, 6), valid=False, cause="dice_slid")
    stats.record(None, valid=False, cause="die_off_table")
    stats.record((1, 2), valid=True)
    assert stats.valid == 1 and stats.voided == 2 and stats.faces[6] == 0
    assert stats.void_causes == {"dice_slid": 1, "die_off_table": 1}

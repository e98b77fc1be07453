"""The simulator's wheels (services/simulator/wheels.py) played through a real wheel: one valid
spin per round, and the injected irregularities voided with their causes."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from contracts.devices import SpinAccepted, SpinVoided, WheelCommandRejected
from contracts.envelope import Actor
from contracts.table import RecordSpin
from services.simulator.floor import make_tables, round_commands
from services.simulator.wheels import setup_wheel, spin_commands, through_wheel, wheel_for
from services.wheel.domain import Wheel

DEALER = Actor(employee_id="D101", role="dealer")


def play(profile: str, variant: str, rounds: int, rate: float) -> list:
    rng = random.Random(11)
    dealer = wheel_for("RUL-01", DEALER, profile)  # type: ignore[arg-type]
    dealer.same_direction_rate = dealer.short_spin_rate = rate
    wheel = Wheel(dealer.serial)
    events = []
    for c in setup_wheel(dealer, variant):
        wheel.handle(c)
        events += wheel.collect()
    for n in range(rounds):
        for c in spin_commands(dealer, rng, str(n % 37), f"RUL-01.{n}", f"corr-{n}"):
            wheel.handle(c)
            events += wheel.collect()
    return events


def test_each_round_gets_one_valid_spin_and_the_injected_ones_are_void() -> None:
    events = play("BO", "european", 400, 0.05)
    accepted = [e for e in events if isinstance(e, SpinAccepted)]
    voided = [e for e in events if isinstance(e, SpinVoided)]
    assert len(accepted) == 400
    assert [e.payload.round_id for e in accepted] == [f"RUL-01.{n}" for n in range(400)]
    causes = Counter(e.payload.cause for e in voided)
    assert set(causes) == {"same_direction_as_previous", "too_few_revolutions"}
    assert 20 <= sum(causes.values()) <= 60     # about 5 % + 5 % of 400
    assert not [e for e in events if isinstance(e, WheelCommandRejected)]


@pytest.mark.parametrize(("profile", "variant"), [("AR-RUL", "european"),
                                                  ("LIVE-GG", "european"),
                                                  ("CL-ARICA", "american")])
def test_no_injected_spin_is_valid_where_the_seed_has_no_rule(profile: str, variant: str) -> None:
    events = play(profile, variant, 200, 0.1)
    assert sum(isinstance(e, SpinAccepted) for e in events) == 200
    assert not [e for e in events if isinstance(e, WheelCommandRejected)]


def test_the_simulator_sends_the_result_through_the_wheel() -> None:
    rng = random.Random(3)
    [table] = make_tables(1)
    dealer = wheel_for(table.table_id, table.dealer, "BO")
    messages = through_wheel(list(round_commands(table, rng, pocket="17")), dealer, rng)
    assert not [m for m in messages if isinstance(m, RecordSpin)]
    assert messages[-1].payload.pocket == "17"  # type: ignore[union-attr]
    assert messages[-1].target_id == dealer.serial  # type: ignore[union-attr]

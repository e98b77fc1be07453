"""A wheel's life and the validity of each spin, per profile (domain.md §5.5)."""
from __future__ import annotations

import pytest

from contracts.devices import (
    AcknowledgeData,
    AcknowledgeWheelAlert,
    AnnounceLastSpins,
    AssignData,
    AssignWheel,
    CloseWheel,
    InspectWheel,
    LastSpinsAnnouncedData,
    OpenWheel,
    SealData,
    SpinAccepted,
    SpinVoided,
    WheelAlertAcknowledged,
    WheelAlertRaised,
    WheelClosed,
    WheelCommandRejected,
    WheelInspectedData,
    WheelOpened,
)
from services.wheel.domain import Wheel
from tests.wheel.unit import DEALER, SERIAL, cmd, handle, ready, setup, spin


def test_a_valid_spin_is_accepted_and_the_next_must_turn_the_other_way() -> None:
    wheel = ready()
    [first] = handle(wheel, spin("17", rotor="clockwise"))
    assert isinstance(first, SpinAccepted) and first.payload.pocket == "17"
    [second] = handle(wheel, spin("5", rotor="clockwise"))
    assert isinstance(second, SpinVoided)
    assert second.payload.cause == "same_direction_as_previous"
    assert "seed 000 §4.1.4.3" in second.payload.rule
    assert "Previous number: 17" in second.payload.procedure
    assert "at least 3 times" in second.payload.procedure
    [third] = handle(wheel, spin("5", rotor="counterclockwise"))
    assert isinstance(third, SpinAccepted)


@pytest.mark.parametrize(("profile", "kwargs", "cause", "rule"), [
    ("BO", dict(ball="clockwise"), "ball_with_wheel", "seed 000 §4.1.6.1"),
    ("BO", dict(revolutions=2), "too_few_revolutions", "seed 000 §4.1.6.1"),
    ("LIVE-GG", dict(revolutions=2), "too_few_revolutions", "LIVE-GG Rul §3.1.1"),
    ("LIVE-GG", dict(ball="clockwise"), "ball_with_wheel", "LIVE-GG Rul §3.1.1"),
    ("CL-ARICA", dict(pocket=None, observed=("wheel_fault",)), "wheel_fault", "seed 004 II §1.7"),
    ("CL-ARICA", dict(observed=("wheel_stopped",)), "wheel_stopped", "seed 004 II §1.7"),
    ("AR-RUL", dict(observed=("ball_slipped_from_hand",)), "ball_slipped_from_hand",
     "seed 001"),
    ("AR-RUL", dict(pocket=None, observed=("ball_out_of_wheel",)), "ball_out_of_wheel",
     "saltare fuera"),
    ("BO", dict(observed=("object_in_wheel",)), "object_in_wheel", "seed 000 §4.1.6.1"),
    ("BO", dict(pocket=None, observed=("ball_stuck_on_rim",)), "ball_stuck_on_rim",
     "seed 000 §4.1.6.1"),
])
def test_each_void_cause_with_its_rule(profile: str, kwargs: dict, cause: str,
                                       rule: str) -> None:
    variant = "american" if profile == "CL-ARICA" else "european"
    wheel = ready(profile, variant)
    [event] = handle(wheel, spin(**{"pocket": "17", **kwargs}))
    assert isinstance(event, SpinVoided)
    assert event.payload.cause == cause and rule in event.payload.rule


def test_profiles_whose_seed_is_silent_do_not_apply_a_rule() -> None:
    # AR (seed 001) says nothing of the direction or the revolutions: the spin is valid there.
    wheel = ready("AR-RUL")
    events = handle(wheel, spin("1", rotor="clockwise", revolutions=2),
                    spin("2", rotor="clockwise", ball="clockwise"))
    assert [type(e) for e in events] == [SpinAccepted, SpinAccepted]
    # ... and an observation its seed has no rule for is refused, not guessed.
    wheel = ready("BO")
    [refused] = handle(wheel, spin(observed=("wheel_fault",)))
    assert isinstance(refused, WheelCommandRejected)
    assert refused.payload.field == "payload.observed" and "BO" in refused.payload.reason


def test_bad_spins_are_refused_with_field_and_reason() -> None:
    wheel = ready()
    handle(wheel, spin("17", round_id="T1.1"))
    cases = [(spin("3", round_id="T1.1", rotor="counterclockwise"), "payload.round_id"),
             (spin("3", table="T9", rotor="counterclockwise"), "payload.table_id"),
             (spin("00", rotor="counterclockwise"), "payload.pocket"),
             (spin(None, rotor="counterclockwise"), "payload.pocket")]
    for command, field in cases:
        [event] = handle(wheel, command)
        assert isinstance(event, WheelCommandRejected), field
        assert event.payload.field == field and event.payload.reason


def test_a_voided_round_can_be_spun_again() -> None:
    wheel = ready()
    events = handle(wheel, spin("17", round_id="T1.7", revolutions=1),
                    spin("18", round_id="T1.7", rotor="counterclockwise"))
    assert [type(e) for e in events] == [SpinVoided, SpinAccepted]


def test_no_spin_before_the_inspection_nor_after_a_failed_one() -> None:
    wheel = Wheel(SERIAL)
    handle(wheel, *setup()[:3])
    [refused] = handle(wheel, spin())
    assert isinstance(refused, WheelCommandRejected) and "inspection" in refused.payload.reason
    handle(wheel, cmd(InspectWheel, WheelInspectedData(level_ok=False, moving_parts_ok=True,
                                                       ball_ok=True)))
    [refused] = handle(wheel, spin())
    assert isinstance(refused, WheelCommandRejected)


def test_last_three_spins_then_sealed_then_moved_with_its_history() -> None:
    wheel = ready()
    handle(wheel, cmd(AnnounceLastSpins, LastSpinsAnnouncedData(), actor=DEALER))
    rotors = ["clockwise", "counterclockwise", "clockwise", "counterclockwise"]
    events = handle(wheel, *[spin(str(i), rotor=r) for i, r in enumerate(rotors)])
    assert [type(e) for e in events] == [SpinAccepted] * 3 + [WheelCommandRejected]
    [moved] = handle(wheel, cmd(AssignWheel, AssignData(table_id="T2")))
    assert isinstance(moved, WheelCommandRejected)   # open wheels are not moved
    [closed] = handle(wheel, cmd(CloseWheel, SealData(seal_number="S-200")))
    assert isinstance(closed, WheelClosed)
    handle(wheel, cmd(AssignWheel, AssignData(table_id="T2")))
    [opened] = handle(wheel, cmd(OpenWheel, SealData(seal_number="S-201")))
    assert isinstance(opened, WheelOpened) and not opened.payload.seal_matches
    assert wheel.tables == ["T1", "T2"] and wheel.stats.valid == 3


def test_a_dealer_may_not_seal_a_wheel() -> None:
    wheel = ready()
    [refused] = handle(wheel, cmd(CloseWheel, SealData(seal_number="S-9"), actor=DEALER))
    assert isinstance(refused, WheelCommandRejected) and refused.payload.code == "FORBIDDEN"


def test_short_spins_raise_an_alert_that_stays_open_until_acknowledged() -> None:
    wheel = ready()
    rotor = ["clockwise", "counterclockwise"]
    events = handle(wheel, *[spin(str(i % 36 + 1), rotor=rotor[i % 2],
                                  revolutions=2 if i in (10, 20, 30, 41, 45) else 6)
                             for i in range(60)])
    raised = [e for e in events if isinstance(e, WheelAlertRaised)]
    assert len(raised) == 1 and raised[0].payload.test == "revolutions"
    alert_id = raised[0].payload.alert_id
    assert wheel.open_tests() == {"revolutions"}
    [refused] = handle(wheel, cmd(AcknowledgeWheelAlert, AcknowledgeData(
        alert_id=alert_id, comment="seen"), actor=DEALER))
    assert isinstance(refused, WheelCommandRejected) and refused.payload.code == "FORBIDDEN"
    [ack] = handle(wheel, cmd(AcknowledgeWheelAlert, AcknowledgeData(
        alert_id=alert_id, comment="dealer retrained")))
    assert isinstance(ack, WheelAlertAcknowledged) and ack.actor is not None
    assert wheel.alerts[alert_id].acknowledged_by == "S1"
    assert wheel.alerts[alert_id].comment == "dealer retrained"
    assert wheel.open_tests() == set()


def test_rebuilt_from_its_events_the_wheel_is_the_same() -> None:
    wheel = Wheel(SERIAL)
    log = handle(wheel, *setup(), spin("17", rotor="clockwise"), spin("4", rotor="clockwise"),
                 spin("4", rotor="counterclockwise"))
    again = Wheel.rebuild(SERIAL, log)
    assert again.stats == wheel.stats and again.rounds_spun == wheel.rounds_spun
    assert again.previous_pocket == "4" and again.version == wheel.version

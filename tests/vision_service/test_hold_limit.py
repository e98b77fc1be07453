"""The house's hold limit: shorter than the seeds' 30 minutes is allowed, longer is refused."""
from datetime import UTC, datetime, timedelta

import pytest

from contracts.vision import HOLD_LIMIT, VerificationRequested, check_hold_limit, hold_deadline
from services.vision.service.checks import RoundCheck
from tests.vision_service.test_checks import dealer, frame, read, spin

DECLARED = datetime(2026, 11, 24, 21, 0, tzinfo=UTC)


def test_the_default_hold_is_the_seeds_30_minutes():
    assert timedelta(minutes=30) == HOLD_LIMIT
    assert hold_deadline(DECLARED) == DECLARED + timedelta(minutes=30)
    assert hold_deadline(DECLARED, timedelta(minutes=10)) == DECLARED + timedelta(minutes=10)


@pytest.mark.parametrize("limit", [timedelta(minutes=31), timedelta(0), timedelta(seconds=-5)])
def test_a_hold_over_30_minutes_or_of_nothing_is_refused_naming_the_rule(limit):
    with pytest.raises(ValueError, match=r"hold_limit: .* at most 30 minutes \(seed 002"):
        check_hold_limit(limit)


def test_a_round_check_holds_for_the_house_limit():
    check = RoundCheck("round-corr-1", hold_limit=timedelta(minutes=5))
    check.note_dealer(dealer("17"), spin("17"), DECLARED)
    check.note_reading(read("18"), frame(), DECLARED)
    [_noted, _read, requested] = check.collect()
    assert isinstance(requested, VerificationRequested)
    assert requested.payload.hold_deadline - dealer().declared_at == timedelta(minutes=5)

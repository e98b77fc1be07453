"""The check of a dealer's result against the camera, without a broker."""
from datetime import UTC, datetime, timedelta
from typing import Literal

import pytest

from contracts.envelope import Actor
from contracts.table import SpinResulted, SpinResultedData
from contracts.vision import (
    DealerResultData,
    FrameCaptured,
    FrameCapturedData,
    Outcome,
    Reading,
    ResolutionRefused,
    ResolveVerification,
    ResolveVerificationData,
    ResultConfirmed,
    ResultReadData,
    VerificationRequested,
    VerificationResolved,
)
from services.vision.service.checks import RoundCheck, result_text

DECLARED = datetime(2026, 11, 21, 22, 15, tzinfo=UTC)
CORR = "round-corr-1"


def frame() -> FrameCaptured:
    return FrameCaptured(aggregate_id="CAM-1", sequence=1, occurred_at=DECLARED,
                         producer="camera-gateway", correlation_id=CORR,
                         payload=FrameCapturedData(camera_id="CAM-1", table_id="RUL-01",
                                                   kind="wheel", variant="european",
                                                   uri="/frames/1.jpg", captured_at=DECLARED))


def spin(pocket: str = "17") -> SpinResulted:
    return SpinResulted(aggregate_id="RUL-01", sequence=9, occurred_at=DECLARED,
                        producer="table-service", correlation_id=CORR,
                        actor=Actor(employee_id="D1", role="dealer"),
                        payload=SpinResultedData(round_id="RUL-01.4", wheel="european",
                                                 pocket=pocket))


def read(pocket: str | None = "17", confidence: float = 0.99,
         reason: str | None = None) -> ResultReadData:
    reading = Reading(kind="wheel", pocket=pocket, no_decision=pocket is None, reason=reason,
                      confidence=confidence)
    return ResultReadData(table_id="RUL-01", camera_id="CAM-1", frame_uri="/frames/1.jpg",
                          reading=reading, evidence_sha256="a" * 64, evidence_uri="ev/a.jpg",
                          reader="test", ms=3.0)


def dealer(result: str = "17",
           wheel: Literal["european", "american"] = "european") -> DealerResultData:
    return DealerResultData(table_id="RUL-01", round_id="RUL-01.4", kind="wheel", result=result,
                            declared_at=DECLARED, wheel=wheel)


def test_agreeing_camera_confirms_in_either_order():
    a = RoundCheck(CORR)
    assert _do(a.note_reading, read(), frame())[-1].event_type == "ResultRead"
    [noted, confirmed] = _do(a.note_dealer, dealer(), spin())
    assert isinstance(confirmed, ResultConfirmed) and confirmed.payload.read_result == "17"
    b = RoundCheck(CORR)
    _do(b.note_dealer, dealer(), spin())
    [_, confirmed_b] = _do(b.note_reading, read(), frame())
    assert isinstance(confirmed_b, ResultConfirmed)
    assert confirmed.correlation_id == CORR and confirmed.sequence == 3


@pytest.mark.parametrize("reading, reason", [
    (read("18"), "MISMATCH"),
    (read("17", confidence=0.3), "LOW_CONFIDENCE"),
    (read(None, reason="ball on a fret"), "NO_DECISION"),
])
def test_disagreement_doubt_or_no_decision_requests_verification_with_a_30_minute_hold(
        reading, reason):
    check = RoundCheck(CORR)
    _do(check.note_dealer, dealer(), spin())
    [_, requested] = _do(check.note_reading, reading, frame())
    assert isinstance(requested, VerificationRequested)
    assert requested.payload.reason == reason
    assert requested.payload.hold_deadline - DECLARED == timedelta(minutes=30)
    assert requested.payload.rule == "seed 002 §1.3; seed 004 RG §6"
    assert requested.payload.evidence_sha256 == "a" * 64


def test_redelivered_messages_and_late_frames_change_nothing():
    check = RoundCheck(CORR)
    f, s = frame(), spin()
    _do(check.note_reading, read(), f)
    _do(check.note_dealer, dealer(), s)
    assert _do(check.note_reading, read(), f) == []
    assert _do(check.note_dealer, dealer(), s) == []
    later = frame().model_copy(update={"event_id": "later"})
    assert _do(check.note_reading, read("3"), later) == []
    assert check.decided and check.version == 3


def test_rebuilt_check_decides_the_same():
    live = RoundCheck(CORR)
    log = _do(live.note_reading, read("5"), frame()) + _do(live.note_dealer, dealer("5"), spin())
    rebuilt = RoundCheck.rebuild(CORR, log)
    assert rebuilt.decided and rebuilt.version == live.version == 3


def test_dice_results_compare_regardless_of_order():
    assert result_text(Reading(kind="dice", values=(5, 3), confidence=0.9)) == "3-5"
    assert result_text(Reading(kind="dice", no_decision=True, reason="cocked",
                               confidence=0)) is None


def test_a_camera_calibration_file_is_used_for_that_camera(tmp_path):
    """The service reads each camera with its own saved calibration when there is one."""
    import cv2
    import numpy as np

    from services.scenes.wheel.scene import render_wheel_scene
    from services.vision import wheel
    from services.vision.service.readers import read_frame

    image, label = render_wheel_scene(np.random.default_rng(4242), "european", case="pocket")
    wheel.save(wheel.calibrate_wheel(image, "european"), tmp_path / "CAM-1.json")
    data = cv2.imencode(".png", image)[1].tobytes()
    frame = frame_data = FrameCapturedData(camera_id="CAM-1", table_id="RUL-01", kind="wheel",
                                           variant="european", uri="x", captured_at=DECLARED)
    with_cal, _ = read_frame(data, frame, tmp_path)
    without, _ = read_frame(data, frame_data.model_copy(update={"camera_id": "CAM-2"}), tmp_path)
    assert with_cal.pocket == without.pocket == label.pocket
    (tmp_path / "CAM-1.json").write_text("{not a calibration")  # proves the file is read
    with pytest.raises(ValueError, match="not JSON"):
        read_frame(data, frame, tmp_path)


def test_an_undecodable_frame_is_a_no_decision_not_a_crash():
    from services.vision.service.readers import read_frame

    frame = FrameCapturedData(camera_id="CAM-1", table_id="RUL-01", kind="dice", uri="x",
                              captured_at=DECLARED)
    reading, _ = read_frame(b"\x89PNG broken", frame)
    assert reading.no_decision and "decodable" in (reading.reason or "")


# ----- the surveillance room resolves a verification ---------------------------------------------

OFFICER = Actor(employee_id="SURV-3", role="surveillance")


def resolve(outcome: Outcome, result: str | None = None, *, actor: Actor | None = OFFICER,
            at: datetime = DECLARED + timedelta(minutes=12), note: str = "") -> ResolveVerification:
    return ResolveVerification(target_id=CORR, correlation_id=CORR, issued_by="test",
                               issued_at=at, actor=actor,
                               payload=ResolveVerificationData(outcome=outcome, result=result,
                                                               note=note))


def under_verification(dealer_result: str = "17", camera: str | None = "18") -> RoundCheck:
    check = RoundCheck(CORR)
    _do(check.note_dealer, dealer(dealer_result), spin(dealer_result))
    _do(check.note_reading, read(camera, reason=None if camera else "ball on a fret"), frame())
    assert check.status == "verification"
    return check


def refusal(events: list) -> tuple[str, str]:
    [refused] = events
    assert isinstance(refused, ResolutionRefused)
    assert refused.payload.command_type == "ResolveVerification"
    return refused.payload.field, refused.payload.reason


def test_upheld_keeps_the_dealers_result_and_closes_the_hold_in_time():
    check = under_verification("17", camera="18")
    [resolved] = _do(check.resolve, resolve("UPHELD", note="camera angle; ball in 17"))
    assert isinstance(resolved, VerificationResolved)
    p = resolved.payload
    assert (p.outcome, p.result, p.dealer_result, p.resolved_by) == ("UPHELD", "17", "17", "SURV-3")
    assert p.within_hold and p.resolved_at == DECLARED + timedelta(minutes=12)
    assert p.note == "camera angle; ball in 17" and p.round_id == "RUL-01.4"
    assert resolved.sequence == 4 and resolved.correlation_id == CORR
    assert check.status == "resolved"


def test_corrected_names_what_the_cctv_shows_and_says_when_the_hold_had_run_out():
    check = under_verification("17", camera=None)
    [resolved] = _do(check.resolve, resolve("CORRECTED", "22", at=DECLARED + timedelta(minutes=31)))
    p = resolved.payload
    assert (p.outcome, p.result, p.dealer_result) == ("CORRECTED", "22", "17")
    assert not p.within_hold and p.hold_deadline == DECLARED + timedelta(minutes=30)


@pytest.mark.parametrize("command, field, words", [
    (resolve("CORRECTED", "17"), "payload.result", "other than the dealer's 17"),
    (resolve("UPHELD", "18"), "payload.result", "send CORRECTED"),
    (resolve("CORRECTED", "3-5"), "payload.result", "not a wheel result"),
    (resolve("CORRECTED", "00"), "payload.result", "not a pocket of this table's european wheel"),
    (resolve("UPHELD", actor=None), "actor", "must name the employee and role"),
    (resolve("UPHELD", actor=Actor(employee_id="D1", role="dealer")), "actor.role",
     "role dealer may not issue ResolveVerification (employee D1); ResolveVerification is for "
     "surveillance"),
])
def test_a_resolution_that_contradicts_itself_is_refused_and_the_hold_stays_open(
        command, field, words):
    check = under_verification("17", camera="18")
    got_field, reason = refusal(_do(check.resolve, command))
    assert got_field == field and words in reason
    assert check.status == "verification" and check.resolution is None


def test_00_is_a_correction_on_an_american_wheel():
    check = RoundCheck(CORR)
    _do(check.note_dealer, dealer("0", wheel="american"), spin("0"))
    _do(check.note_reading, read(None, reason="ball on a fret"), frame())
    [resolved] = _do(check.resolve, resolve("CORRECTED", "00"))
    assert isinstance(resolved, VerificationResolved) and resolved.payload.result == "00"


def test_a_check_resolved_twice_confirmed_by_camera_or_still_pending_is_refused():
    check = under_verification()
    _do(check.resolve, resolve("UPHELD"))
    field, reason = refusal(_do(check.resolve, resolve("CORRECTED", "18")))
    assert field == "target_id" and "already resolved: UPHELD 17 by SURV-3" in reason
    assert check.resolution is not None and check.resolution.outcome == "UPHELD"

    confirmed = RoundCheck(CORR)
    _do(confirmed.note_dealer, dealer("17"), spin())
    _do(confirmed.note_reading, read("17"), frame())
    field, reason = refusal(_do(confirmed.resolve, resolve("UPHELD")))
    assert field == "target_id" and "confirmed by camera" in reason
    assert confirmed.status == "confirmed"

    pending = RoundCheck(CORR)
    _do(pending.note_dealer, dealer("17"), spin())
    field, reason = refusal(_do(pending.resolve, resolve("UPHELD")))
    assert field == "target_id" and "not under verification" in reason


def test_a_redelivered_resolution_changes_nothing_even_after_a_rebuild():
    live = RoundCheck(CORR)
    log = _do(live.note_dealer, dealer("17"), spin()) + _do(live.note_reading, read("18"), frame())
    command = resolve("CORRECTED", "18")
    log += _do(live.resolve, command)
    assert _do(live.resolve, command) == []
    rebuilt = RoundCheck.rebuild(CORR, log)
    assert rebuilt.status == "resolved" and _do(rebuilt.resolve, command) == []
    assert rebuilt.resolution == live.resolution and rebuilt.version == live.version == 4


def test_dice_results_are_compared_in_sorted_order():
    check = RoundCheck(CORR)
    _do(check.note_dealer, DealerResultData(table_id="CR-1", round_id="CR-1.1", kind="dice",
                                       result="3-5", declared_at=DECLARED), spin())
    _do(check.note_reading, ResultReadData(
        table_id="CR-1", camera_id="CAM-9", frame_uri="/f.jpg", evidence_sha256="b" * 64,
        evidence_uri="ev/b.jpg", reader="test", ms=1.0,
        reading=Reading(kind="dice", no_decision=True, reason="cocked", confidence=0)), frame())
    field, _ = refusal(_do(check.resolve, resolve("CORRECTED", "5-3")))
    assert field == "payload.result"  # 5-3 is the dealer's 3-5
    [resolved] = _do(check.resolve, resolve("CORRECTED", "6-2"))
    assert resolved.payload.result == "2-6"


def test_the_command_needs_a_result_for_a_correction_and_a_well_formed_one():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="CORRECTED must name the result"):
        ResolveVerificationData(outcome="CORRECTED")
    with pytest.raises(ValidationError, match="result"):
        ResolveVerificationData(outcome="CORRECTED", result="37")


def _do(decide, *args, now=None):
    """Run one decision of a check and return the events it triggered (the service's unit of
    work collects them the same way). The check decides at `now`: by default as soon as its
    cause was made (a command's issue time, an event's time)."""
    cause = args[-1]
    decide(*args, now or getattr(cause, "issued_at", None) or cause.occurred_at)
    return decide.__self__.collect()


# ----- issue 12: decisions are stamped when the check makes them ---------------------------------

def test_a_resolve_typed_in_time_but_decided_after_the_deadline_is_not_within_the_hold():
    """The officer's command is from minute 5; the vision service was down and decides it at
    minute 31: the payouts were already released, so it is not within the hold."""
    check = under_verification("17", camera="18")
    decided = DECLARED + timedelta(minutes=31)
    [resolved] = _do(check.resolve, resolve("CORRECTED", "18", at=DECLARED + timedelta(minutes=5)),
                     now=decided)
    p = resolved.payload
    assert not p.within_hold and p.resolved_at == decided and resolved.occurred_at == decided


def test_a_verification_decided_from_a_backlog_is_stamped_when_it_was_decided():
    check = RoundCheck(CORR)
    later = DECLARED + timedelta(minutes=40)
    _do(check.note_dealer, dealer("17"), spin("17"), now=later)
    [_, requested] = _do(check.note_reading, read("18"), frame(), now=later)
    assert isinstance(requested, VerificationRequested)
    assert requested.occurred_at == later            # not the declaration's time
    assert requested.payload.hold_deadline == DECLARED + timedelta(minutes=30)

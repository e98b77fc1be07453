"""`casino report holds`: rounds under CCTV verification and their 30-minute payout holds
(seed 002 §1.3; seed 004 RG §6), from a real DuckDB file fed by real round-check events."""
import json
from datetime import UTC, datetime, timedelta

from click.testing import CliRunner

from contracts.envelope import Actor
from contracts.table import SpinResulted, SpinResultedData
from contracts.vision import (
    DealerResultData,
    FrameCaptured,
    FrameCapturedData,
    Outcome,
    Reading,
    ResolveVerification,
    ResolveVerificationData,
    ResultReadData,
)
from services.projections import store
from services.projections.cli import report
from services.projections.holds import (
    check_counts,
    corrections_report,
    holds_report,
    render_holds,
)
from services.projections.projector import apply_events
from services.vision.service.checks import RoundCheck

NOW = datetime.now(UTC)


def checked_round(n: int, dealer: str, camera: str | None, declared: datetime,
                  limit: timedelta = timedelta(minutes=30)) -> list:
    corr = f"corr-{n}"
    check = RoundCheck(corr, hold_limit=limit)
    spin = SpinResulted(aggregate_id="RUL-05", sequence=n, occurred_at=declared,
                        producer="table-service", correlation_id=corr,
                        actor=Actor(employee_id="D1", role="dealer"),
                        payload=SpinResultedData(round_id=f"RUL-05.{n}", wheel="european",
                                                 pocket=dealer))
    frame = FrameCaptured(aggregate_id="CAM-5", sequence=n, occurred_at=declared,
                          producer="camera-gateway", correlation_id=corr,
                          payload=FrameCapturedData(camera_id="CAM-5", table_id="RUL-05",
                                                    kind="wheel", variant="european",
                                                    uri=f"/f/{n}.jpg", captured_at=declared))
    reading = Reading(kind="wheel", pocket=camera, no_decision=camera is None,
                      reason=None if camera else "ball_on_fret", confidence=0.9 if camera else 0)
    check.note_dealer(DealerResultData(table_id="RUL-05", round_id=f"RUL-05.{n}",
                                       kind="wheel", result=dealer,
                                       declared_at=declared), spin, declared)
    check.note_reading(ResultReadData(
        table_id="RUL-05", camera_id="CAM-5", frame_uri=f"/f/{n}.jpg", reading=reading,
        evidence_sha256=f"{n:x}" * 64, evidence_uri=f"ev/{n}.jpg", reader="t", ms=1.0), frame,
        declared)
    return check.collect()  # what the service's unit of work publishes


def database(tmp_path):
    db = tmp_path / "floor.duckdb"
    with store.connect(db) as con:
        apply_events(con, checked_round(1, "17", "17", NOW - timedelta(minutes=5))      # confirmed
                     + checked_round(2, "17", "18", NOW - timedelta(minutes=10))         # mismatch
                     + checked_round(3, "4", None, NOW - timedelta(minutes=45)))         # expired
    return db


def test_holds_list_soonest_deadline_first_and_say_when_to_pay(tmp_path):
    with store.connect(database(tmp_path), read_only=True) as con:
        found, counts = holds_report(con), check_counts(con)
    assert counts == {"confirmed": 1, "verification": 2}
    assert [(h.round_id, h.reason, h.camera_read) for h in found] == [
        ("RUL-05.3", "NO_DECISION", None), ("RUL-05.2", "MISMATCH", "18")]
    assert found[0].expired(NOW) and found[0].seconds_left(NOW) == 0
    assert not found[1].expired(NOW) and 19 * 60 < found[1].seconds_left(NOW) <= 20 * 60
    text = render_holds(found, counts, NOW)
    assert "1 confirmed by camera, 2 sent to surveillance" in text
    assert "limit passed: pay now" in text and "20 min 00 s" in text and "no decision" in text


def test_cli_json_and_expired_only(tmp_path):
    db = str(database(tmp_path))
    res = CliRunner().invoke(report, ["holds", "--db", db, "--json"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.output.splitlines()]
    assert [r["round_id"] for r in rows] == ["RUL-05.3", "RUL-05.2"]
    assert rows[1]["dealer_result"] == "17" and rows[1]["camera_read"] == "18"
    assert rows[1]["check_id"] == "corr-2"  # what `casino surveillance resolve` takes
    res = CliRunner().invoke(report, ["holds", "--db", db, "--expired", "--json"])
    assert [json.loads(x)["round_id"] for x in res.output.splitlines()] == ["RUL-05.3"]
    res = CliRunner().invoke(report, ["holds", "--db", str(tmp_path / "none.duckdb")])
    assert res.exit_code == 1 and "no projection database" in res.output


def resolved(events: list, outcome: Outcome, result: str | None, at: datetime) -> list:
    """The surveillance room's decision on a round under verification (the check rebuilt
    from its log, as the vision service does)."""
    check = RoundCheck.rebuild(events[0].aggregate_id, events)
    check.resolve(ResolveVerification(
        target_id=check.id, correlation_id=check.id, issued_by="t", issued_at=at,
        actor=Actor(employee_id="SURV-3", role="surveillance"),
        payload=ResolveVerificationData(outcome=outcome, result=result, note="seen on CCTV")),
        at)
    return check.collect()


def test_resolved_checks_leave_the_holds_and_a_correction_is_listed_for_finance(tmp_path):
    db = tmp_path / "floor.duckdb"
    mismatch = checked_round(2, "17", "18", NOW - timedelta(minutes=10))
    doubt = checked_round(3, "4", None, NOW - timedelta(minutes=45))
    upheld = resolved(mismatch, "UPHELD", None, NOW - timedelta(minutes=8))
    late = resolved(doubt, "CORRECTED", "22", NOW - timedelta(minutes=1))
    log = (checked_round(1, "17", "17", NOW - timedelta(minutes=5)) + mismatch + doubt
           + checked_round(4, "9", "8", NOW - timedelta(minutes=2))        # still open
           + upheld + late)
    refused = resolved(mismatch + upheld, "CORRECTED", "5", NOW)          # resolved twice
    with store.connect(db) as con:
        assert apply_events(con, log + refused) == len(log) + 1
        assert apply_events(con, log + refused) == 0                      # replay: no change
    with store.connect(db, read_only=True) as con:
        found, counts = holds_report(con), check_counts(con)
        corrections = corrections_report(con)
        row = con.execute("SELECT status, outcome, resolved_result, resolved_by, within_hold "
                          "FROM round_checks WHERE round_id = 'RUL-05.2'").fetchone()
        refusal = con.execute("SELECT round_id, command_type, code, field, reason "
                              "FROM rejections").fetchall()
    assert [h.round_id for h in found] == ["RUL-05.4"]
    assert counts == {"confirmed": 1, "verification": 1, "upheld": 1, "corrected": 1}
    assert row == ("resolved", "UPHELD", "17", "SURV-3", True)
    [c] = corrections
    assert (c.round_id, c.dealer_result, c.cctv_result, c.within_hold) == (
        "RUL-05.3", "4", "22", False)
    [(round_id, command_type, code, field, reason)] = refusal
    assert (round_id, command_type, code, field) == (
        "RUL-05.2", "ResolveVerification", "RESOLUTION_REFUSED", "target_id")
    assert "already resolved" in reason
    text = render_holds(found, counts, NOW, corrections)
    assert "1 sent to surveillance" in text and "1 upheld, 1 corrected" in text
    assert "RUL-05.3" in text.split("Corrected by surveillance")[1] and "after payment" in text
    assert "RUL-05.2" not in text


def test_dashboard_shows_the_counts_and_the_correction_but_not_the_resolved_hold(tmp_path):
    from services.projections.dashboard import render

    db = tmp_path / "floor.duckdb"
    mismatch = checked_round(2, "17", "18", NOW - timedelta(minutes=10))
    with store.connect(db) as con:
        apply_events(con, mismatch + resolved(mismatch, "CORRECTED", "18", NOW)
                     + checked_round(3, "4", None, NOW - timedelta(minutes=5)))
    page = render(db).decode()
    holds, corrected = page.split("Corrected by surveillance")
    assert "resolved by surveillance: 0 upheld, 1 corrected" in holds
    assert "RUL-05.3" in holds and "RUL-05.2" not in holds
    assert ("<td>RUL-05</td><td>RUL-05.2</td><td>17</td><td><b>18</b></td><td>SURV-3</td>"
            in corrected)

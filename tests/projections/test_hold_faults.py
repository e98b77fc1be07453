"""Issue 12, "the 30-minute hold under faults", as the reports show it: a hold released after
its deadline says by how much, a round the table held nothing for is a review after payment,
a correction after payment is not "within the hold", and the house's own limit is shown (not
a hard-coded 30 minutes). Real DuckDB file, events from the real table session."""
import json
from datetime import timedelta

from click.testing import CliRunner

from contracts.table import OpenTable, TableOpenedData
from services.projections import store
from services.projections.cli import report
from services.projections.holds import (
    corrections_report,
    house_limit,
    releases_report,
    render_holds,
)
from services.projections.projector import apply_events
from services.table.domain import TableSession
from tests.projections.test_holds import NOW, checked_round
from tests.projections.test_report import PIT, T0, play
from tests.table.test_holds import DEADLINE, requested, resolved
from tests.table.unit import handle, hold, release, resolve


def faulty_floor() -> list:
    """RUL-01: round 1 held and released 40 s late (the table service was down); round 2's
    request came after its deadline (the vision backlog); round 3 had no winners; round 2 is
    then corrected, after payment."""
    t = TableSession("RUL-01")
    log = handle(t, OpenTable(target_id="RUL-01", issued_by="t", issued_at=T0, actor=PIT,
                             payload=TableOpenedData(
                                 game="roulette", variant="european", seating="open",
                                 profile="BO", currency="BOB", min_bet=100, max_bet=50_000)))
    log += play(t, T0 + timedelta(minutes=1), "17", [("17", 1000)])
    log += hold(t, requested("RUL-01.1", "chk-1"))
    log += release(t, DEADLINE + timedelta(seconds=40))
    log += play(t, T0 + timedelta(minutes=2), "17", [("17", 1000)])
    log += hold(t, requested("RUL-01.2", "chk-2"), now=DEADLINE + timedelta(seconds=5))
    log += play(t, T0 + timedelta(minutes=3), "17", [("18", 1000)])
    log += hold(t, requested("RUL-01.3", "chk-3"))
    return log + resolve(t, resolved("18", round_id="RUL-01.2", check="chk-2"),
                         now=DEADLINE + timedelta(minutes=2))


def test_a_late_release_a_review_after_payment_and_nothing_to_hold_are_recorded(tmp_path):
    db = tmp_path / "f.duckdb"
    with store.connect(db) as con:
        apply_events(con, faulty_floor())
        rows = con.execute("SELECT round_id, held, release, released, within_hold, not_held, "
                           "released_at - deadline FROM payout_holds ORDER BY round_id").fetchall()
        after = con.execute("SELECT corrected_after_payment FROM rounds "
                            "WHERE round_id = 'RUL-01.2'").fetchone()
        [late] = releases_report(con, late_only=True)
    assert rows == [
        ("RUL-01.1", 36_000, "EXPIRED", 36_000, False, None, timedelta(seconds=40)),
        ("RUL-01.2", 0, "NOT_HELD", 36_000, None, "DEADLINE_PASSED", None),
        ("RUL-01.3", 0, "NOT_HELD", 0, None, "NOTHING_TO_HOLD", None)]
    assert after == (True,)
    assert (late.round_id, late.late_seconds, late.within_hold) == ("RUL-01.1", 40.0, False)


def test_report_holds_shows_the_house_limit_release_time_and_lateness(tmp_path):
    db = tmp_path / "f.duckdb"
    with store.connect(db) as con:   # a house running 30 min, then the 1-minute checks
        apply_events(con, faulty_floor() + checked_round(7, "17", "18", NOW))
    res = CliRunner().invoke(report, ["holds", "--db", str(db), "--released", "--json"])
    assert res.exit_code == 0, res.output
    [row] = [json.loads(line) for line in res.output.splitlines()]
    assert (row["round_id"], row["release"], row["within_hold"], row["late_seconds"]) == (
        "RUL-01.1", "EXPIRED", False, 40.0)
    assert row["released_at"] == (DEADLINE + timedelta(seconds=40)).isoformat()
    assert row["house_limit_seconds"] == 1800.0
    res = CliRunner().invoke(report, ["holds", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "the house holds 30 min" in res.output
    assert "40 s LATE" in res.output and "1 released after the deadline" in res.output
    [json_hold] = [json.loads(x) for x in CliRunner().invoke(
        report, ["holds", "--db", str(db), "--json"]).output.splitlines()]
    assert {"released_at", "within_hold", "late_seconds", "hold_limit_seconds",
            "house_limit_seconds"} <= set(json_hold)


def test_the_limit_shown_is_the_houses_not_30_minutes(tmp_path):
    db = tmp_path / "f.duckdb"
    with store.connect(db) as con:
        apply_events(con, checked_round(8, "17", "18", NOW, limit=timedelta(minutes=1)))
        limit = house_limit(con)
        text = render_holds([], {}, NOW, limit_seconds=limit)
    assert limit == 60.0 and "the house holds 1 min" in text and "30 min passed" not in text


def test_a_correction_decided_after_payment_is_not_listed_as_within_the_hold(tmp_path):
    """The vision service said within_hold (the officer's command time); the table decided it
    after the payouts went out: the corrections list follows the table."""
    db = tmp_path / "f.duckdb"
    events = checked_round(2, "17", "18", NOW - timedelta(minutes=10))
    with store.connect(db) as con:
        apply_events(con, faulty_floor() + events)
        con.execute("UPDATE round_checks SET status = 'resolved', outcome = 'CORRECTED', "
                    "round_id = 'RUL-01.2', table_id = 'RUL-01', resolved_result = '18', "
                    "resolved_by = 'S7', resolved_at = now(), within_hold = true")
        [c] = corrections_report(con)
    assert c.round_id == "RUL-01.2" and c.within_hold is False


def test_a_schema_1_correction_still_decodes_saying_after_payment_is_unknown():
    from contracts import decode, encode
    from contracts.payouts import SettlementCorrected, SettlementCorrectedV1

    [fixed] = [e for e in faulty_floor() if isinstance(e, SettlementCorrected)]
    body = fixed.model_dump(mode="json")
    for schema_2_and_3 in ("after_payment", "for_pit_manager", "game_note"):
        body["payload"].pop(schema_2_and_3)
    old = SettlementCorrectedV1.model_validate({**body, "schema_version": 1})
    again = decode(encode(old))
    assert isinstance(again, SettlementCorrected) and again.payload.after_payment is None
    assert again.payload.corrections == fixed.payload.corrections


def test_a_late_release_is_an_alert_on_the_dashboard(tmp_path):
    from services.projections.dashboard import render

    db = tmp_path / "f.duckdb"
    with store.connect(db) as con:
        apply_events(con, faulty_floor())
    page = render(db).decode()
    alerts = page.split("<h2 class=\"neg\">Alerts</h2>")[1].split("</ul>")[0]
    assert "hold of RUL-01 round RUL-01.1 released 40 s after its deadline (EXPIRED)" in alerts
    late = page.split('id="late-releases"')[1].split("</table>")[0]
    assert "RUL-01.1" in late and ">40 s<" in late and "RUL-01.2" not in late

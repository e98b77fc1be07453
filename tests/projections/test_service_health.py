"""Every service's latest health report in the projection, as the dashboard shows it: ok,
UNHEALTHY (with what is stuck or lagging) or stale when its reports stopped."""
from datetime import UTC, datetime, timedelta

from contracts.health import ServiceHealth
from services.projections import store
from services.projections.health import FORGET_AFTER, apply_service_health, service_states
from services.runtime.health import STALE_AFTER_PERIODS

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def report(service="table-service", instance="h/1/a", at=NOW, **kw) -> ServiceHealth:
    return ServiceHealth(service=service, instance=instance, reported_at=at,
                         every_seconds=5, **{"healthy": True, **kw})


def states(tmp_path, reports, now=NOW):
    with store.connect(tmp_path / "h.duckdb") as con:
        for r in reports:
            apply_service_health(con, r)
        return {(s.service, s.instance): s for s in service_states(con, now)}


def test_the_latest_report_counts_and_an_older_one_replayed_changes_nothing(tmp_path):
    got = states(tmp_path, [report(at=NOW - timedelta(seconds=4)),
                            report(at=NOW - timedelta(seconds=1), healthy=False,
                                   stuck_consumers=("floor.table.commands",)),
                            report(at=NOW - timedelta(seconds=4))])
    s = got["table-service", "h/1/a"]
    assert (s.state, s.stuck_consumers, s.age_seconds) == (
        "UNHEALTHY", ["floor.table.commands"], 1.0)


def test_no_report_for_three_periods_is_stale(tmp_path):
    limit = STALE_AFTER_PERIODS * 5
    got = states(tmp_path, [report(at=NOW - timedelta(seconds=limit)),
                            report("projector", at=NOW - timedelta(seconds=limit + 1))])
    assert got["table-service", "h/1/a"].state == "ok"
    assert got["projector", "h/1/a"].state == "stale"


def test_a_long_dead_instance_is_dropped_once_a_newer_one_reports_but_never_the_last(tmp_path):
    old = NOW - FORGET_AFTER - timedelta(seconds=1)
    got = states(tmp_path, [report(instance="old", at=old), report(instance="new"),
                            report("vision-service", instance="only", at=old)])
    assert set(got) == {("table-service", "new"), ("vision-service", "only")}
    assert got["vision-service", "only"].state == "stale"

"""Every floor service's latest health report (ServiceHealth on floor.health), for the floor
dashboard: healthy, unhealthy (a consumer stuck or lagging, with which) or stale (no report for
STALE_AFTER_PERIODS of its periods: killed, or its loop blocked)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

import duckdb

from contracts.health import ServiceHealth
from services.runtime.health import STALE_AFTER_PERIODS

# An instance stale this long is dropped from the page when a newer one of its service reports
# (a restart: the old process is gone); the latest instance of a service is always shown.
FORGET_AFTER = timedelta(minutes=15)

UPSERT = """
INSERT INTO service_health VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (service, instance) DO UPDATE SET reported_at = excluded.reported_at,
    healthy = excluded.healthy, stuck_consumers = excluded.stuck_consumers,
    lagging_partitions = excluded.lagging_partitions, every_seconds = excluded.every_seconds,
    status_url = excluded.status_url
WHERE excluded.reported_at >= service_health.reported_at
"""


def apply_service_health(con: duckdb.DuckDBPyConnection, h: ServiceHealth) -> None:
    """Keep the latest report of each instance (an older one, replayed, changes nothing)."""
    con.execute(UPSERT, [h.service, h.instance, h.reported_at, h.healthy,
                         json.dumps(list(h.stuck_consumers)), json.dumps(h.lagging_partitions),
                         h.every_seconds, h.status_url])


@dataclass(frozen=True)
class ServiceState:
    service: str
    instance: str
    reported_at: datetime
    healthy: bool
    stuck_consumers: list[str]
    lagging_partitions: dict[str, int]
    every_seconds: float
    status_url: str | None
    age_seconds: float

    @property
    def state(self) -> str:
        """ok, UNHEALTHY or stale."""
        if self.age_seconds > STALE_AFTER_PERIODS * self.every_seconds:
            return "stale"
        return "ok" if self.healthy else "UNHEALTHY"


def service_states(con: duckdb.DuckDBPyConnection, now: datetime) -> list[ServiceState]:
    rows = con.execute(
        "SELECT service, instance, reported_at, healthy, stuck_consumers, lagging_partitions, "
        "every_seconds, status_url, max(reported_at) OVER (PARTITION BY service) "
        "FROM service_health ORDER BY service, instance").fetchall()
    out = []
    for service, instance, at, healthy, stuck, lagging, every, url, newest in rows:
        if at < newest and now - at > FORGET_AFTER:
            continue
        out.append(ServiceState(service, instance, at, healthy, json.loads(stuck),
                                json.loads(lagging), every, url,
                                max(0.0, (now - at).total_seconds())))
    return out

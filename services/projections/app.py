"""Kafka wiring of the projector: table events, round checks, dead letters and the services'
health reports into the DuckDB file, one transaction per batch (offsets are committed only
after the transaction commits)."""
from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import duckdb

from contracts.deadletter import DeadLetter
from contracts.envelope import Event, Message
from contracts.health import ServiceHealth
from contracts.topics import (
    DEAD_LETTER_TOPIC,
    HEALTH_TOPIC,
    TABLE_EVENTS_TOPIC,
    VISION_CHECKS_TOPIC,
)
from services.projections import store
from services.projections.dashboard import dashboard_routes
from services.projections.health import apply_service_health
from services.projections.projector import ProjectionBatch, SequenceGap, apply_dead_letter
from services.runtime.bus import Bus, Rejected
from services.runtime.service import Service, run_service
from services.runtime.settings import Settings
from services.runtime.store import BatchContext

SERVICE = "projector"
# The database file away (disk full, unmounted): wait for it. Any other DuckDB error that keeps
# failing a batch (a constraint a bad event breaks) is the bus's poison path.
DISK_AWAY: tuple[type[BaseException], ...] = (duckdb.IOException,)
IDLE_RELEASE_SECONDS = 0.5   # let other processes read the file when there is nothing to do
# Under sustained load the projector keeps the file between batches (opening it costs tens of
# ms) and steps aside when another process asks (store.waiting_flag), or at the latest this
# often. Stepping aside every 5 s whether anyone waited or not was the floor's p99 latency.
MAX_HOLD_SECONDS = 30.0
STEP_ASIDE_SECONDS = 0.2


class ProjectorService:
    def __init__(self, bus: Bus, db_path: Path, evidence_dir: Path | None = None) -> None:
        self.bus, self.db_path = bus, db_path
        self.evidence_dir = evidence_dir or db_path.parent.parent / "evidence"
        self._con: duckdb.DuckDBPyConnection | None = None
        self._batch: ProjectionBatch | None = None
        self._lock = asyncio.Lock()
        self._opened_at = self._used_at = 0.0
        events = {kind: self.on_event for kind in TABLE_EVENTS_TOPIC.carries}
        checks = {kind: self.on_event for kind in VISION_CHECKS_TOPIC.carries}
        bus.consume([TABLE_EVENTS_TOPIC], SERVICE, events, context=self.transaction,
                    transient=DISK_AWAY,
                    description="Projects every table event into the reporting database.")
        bus.consume([VISION_CHECKS_TOPIC], f"{SERVICE}-checks", checks,
                    context=self.transaction, transient=DISK_AWAY,
                    description="Projects CCTV round checks and payout holds.")
        bus.consume([DEAD_LETTER_TOPIC], f"{SERVICE}-deadletters",
                    {DeadLetter: self.on_dead_letter}, context=self.transaction,
                    transient=DISK_AWAY,
                    description="Keeps dead letters visible on the floor dashboard.")
        bus.consume([HEALTH_TOPIC], f"{SERVICE}-health",
                    {ServiceHealth: self.on_health}, context=self.transaction,
                    transient=DISK_AWAY,
                    description="Keeps every service's latest health report for the "
                                "floor dashboard.")

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[BatchContext]:
        """One DuckDB transaction per consumed batch, on a connection held while busy
        (opening the file costs tens of milliseconds, more than a typical batch)."""
        async with self._lock:
            con = self._connection()
            con.begin()
            self._batch = ProjectionBatch(con)
            try:
                yield BatchContext()
                self._batch.flush()
                con.commit()
            except BaseException:
                con.rollback()
                raise
            finally:
                self._batch = None
                self._used_at = time.monotonic()
            flag = store.waiting_flag(self.db_path)
            if flag.exists() or self._used_at - self._opened_at > MAX_HOLD_SECONDS:
                flag.unlink(missing_ok=True)
                self._release()
                await asyncio.sleep(STEP_ASIDE_SECONDS)

    def _connection(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            self._con = store.open_db(self.db_path)
            self._opened_at = time.monotonic()
        return self._con

    def _release(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def close(self) -> None:
        self._release()

    async def release_when_idle(self, stop: asyncio.Event) -> None:
        """Background task: close the file when no batch came for a while."""
        while not stop.is_set():
            await asyncio.sleep(IDLE_RELEASE_SECONDS / 2)
            if self._con is not None and time.monotonic() - self._used_at > IDLE_RELEASE_SECONDS:
                async with self._lock:
                    self._release()

    async def on_event(self, message: Message, _ctx: BatchContext) -> None:
        assert isinstance(message, Event) and self._batch is not None
        try:
            if self._batch.apply(message):
                self.bus.stats["projected"] += 1
            else:
                self.bus.stats["duplicates"] += 1
        except SequenceGap as gap:
            raise Rejected("sequence_gap", str(gap)) from None

    async def on_dead_letter(self, message: Message, _ctx: BatchContext) -> None:
        assert isinstance(message, DeadLetter) and self._batch is not None
        apply_dead_letter(self._batch.con, message)

    async def on_health(self, message: Message, _ctx: BatchContext) -> None:
        assert isinstance(message, ServiceHealth) and self._batch is not None
        apply_service_health(self._batch.con, message)

    def status(self) -> dict[str, Any]:
        return {**self.bus.status(), "database": str(self.db_path)}


async def main(settings: Settings, db_path: Path, *, status_port: int = 0,
               evidence_dir: Path | None = None,
               stop: asyncio.Event | None = None,
               on_ready: Callable[[str], None] | None = None) -> None:
    """Run the projector (and the floor dashboard it serves) until stopped."""
    bus = Bus(settings, SERVICE)
    evidence_dir = evidence_dir or settings.var_dir / "evidence"
    service = ProjectorService(bus, db_path, evidence_dir)
    await run_service(Service(bus, status=service.status,
                              routes=dashboard_routes(db_path, evidence_dir),
                              tasks=[service.release_when_idle], cleanup=[service.close]),
                      status_port=status_port, stop=stop, on_ready=on_ready)

"""Kafka wiring of the projector: table events and dead letters into the DuckDB file, one
transaction per batch (offsets are committed only after the transaction commits)."""
from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import duckdb

from contracts.deadletter import DeadLetter
from contracts.envelope import Event, Message
from contracts.topics import DEAD_LETTER_TOPIC, TABLE_EVENTS_TOPIC
from services.projections import store
from services.projections.projector import ProjectionBatch, SequenceGap, apply_dead_letter
from services.projections.dashboard import dashboard_pages
from services.runtime.bus import Bus, Rejected
from services.runtime.service import run_service
from services.runtime.settings import Settings

SERVICE = "projector"


class ProjectorService:
    def __init__(self, bus: Bus, db_path: Path) -> None:
        self.bus, self.db_path = bus, db_path
        self._con: duckdb.DuckDBPyConnection | None = None
        self._batch: ProjectionBatch | None = None
        self._lock = asyncio.Lock()
        bus.consume(TABLE_EVENTS_TOPIC, group_id=SERVICE, handler=self.on_event,
                    around_batch=self.transaction,
                    description="Projects every table event into the reporting database.")
        bus.consume(DEAD_LETTER_TOPIC, group_id=f"{SERVICE}-deadletters",
                    handler=self.on_dead_letter, around_batch=self.transaction,
                    description="Keeps dead letters visible on the floor dashboard.")

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        async with self._lock:
            with store.connect(self.db_path) as con:
                con.begin()
                self._con, self._batch = con, ProjectionBatch(con)
                try:
                    yield
                    self._batch.flush()
                    con.commit()
                except BaseException:
                    con.rollback()
                    raise
                finally:
                    self._con = self._batch = None

    async def on_event(self, message: Message) -> None:
        assert isinstance(message, Event) and self._batch is not None
        try:
            if self._batch.apply(message):
                self.bus.stats["projected"] += 1
            else:
                self.bus.stats["duplicates"] += 1
        except SequenceGap as gap:
            raise Rejected("sequence_gap", str(gap)) from None

    async def on_dead_letter(self, message: Message) -> None:
        assert isinstance(message, DeadLetter) and self._con is not None
        apply_dead_letter(self._con, message)

    def status(self) -> dict[str, Any]:
        return {**self.bus.status(), "database": str(self.db_path)}


async def main(settings: Settings, db_path: Path, *, status_port: int = 0,
               stop: asyncio.Event | None = None,
               on_ready: Callable[[str], None] | None = None) -> None:
    """Run the projector (and the floor dashboard it serves) until stopped."""
    bus = Bus(settings, SERVICE)
    service = ProjectorService(bus, db_path)
    await run_service(bus, status=service.status, status_port=status_port,
                      pages=dashboard_pages(service), stop=stop, on_ready=on_ready)

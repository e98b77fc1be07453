"""Kafka wiring of the table service: rebuild every table from its log, then turn commands
into events. Thin on purpose: the decisions are in domain.py."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, AsyncIterator, Callable

from contracts.envelope import Command, Event, Message
from contracts.table import OpenTable
from contracts.topics import TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC
from services.runtime.aggregate import SequenceError
from services.runtime.bus import Bus, Rejected
from services.runtime.replay import replay
from services.runtime.service import run_service
from services.runtime.settings import Settings
from services.table.domain import TableSession

log = logging.getLogger(__name__)
SERVICE = "table-service"


class TableService:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.tables: dict[str, TableSession] = {}
        self.stale = False
        self._outbox: list[Event] = []
        bus.consume(TABLE_COMMANDS_TOPIC, group_id=SERVICE, handler=self.on_command,
                    around_batch=self.publishing,
                    description="Dealer-terminal and simulator commands for table sessions.")
        bus.declare_publisher(TABLE_EVENTS_TOPIC)

    async def rebuild(self) -> None:
        """Replay the table log: every table's state is the fold of its events."""
        tables: dict[str, TableSession] = {}
        count = 0
        async for event in replay(self.bus.settings.bootstrap, TABLE_EVENTS_TOPIC.name):
            table = tables.setdefault(event.aggregate_id, TableSession(event.aggregate_id))
            try:
                table.apply(event)
            except SequenceError as err:  # a duplicate in the log is harmless; report others
                if event.sequence > table.version:
                    log.error("table log has a gap", extra={"error": str(err)})
            count += 1
        self.tables, self.stale = tables, False
        log.info("tables rebuilt from the log", extra={"tables": len(tables), "events": count})

    async def on_command(self, command: Message) -> None:
        assert isinstance(command, Command)
        if self.stale:
            await self.rebuild()
        table = self.tables.get(command.target_id)
        if table is None:
            if not isinstance(command, OpenTable):
                raise Rejected("unknown_aggregate",
                               f"target_id: table {command.target_id!r} has never been opened")
            table = TableSession(command.target_id)
        events = table.handle(command)
        if not events:
            self.bus.stats["commands.duplicate"] += 1
            return
        self.tables[command.target_id] = table
        self._outbox.extend(events)

    @contextlib.asynccontextmanager
    async def publishing(self) -> AsyncIterator[None]:
        """Publish a whole batch's events at once, before its offsets are committed. If that
        fails, memory is ahead of the log: rebuild from the log before the redelivery (whose
        commands already in the log are then recognised and skipped)."""
        self._outbox = []
        try:
            yield
            await self.bus.publish(self._outbox)
        except BaseException:
            self.stale = True
            raise
        finally:
            self._outbox = []

    def status(self) -> dict[str, Any]:
        return {
            **self.bus.status(),
            "tables": {tid: {"version": t.version, "rounds_played": t.rounds_played,
                             "round": t.round.state.value if t.round else None,
                             "closed": t.closed, "prisoners": len(t.prisoners)}
                       for tid, t in sorted(self.tables.items())},
        }


async def main(settings: Settings, *, status_port: int = 0, stop: asyncio.Event | None = None,
               on_ready: Callable[[str], None] | None = None) -> None:
    """Run the table service until stopped."""
    bus = Bus(settings, SERVICE)
    service = TableService(bus)
    await run_service(bus, prepare=service.rebuild, status=service.status,
                      status_port=status_port, stop=stop, on_ready=on_ready)

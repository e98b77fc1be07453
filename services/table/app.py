"""Kafka wiring of the table service: rebuild every table from its log, then turn commands
into events, and the vision service's round checks into payout holds. Thin on purpose: the
decisions are in domain.py."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import Any, AsyncIterator, Callable

from contracts.envelope import Command, Event, Message, utcnow
from contracts.table import OpenTable
from contracts.topics import TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC, VISION_CHECKS_TOPIC
from contracts.vision import VerificationRequested, VerificationResolved
from services.runtime.aggregate import SequenceError
from services.runtime.bus import Bus, Rejected
from services.runtime.replay import replay
from services.runtime.service import run_service
from services.runtime.settings import Settings
from services.table.domain import TableSession

log = logging.getLogger(__name__)
SERVICE = "table-service"
# How often open payout holds are looked at; a hold is released up to this much before its
# deadline, so no payout is ever held past the 30 minutes.
HOLD_TICK = timedelta(seconds=5)


class TableService:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.tables: dict[str, TableSession] = {}
        self.stale = False
        self._outbox: list[Event] = []
        self._lock = asyncio.Lock()
        bus.consume(TABLE_COMMANDS_TOPIC, group_id=SERVICE, handler=self.on_command,
                    around_batch=self.publishing,
                    description="Dealer-terminal and simulator commands for table sessions.")
        bus.consume(VISION_CHECKS_TOPIC, group_id=f"{SERVICE}-holds", handler=self.on_check,
                    around_batch=self.publishing,
                    description="Holds a round's winning payouts while surveillance verifies "
                                "it on CCTV (VerificationRequested) and releases or re-settles "
                                "them (VerificationResolved); seed 002 §1.3, seed 004 RG §6.")
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
        table.handle(command)
        events = table.collect()
        if not events:
            self.bus.stats["commands.duplicate"] += 1
            return
        self.tables[command.target_id] = table
        self._outbox.extend(events)

    async def on_check(self, event: Message) -> None:
        """A round check of the vision service: hold or release that round's payouts. Checks of
        tables this service does not run (dice, another floor) are not ours."""
        if not isinstance(event, (VerificationRequested, VerificationResolved)):
            return
        if self.stale:
            await self.rebuild()
        table = self.tables.get(event.payload.table_id)
        if table is None:
            self.bus.stats["checks.not_our_table"] += 1
            return
        if isinstance(event, VerificationRequested):
            table.hold_payouts(event)
        else:
            table.resolve(event)
        events = table.collect()
        self.bus.stats["checks.handled" if events else "checks.nothing_to_do"] += 1
        self._outbox.extend(events)

    async def release_expiring_holds(self, stop: asyncio.Event) -> None:
        """Every HOLD_TICK, release the holds whose 30 minutes are about to end."""
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), HOLD_TICK.total_seconds())
            try:
                async with self.publishing():
                    if self.stale:
                        await self.rebuild()
                    now = utcnow()
                    for table in list(self.tables.values()):
                        table.release_expiring(now, margin=HOLD_TICK)
                        self._outbox.extend(table.collect())
            except Exception:  # the broker may be away for a moment; try again next tick
                log.exception("releasing expired holds failed; retrying")

    @contextlib.asynccontextmanager
    async def publishing(self) -> AsyncIterator[None]:
        """Publish a whole batch's events at once, before its offsets are committed. If that
        fails, memory is ahead of the log: rebuild from the log before the redelivery (whose
        commands already in the log are then recognised and skipped)."""
        async with self._lock:  # two subscriptions and the hold timer share tables and outbox
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
                             "closed": t.closed, "prisoners": len(t.prisoners),
                             "holds_open": sum(r.hold_open for r in t.rounds.values())}
                       for tid, t in sorted(self.tables.items())},
        }


async def main(settings: Settings, *, status_port: int = 0, stop: asyncio.Event | None = None,
               on_ready: Callable[[str], None] | None = None) -> None:
    """Run the table service until stopped."""
    bus = Bus(settings, SERVICE)
    service = TableService(bus)
    stop = stop or asyncio.Event()
    timer = asyncio.create_task(service.release_expiring_holds(stop))
    try:
        await run_service(bus, prepare=service.rebuild, status=service.status,
                          status_port=status_port, stop=stop, on_ready=on_ready)
    finally:
        stop.set()
        await timer

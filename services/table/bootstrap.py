"""The table service's composition root: its store of table sessions (with snapshots), one
consumer over the commands and the round checks (co-partitioned by table id, so the instance
that owns a partition owns its tables), the hold timer, and what run_service runs."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from contracts.envelope import utcnow
from contracts.topics import (
    TABLE_COMMANDS_TOPIC,
    TABLE_EVENTS_TOPIC,
    TABLE_SNAPSHOTS_TOPIC,
    VISION_CHECKS_TOPIC,
)
from services.runtime.bus import Bus
from services.runtime.service import Service, Task, every, run_service
from services.runtime.settings import Settings
from services.runtime.store import SNAPSHOT_EVERY, AggregateStore
from services.table import handlers
from services.table.domain import TableSession

SERVICE = "table-service"
# How often open payout holds are looked at (a hold is released up to HOLD_MARGIN before its
# deadline, so no payout is ever held past the 30 minutes). An instance that takes a table over
# (a restart, or a standby after the owner died) releases what is due at once, not at its next
# tick: the lateness of a release under a kill is then the group's takeover time (session
# timeout 6 s + the rebalance), measured by tests/e2e/test_hold_failover.py.
HOLD_TICK = timedelta(seconds=5)
# Released this long before its deadline: two ticks, so a tick that runs late (a busy event
# loop: seen 0.28 s late under load in tests/e2e/test_hold_failover.py) still releases every
# hold before its deadline rather than just after it. Early by at most 10 s of 30 minutes.
HOLD_MARGIN = 2 * HOLD_TICK


def build(settings: Settings, *, snapshot_every: int = SNAPSHOT_EVERY) -> Service:
    """The table service, wired and not started."""
    bus = Bus(settings, SERVICE)
    store = AggregateStore(factory=TableSession, aggregate_type="table",
                           events=TABLE_EVENTS_TOPIC, snapshots=TABLE_SNAPSHOTS_TOPIC, bus=bus,
                           snapshot_every=snapshot_every)
    bus.consume([TABLE_COMMANDS_TOPIC, VISION_CHECKS_TOPIC], SERVICE, handlers.HANDLERS,
                context=store.unit_of_work, owner=store,
                description="Dealer-terminal commands for table sessions, and the vision "
                            "service's round checks: a round under CCTV verification has its "
                            "winning payouts held (seed 002 §1.3, seed 004 RG §6).")
    bus.declare_publisher(TABLE_EVENTS_TOPIC)
    bus.declare_publisher(TABLE_SNAPSHOTS_TOPIC)

    return Service(bus, status=lambda: status(bus, store), tasks=[watch_holds(store)])


def watch_holds(store: AggregateStore[TableSession]) -> Task:
    """The hold timer: every HOLD_TICK, and at once when this instance takes tables over,
    release the payout holds that are due (seed 002 §1.3: never past the deadline)."""
    async def release_holds() -> None:
        async with store.unit_of_work() as uow:
            handlers.release_expiring_holds(uow, utcnow(), HOLD_MARGIN)

    async def release_taken_over(_partitions: set[int]) -> None:
        await release_holds()

    store.on_owned.append(release_taken_over)
    return every(HOLD_TICK, release_holds, "releasing expiring holds")


def status(bus: Bus, store: AggregateStore[TableSession]) -> dict[str, Any]:
    load = store.last_load
    return {
        **bus.status(),
        "partitions": sorted(store.owned),
        "last_load": None if load is None else {
            "partitions": load.partitions, "tables": load.aggregates,
            "snapshots": load.snapshots, "events_replayed": load.events,
            "seconds": round(load.seconds, 3)},
        "broken": store.broken,
        "tables": {tid: {"version": t.version, "rounds_played": t.rounds_played,
                         "round": t.round.state.value if t.round else None,
                         "closed": t.closed, "prisoners": len(t.prisoners),
                         "holds_open": sum(r.hold_open for r in t.rounds.values())}
                   for tid, t in sorted(store.aggregates.items())},
    }


async def main(settings: Settings, *, status_port: int = 0, stop: asyncio.Event | None = None,
               on_ready: Callable[[str], None] | None = None,
               snapshot_every: int = SNAPSHOT_EVERY) -> None:
    """Run the table service until stopped."""
    await run_service(build(settings, snapshot_every=snapshot_every), status_port=status_port,
                      stop=stop, on_ready=on_ready)

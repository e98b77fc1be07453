"""How long a table service takes to get its tables back, as history grows: with snapshot blocks
(the runtime's store) against a full replay of the log, at 100k and 1M table events.

The history is made the way the service makes it: simulated dealer commands for 20 tables go
through the table service's own handlers and unit of work (as the consumer would hand them
over), which publish the events to the broker and write a snapshot block every 5,000 events
per partition. At each size a fresh store loads every partition: once from the snapshots, once
from the whole log (no snapshots), and the wall time and what was read are recorded.
"""
from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from contracts.topics import TABLE_EVENTS_TOPIC, TABLE_SNAPSHOTS_TOPIC, partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker
from services.runtime.bus import Bus
from services.runtime.settings import Settings
from services.runtime.store import SNAPSHOT_EVERY, AggregateStore
from services.simulator.floor import make_tables, open_table, round_commands, seat_players
from services.table import handlers
from services.table.domain import TableSession

TABLES = 20
SIZES = (100_000, 300_000, 1_000_000)
LOADS = 3  # restarts from the snapshots per size; the median is reported (the machine drifts)
BATCH_ROUNDS = 20  # rounds per unit of work, as a consumed batch of ~300 commands would be


def store(settings: Settings, bus: Bus | None, snapshots: bool) -> AggregateStore[TableSession]:
    return AggregateStore(factory=TableSession, aggregate_type="table", events=TABLE_EVENTS_TOPIC,
                          snapshots=TABLE_SNAPSHOTS_TOPIC if snapshots else None, bus=bus,
                          bootstrap=settings.bootstrap, snapshot_every=SNAPSHOT_EVERY)


async def grow(writer: AggregateStore[TableSession], floor: list, rng: random.Random,
               until: int) -> int:
    """Play rounds through the handlers until the events topic holds `until` events."""
    written = sum(writer.next_offset.values())
    while written < until:
        async with writer.unit_of_work() as uow:
            for _ in range(BATCH_ROUNDS):
                table = floor[rng.randrange(len(floor))]
                for command in round_commands(table, rng):
                    handlers.HANDLERS[type(command)](command, uow)
                    uow.keep()
        written = sum(writer.next_offset.values())
        print(f"  history: {written:,} events", end="\r", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return written


async def timed_load(settings: Settings, snapshots: bool) -> dict[str, float]:
    fresh = store(settings, None, snapshots)
    started = time.perf_counter()
    await fresh.own_all()
    seconds = time.perf_counter() - started
    report = fresh.last_load
    assert report is not None
    return {"seconds": seconds, "events": report.events, "snapshots": report.snapshots,
            "tables": report.aggregates, "snapshot_seconds": report.snapshot_seconds,
            "replay_seconds": report.seconds - report.snapshot_seconds}


async def median_load(settings: Settings) -> dict[str, Any]:
    loads = sorted([await timed_load(settings, True) for _ in range(LOADS)],
                   key=lambda r: r["seconds"])
    return {**loads[len(loads) // 2], "all": [r["seconds"] for r in loads]}


async def measure(settings: Settings) -> list[tuple[int, dict, dict]]:
    bus = Bus(settings, "bench-restart")
    await bus.broker.connect()
    writer = store(settings, bus, snapshots=True)
    await writer.own_all()
    floor = make_tables(TABLES)
    rng = random.Random(2026)
    async with writer.unit_of_work() as uow:
        for table in floor:
            for command in [open_table(table), *seat_players(table)]:
                handlers.HANDLERS[type(command)](command, uow)
                uow.keep()
    rows = []
    try:
        for size in SIZES:
            total = await grow(writer, floor, rng, size)
            print(f"  loading {total:,} events…", file=sys.stderr)
            rows.append((total, await median_load(settings),
                         await timed_load(settings, False)))
    finally:
        await bus.broker.stop()
    return rows


HEADER = ("| table events in the log | restart with snapshots (median of 3) "
          "| of which: snapshot blocks (time, aggregates) "
          "| of which: events after them (time, events) | restart by full replay |\n"
          "|---:|---:|---:|---:|---:|")


def run() -> str:
    with tempfile.TemporaryDirectory() as tmp, \
            EmbeddedBroker(Path(tmp) / "broker", durable=False) as broker:
        ensure_topics(broker.bootstrap, partition_counts())
        rows = asyncio.run(measure(Settings(bootstrap=broker.bootstrap, var_dir=Path(tmp))))
    lines = [f"| {total:,} | **{s['seconds']:.2f} s** (runs: "
             f"{', '.join(f'{x:.2f}' for x in s['all'])}) | {s['snapshot_seconds']:.2f} s, "
             f"{s['snapshots']:.0f} | {s['replay_seconds']:.2f} s, {s['events']:,.0f} | "
             f"{f['seconds']:.2f} s ({f['events']:,.0f} events, "
             f"{f['events'] / f['seconds']:,.0f}/s) |"
             for total, s, f in rows]
    (small, s1, _), (big, s2, f2) = rows[0], rows[-1]
    return f"""Table-service restart: a fresh store loads every partition of `floor.table.events`
({TABLES} tables, roulette, played through the table service's own handlers and unit of work,
which write a snapshot block every {SNAPSHOT_EVERY:,} events per partition). Embedded broker,
memory storage, one process.

{HEADER}
{chr(10).join(lines)}

- With snapshots, going from {small:,} to {big:,} events ({big / small:.0f}x the history)
  changed the restart time by **{s2['seconds'] / s1['seconds']:.2f}x** ({s1['seconds']:.2f} s →
  {s2['seconds']:.2f} s): it reads the last block and at most about {SNAPSHOT_EVERY:,} events
  per partition, whatever the history. What still varies is how far each partition is past
  its last block (0 to {SNAPSHOT_EVERY:,} events) and the machine's load.
- A full replay of {big:,} events took {f2['seconds']:.1f} s; at that rate a year of a 20-table
  floor (about 75 M events) would take {75e6 / (f2['events'] / f2['seconds']) / 60:.0f} minutes.
"""

"""`casino audit`: check the event log's hash chains, and resolve a forked stream.

- `casino audit verify [--table ID] [--json]` reads the raw event topics (floor.table.events,
  floor.vision.checks, floor.audit, and the wheel and dice logs) from the broker to their high
  watermark, recomputes every aggregate's hash chain (services/runtime/chain.py) and checks
  each snapshot's recorded chain head (the checkpoints) against it. It reports the first broken
  link of each aggregate — topic, partition, offset, aggregate, sequence, expected and found —
  and exits 1 if there is one.
- `casino audit resolve-fork --table ID --note TEXT --by EMPLOYEE --role ROLE` records that a
  supervisor looked at a table's StreamForked alarms and decided (StreamForkResolved on
  floor.audit); only a role allowed `ResolveStreamFork` (contracts/permissions.py) may.
"""
from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

import click
from pydantic import ValidationError

from contracts.audit import StreamForkResolved, StreamForkResolvedData
from contracts.chain import seal
from contracts.codec import describe
from contracts.envelope import Actor, new_id, utcnow
from contracts.permissions import PERMISSIONS, RESOLVE_FORK, may
from contracts.topics import (
    AUDIT_TOPIC,
    DICE_EVENTS_TOPIC,
    TABLE_EVENTS_TOPIC,
    TABLE_SNAPSHOTS_TOPIC,
    VISION_CHECKS_TOPIC,
    WHEEL_EVENTS_TOPIC,
    TopicSpec,
    partition_for,
)
from services.runtime.chain import ChainReport, ChainVerifier
from services.runtime.settings import Settings

if TYPE_CHECKING:
    from services.runtime.replay import LogReader

# The topics of aggregates' events (the device logs are keyed by serial: --table skips them).
DEVICE_TOPICS = (WHEEL_EVENTS_TOPIC, DICE_EVENTS_TOPIC)
CHAINED_TOPICS = (TABLE_EVENTS_TOPIC, VISION_CHECKS_TOPIC, AUDIT_TOPIC, *DEVICE_TOPICS)
TIMEOUT_SECONDS = 600.0
BOOTSTRAP = click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", default=None,
                         metavar="HOST:PORT", help="Kafka bootstrap servers (or "
                         "KAFKA_BOOTSTRAP_SERVERS; default 127.0.0.1:9092).")


@click.group()
def audit() -> None:
    """Check the event log's hash chains; resolve a forked stream."""


@audit.command()
@click.option("--table", "table_id", default=None, help="Only this table's streams (its "
              "session and its round checks).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: counts, first break, "
              "every aggregate's first break.")
@BOOTSTRAP
def verify(table_id: str | None, as_json: bool, bootstrap: str | None) -> None:
    """Recompute every hash chain from the raw topics; exit 1 on a broken link."""
    settings = Settings.from_env(bootstrap)
    try:
        report = asyncio.run(asyncio.wait_for(read_and_verify(settings.bootstrap, table_id),
                                              TIMEOUT_SECONDS))
    except Exception as err:  # broker unreachable: say so, exit non-zero
        raise click.ClickException(f"could not read the log at {settings.bootstrap}: "
                                   f"{type(err).__name__}: {err}") from None
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        click.echo(render(report, table_id))
    if not report.ok:
        raise SystemExit(1)


async def read_and_verify(bootstrap: str, table_id: str | None = None) -> ChainReport:
    """Read the chained topics (then the snapshots) to their high watermark and verify."""
    from contracts import DecodeError, decode
    from contracts.snapshots import AggregateSnapshot
    from services.runtime.replay import LogReader

    verifier = ChainVerifier(table_id)
    async with LogReader(bootstrap) as reader:
        for topic in CHAINED_TOPICS:
            if table_id and topic in DEVICE_TOPICS:
                continue
            for p in await _partitions(reader, topic, table_id):
                first, _ = await reader.bounds(topic.name, p)
                async for record in reader.records(topic.name, p, 0):
                    verifier.record(topic.name, p, record.offset, record.value,
                                    log_complete=first == 0)
        topic = TABLE_SNAPSHOTS_TOPIC
        for p in await _partitions(reader, topic, table_id):
            async for record in reader.records(topic.name, p, 0):
                try:
                    snap = decode(record.value)
                except DecodeError:
                    continue
                if isinstance(snap, AggregateSnapshot):
                    verifier.checkpoint(topic.name, p, record.offset, snap)
    return verifier.report


async def _partitions(reader: LogReader, topic: TopicSpec, table_id: str | None) -> list[int]:
    found = await reader.partitions(topic.name)
    if table_id is None:
        return list(found)
    mine = partition_for(table_id, topic.partitions)
    return [p for p in found if p == mine]


def render(report: ChainReport, table_id: str | None) -> str:
    scope = f"table {table_id}" if table_id else "every table"
    lines = [f"Hash chains of {scope}: {report.events} events of {len(report.aggregates)} "
             f"aggregates ({report.hashed} hashed, {report.unhashed} from before the chain, "
             f"{report.redeliveries} identical redeliveries); {report.checkpoints} snapshot "
             f"checkpoints."]
    first = report.first_break()
    if first is None:
        lines.append("OK: every chain holds.")
        return "\n".join(lines)
    lines.append(f"BROKEN: {len(report.breaks)} aggregate(s). First broken link:")
    lines.append("  " + first.describe())
    for b in report.breaks:
        if b is not first:
            lines.append("  " + b.describe())
    return "\n".join(lines)


@audit.command("resolve-fork")
@click.option("--table", "table_id", required=True, help="The table whose alarms are resolved.")
@click.option("--note", required=True, help="What was found and decided (which version holds).")
@click.option("--by", "by", required=True, metavar="EMPLOYEE", help="Your employee id.")
@click.option("--role", required=True, type=click.Choice(sorted(PERMISSIONS)),
              help=f"Your role; one allowed {RESOLVE_FORK}: "
                   f"{', '.join(r for r in sorted(PERMISSIONS) if may(r, RESOLVE_FORK))}.")
@BOOTSTRAP
def resolve_fork(table_id: str, note: str, by: str, role: str, bootstrap: str | None) -> None:
    """Resolve the table's StreamForked alarms: its figures count as reliable again (the
    projector clears the alarms open when it applies the resolution)."""
    if not may(role, RESOLVE_FORK):
        allowed = ", ".join(r for r in sorted(PERMISSIONS) if may(r, RESOLVE_FORK))
        raise click.ClickException(f"FORBIDDEN: role {role} may not resolve a forked stream "
                                   f"({RESOLVE_FORK} is for {allowed})")
    event = resolution(table_id, note, by, role)
    settings = Settings.from_env(bootstrap)
    try:
        asyncio.run(asyncio.wait_for(_publish(settings, event), 15.0))
    except Exception as err:
        raise click.ClickException(f"could not send to Kafka at {settings.bootstrap}: "
                                   f"{type(err).__name__}: {err}") from None
    click.echo(f"sent StreamForkResolved {event.aggregate_id}: table {table_id}, by {by} "
               f"({role})")


def resolution(table_id: str, note: str, by: str, role: str) -> StreamForkResolved:
    """The StreamForkResolved event (its own aggregate, sequence 1, sealed into a chain)."""
    try:
        actor = Actor(employee_id=by, role=role)
        rid = f"fork-resolution.{new_id()}"
        return seal(StreamForkResolved(
            aggregate_id=rid, sequence=1, occurred_at=utcnow(), producer="casino audit",
            correlation_id=rid, actor=actor, partition_key=table_id,
            payload=StreamForkResolvedData(table_id=table_id, note=note)))
    except ValidationError as err:
        raise click.BadParameter(describe(err)) from None


async def _publish(settings: Settings, event: StreamForkResolved) -> None:
    from services.runtime.bus import Bus
    bus = Bus(settings, "audit-cli")
    try:
        await bus.broker.connect()
        await bus.publish([event])
    finally:
        await bus.stop()

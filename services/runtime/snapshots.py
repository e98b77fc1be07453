"""Writing and finding snapshot blocks (contracts/snapshots.py): a restart reads the last
Checkpoint of a partition and the block before it, then replays only the events after it."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from contracts import DecodeError, decode
from contracts.snapshots import AggregateSnapshot, Checkpoint
from contracts.topics import TopicSpec
from services.runtime.replay import LogReader

log = logging.getLogger(__name__)
# How far back from the end to look for the last Checkpoint, growing by 8x per try. A block is
# written whole, so the Checkpoint is normally the very last record.
FIRST_LOOK_BACK = 64


@dataclass(frozen=True)
class Restored:
    """The latest usable block of one partition."""

    events_offset: int
    snapshots: dict[str, AggregateSnapshot]


def block(aggregate_type: str, state_version: int, snaps: dict[str, tuple[int, dict[str, Any]]],
          ) -> list[AggregateSnapshot]:
    """Snapshot records for {aggregate id: (version, aggregate.snapshot())}."""
    return [AggregateSnapshot(aggregate_type=aggregate_type, aggregate_id=aid, version=version,
                              state_version=state_version, state_z=AggregateSnapshot.pack(snap))
            for aid, (version, snap) in sorted(snaps.items())]


async def latest(reader: LogReader, topic: TopicSpec, partition: int,
                 state_version: int) -> Restored | None:
    """The last complete block of `partition`, or None (no block, or another state layout:
    the caller replays the whole log)."""
    checkpoint = await _last_checkpoint(reader, topic, partition)
    if checkpoint is None:
        return None
    offset, mark = checkpoint
    if mark.state_version != state_version:
        log.info("snapshot of another state version ignored",
                 extra={"partition": partition, "found": mark.state_version,
                        "wanted": state_version})
        return None
    snaps: dict[str, AggregateSnapshot] = {}
    async for record in reader.records(topic.name, partition, mark.first_offset, stop=offset):
        try:
            snap = decode(record.value)
        except DecodeError:
            continue
        if isinstance(snap, AggregateSnapshot):
            snaps[snap.aggregate_id] = snap
    if len(snaps) != mark.snapshots:
        log.warning("snapshot block incomplete; replaying the whole log",
                    extra={"partition": partition, "found": len(snaps), "expected": mark.snapshots})
        return None
    return Restored(mark.events_offset, snaps)


async def _last_checkpoint(reader: LogReader, topic: TopicSpec,
                           partition: int) -> tuple[int, Checkpoint] | None:
    first, end = await reader.bounds(topic.name, partition)
    look_back = FIRST_LOOK_BACK
    while True:
        start = max(first, end - look_back)
        found: tuple[int, Checkpoint] | None = None
        async for record in reader.records(topic.name, partition, start):
            try:
                message = decode(record.value)
            except DecodeError:
                continue
            if isinstance(message, Checkpoint) and message.partition == partition:
                found = (record.offset, message)
        if found is not None or start <= first:
            return found
        look_back *= 8

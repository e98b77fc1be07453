"""The aggregate store and its unit of work: the one way a service keeps aggregates.

- **Rebuild from the log, one gap policy.** `load(partitions)` restores each partition from its
  latest snapshot block (if any) and replays the events after it. An event at or below an
  aggregate's version is a redelivery (skipped); one beyond the next is a gap: that aggregate is
  marked broken, logged, and every later message for it is dead-lettered — never silently
  applied or skipped. A forked log (two writers of one aggregate) is followed along the chain
  of the version first written, as the projector does: the other writer's events (at sequences
  already applied, and those naming them as predecessors) are skipped and logged, so the
  aggregate carries on from the first version's head and its next events project.
- **A unit of work per consumed batch.** `async with store.unit_of_work() as uow:` hands out
  aggregates; after each message `keep()` collects what it triggered, and on leaving the block
  the events are published (in order, to the partition of their key) before the batch's offsets
  are committed. If a message fails (a handler bug, a rejection), `discard()` throws away the
  aggregates it touched and reloads their partitions from the log; if publishing fails, the
  touched partitions are reloaded before the next batch.
- **Partition ownership.** With `own()`/`release()` (called on consumer-group rebalances) a
  service instance holds only the aggregates of the partitions assigned to it; it finishes and
  publishes its in-flight batch (the store's lock) before giving a partition up.
- **Snapshots.** Every `snapshot_every` events in a partition, a block of snapshots is written
  (snapshots.py), so a restart costs the snapshot plus the events after it, not the history.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Generic,
    Protocol,
    TypeVar,
)

from contracts.envelope import Event
from contracts.snapshots import Checkpoint
from contracts.topics import Keyed, TopicSpec, partition_for
from services.runtime.aggregate import Aggregate, SequenceError
from services.runtime.replay import LogReader
from services.runtime.snapshots import block, latest

if TYPE_CHECKING:
    from aiokafka.structs import RecordMetadata

log = logging.getLogger(__name__)
A = TypeVar("A", bound=Aggregate)
SNAPSHOT_EVERY = 5_000  # events per partition between snapshot blocks


class Publisher(Protocol):
    """What the store needs of a bus: publish and read the log (runtime.bus.Bus, or the
    in-memory one of handler tests, runtime.testing.MemoryBus)."""

    async def publish(self, messages: Sequence[Keyed]) -> list[RecordMetadata]: ...

    async def publish_records(self, records: Sequence[Keyed], topic: TopicSpec,
                              partition: int) -> list[RecordMetadata]: ...

    def reader(self) -> LogReader: ...


class AggregateBroken(Exception):
    """The log of this aggregate has a gap: it is not used until someone repairs it."""

    def __init__(self, aggregate_id: str, reason: str) -> None:
        super().__init__(f"{aggregate_id}: {reason}")
        self.aggregate_id, self.reason = aggregate_id, reason


class BatchContext:
    """What a consumer's batch runs in; the bus calls keep() after each handled message and
    discard() after a failed one. The base does nothing (e.g. a projector's transaction)."""

    def keep(self) -> None:
        """The message was handled: keep what it did."""

    async def discard(self) -> None:
        """The message failed: undo what it did to memory."""


@dataclass
class LoadReport:
    partitions: list[int]
    aggregates: int = 0
    snapshots: int = 0
    events: int = 0
    seconds: float = 0.0
    snapshot_seconds: float = 0.0   # finding and reading the snapshot blocks
    broken: list[str] = field(default_factory=list)


class AggregateStore(Generic[A]):
    def __init__(self, *, factory: Callable[[str], A], aggregate_type: str, events: TopicSpec,
                 bus: Publisher | None = None, bootstrap: str | None = None,
                 snapshots: TopicSpec | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        """`bus` publishes the events; without one the store is read-only (a dealer
        terminal's view of the tables) and reads the log at `bootstrap`."""
        self.factory, self.aggregate_type, self.events = factory, aggregate_type, events
        kind = type(factory("-"))  # the aggregate class, for its snapshot support and layout
        self.state_version = kind.STATE_VERSION
        self.snapshots_on = snapshots is not None and kind.snapshots_supported()
        self.bootstrap = bootstrap
        self.bus, self.snapshots, self.snapshot_every = bus, snapshots, snapshot_every
        self.aggregates: dict[str, A] = {}
        self.partition_of: dict[str, int] = {}
        self.broken: dict[str, str] = {}
        self.owned: set[int] = set()
        self.next_offset: dict[int, int] = {}       # events partition -> next offset to read
        self.since_snapshot: Counter[int] = Counter()
        self.last_load: LoadReport | None = None
        self.lock = asyncio.Lock()
        self._stale: set[int] = set()
        # while loading: per aggregate, the hashes of a forked log's other version
        self._off_chain: dict[str, set[str]] = {}
        # Run (as tasks, outside the lock) once newly owned partitions are loaded: what the
        # previous owner may have left due while it was dying (a table's expired payout holds).
        self.on_owned: list[Callable[[set[int]], Awaitable[None]]] = []
        self._hooks: set[asyncio.Task[None]] = set()

    # ----- ownership ----------------------------------------------------------------------
    async def own(self, partitions: set[int]) -> None:
        """The partitions assigned to this instance (all of them for a single instance): drop
        the aggregates of the others, load the new ones from the log."""
        async with self.lock:
            self._forget(self.owned - partitions)
            new = partitions - self.owned
            self.owned = set(partitions)
            if new:
                await self._load(new)
        if new:
            self._after_owning(new)

    async def adopt(self, partitions: set[int]) -> None:
        """Inside a unit of work (the lock held): own `partitions` too, loading them. For
        partitions the consumer already reads whose rebalance callback has not run yet
        (aiokafka fetches for a new assignment before it awaits the listener); the callback
        then finds them loaded."""
        new = partitions - self.owned
        if new:
            self.owned |= new
            await self._load(new)
            self._after_owning(new)

    def _after_owning(self, partitions: set[int]) -> None:
        """Start the on_owned hooks; not awaited here, so a rebalance is never held up."""
        for hook in self.on_owned:
            task = asyncio.ensure_future(hook(set(partitions)))
            self._hooks.add(task)
            task.add_done_callback(self._hook_done)

    def _hook_done(self, task: asyncio.Task[None]) -> None:
        self._hooks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("on_owned hook failed", exc_info=task.exception())

    async def own_all(self) -> None:
        async with self._reader() as reader:
            partitions = set(await reader.partitions(self.events.name))
        await self.own(partitions)

    async def release(self, partitions: set[int]) -> None:
        """Give partitions up: wait for the in-flight batch (the lock), snapshot what changed
        so the next owner starts fast, then forget them."""
        async with self.lock:
            for p in sorted(partitions & self.owned):
                with contextlib.suppress(Exception):  # a snapshot is only a speed-up
                    await self._checkpoint(p, force=self.since_snapshot[p] > 0)
            self._forget(partitions)
            self.owned -= partitions

    def _forget(self, partitions: set[int]) -> None:
        for aid in [a for a, p in self.partition_of.items() if p in partitions]:
            self.aggregates.pop(aid, None)
            self.partition_of.pop(aid, None)
            self.broken.pop(aid, None)
        for p in partitions:
            self.next_offset.pop(p, None)
            self.since_snapshot.pop(p, None)
            self._stale.discard(p)

    # ----- loading --------------------------------------------------------------------------
    async def _load(self, partitions: set[int]) -> LoadReport:
        started = time.perf_counter()
        report = LoadReport(sorted(partitions))
        self._forget(partitions)
        self._off_chain = {}
        async with self._reader() as reader:
            for p in sorted(partitions):
                began = time.perf_counter()
                start = await self._restore_snapshots(reader, p, report)
                report.snapshot_seconds += time.perf_counter() - began
                self.next_offset[p], replayed = start, 0
                async for offset, event in reader.messages(self.events.name, p, start):
                    if isinstance(event, Event):
                        self._replay(event, p, report)
                    self.next_offset[p] = offset + 1
                    replayed += 1
                self.since_snapshot[p] = replayed
                report.events += replayed
        report.aggregates = sum(1 for p in self.partition_of.values() if p in partitions)
        report.seconds = time.perf_counter() - started
        self.last_load = report
        log.info("aggregates loaded from the log", extra={
            "aggregate_type": self.aggregate_type, "partitions": report.partitions,
            "aggregates": report.aggregates, "snapshots": report.snapshots,
            "events_replayed": report.events, "seconds": round(report.seconds, 3),
            "snapshot_seconds": round(report.snapshot_seconds, 3)})
        for p in sorted(partitions):  # a long replay is not paid twice
            with contextlib.suppress(Exception):
                await self._checkpoint(p, force=False)
        return report

    async def _restore_snapshots(self, reader: LogReader, partition: int,
                                 report: LoadReport) -> int:
        """Aggregates of `partition` from its latest snapshot block; the event offset to
        replay from (0 without a usable block)."""
        if not self.snapshots_on or self.snapshots is None:
            return 0
        found = await latest(reader, self.snapshots, partition, self.state_version)
        if found is None:
            return 0
        for aid, snap in found.snapshots.items():
            self.aggregates[aid] = self.factory(aid).load_snapshot(snap.version, snap.state())
            self.partition_of[aid] = partition
            report.snapshots += 1
        return found.events_offset

    def _replay(self, event: Event, partition: int, report: LoadReport) -> None:
        aid = event.aggregate_id
        if aid in self.broken:
            return
        aggregate = self.aggregates.get(aid)
        if aggregate is None:
            aggregate = self.aggregates[aid] = self.factory(aid)
            self.partition_of[aid] = partition
        if event.sequence <= aggregate.version:
            # already applied (a snapshot covers it, or a redelivered copy), or another
            # writer's event at that sequence: what names it as predecessor is off the chain
            if event.hash is not None and event.hash != aggregate.last_hash:
                self._off_chain.setdefault(aid, set()).add(event.hash)
            return
        if event.prev_hash is not None and event.prev_hash != aggregate.last_hash \
                and event.prev_hash in self._off_chain.get(aid, ()):
            assert event.hash is not None  # it names a predecessor: it is sealed
            self._off_chain[aid].add(event.hash)
            log.error("forked log: another writer's event skipped (its chain left this "
                      "aggregate's at an earlier sequence)", extra={
                          "aggregate_id": aid, "sequence": event.sequence,
                          "prev_hash": event.prev_hash, "head": aggregate.last_hash})
            return
        try:
            aggregate.apply(event)
        except SequenceError as err:
            self.broken[aid] = f"the log has a gap: {err}"
            self.aggregates.pop(aid, None)
            report.broken.append(aid)
            log.error("aggregate log has a gap; its messages will be dead-lettered",
                      extra={"aggregate_id": aid, "error": str(err)})

    # ----- units of work ------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def unit_of_work(self) -> AsyncIterator[UnitOfWork[A]]:
        async with self.lock:
            if self._stale:
                await self._load(set(self._stale))
                self._stale.clear()
            uow = UnitOfWork(self)
            try:
                yield uow
                await uow.commit()
            except BaseException:
                uow.keep()
                self._stale |= uow.touched_partitions() & self.owned  # memory may be ahead
                raise

    def get(self, aggregate_id: str) -> A | None:
        if aggregate_id in self.broken:
            raise AggregateBroken(aggregate_id, self.broken[aggregate_id])
        return self.aggregates.get(aggregate_id)

    def partition(self, key: str) -> int:
        return partition_for(key, self.events.partitions)

    def owns(self, key: str) -> bool:
        return self.partition(key) in self.owned

    async def _publish(self, events: list[Event]) -> None:
        assert self.bus is not None, "a read-only store cannot publish"
        for meta in await self.bus.publish(events):
            if meta.topic == self.events.name:
                self.next_offset[meta.partition] = max(self.next_offset.get(meta.partition, 0),
                                                       meta.offset + 1)
                self.since_snapshot[meta.partition] += 1

    async def _checkpoint(self, partition: int, force: bool) -> None:
        """Write a snapshot block of `partition` when enough events passed (or `force`)."""
        if (not self.snapshots_on or self.snapshots is None or self.bus is None
                or partition in self._stale):
            return
        if not force and self.since_snapshot[partition] < self.snapshot_every:
            return
        snaps = {aid: (a.version, a.snapshot()) for aid, a in self.aggregates.items()
                 if self.partition_of.get(aid) == partition and a.version > 0}
        records = block(self.aggregate_type, self.state_version, snaps)
        metas = await self.bus.publish_records(records, self.snapshots, partition)
        first = metas[0].offset if metas else 0
        await self.bus.publish_records([Checkpoint(
            aggregate_type=self.aggregate_type, events_topic=self.events.name,
            partition=partition, events_offset=self.next_offset.get(partition, 0),
            first_offset=first, snapshots=len(records), state_version=self.state_version)],
            self.snapshots, partition)
        self.since_snapshot[partition] = 0
        log.info("snapshot block written", extra={"partition": partition,
                                                   "aggregates": len(records)})

    def _reader(self) -> LogReader:
        """The log: through the bus (a real broker, or the in-memory one of handler tests),
        or, for a read-only store, the broker at `bootstrap`."""
        if self.bus is not None:
            return self.bus.reader()
        if not self.bootstrap:
            raise ValueError("bootstrap: the store has no broker to read its log from")
        return LogReader(self.bootstrap)


class UnitOfWork(BatchContext, Generic[A]):
    """The aggregates one batch touches, and the events they triggered."""

    def __init__(self, store: AggregateStore[A]) -> None:
        self.store = store
        self.outbox: list[Event] = []
        self._touched: dict[str, A] = {}   # by the message being handled
        self._batch: set[str] = set()      # by the whole batch

    def get(self, aggregate_id: str) -> A | None:
        aggregate = self.store.get(aggregate_id)
        if aggregate is not None:
            self._touch(aggregate)
        return aggregate

    def create(self, aggregate_id: str) -> A:
        """A new aggregate; it joins the store when it has triggered an event."""
        if self.store.get(aggregate_id) is not None:
            raise ValueError(f"aggregate_id: {aggregate_id} already exists")
        aggregate = self.store.factory(aggregate_id)
        self._touch(aggregate)
        return aggregate

    def get_or_create(self, aggregate_id: str) -> A:
        return self.get(aggregate_id) or self.create(aggregate_id)

    def each(self) -> Iterator[A]:
        """Every aggregate this instance holds (e.g. for a timer)."""
        for aggregate in list(self.store.aggregates.values()):
            self._touch(aggregate)
            yield aggregate

    def _touch(self, aggregate: A) -> None:
        self._touched[aggregate.id] = aggregate
        self._batch.add(aggregate.id)

    def keep(self) -> None:
        for aggregate in self._touched.values():
            events = aggregate.collect()
            if events:
                self.store.aggregates.setdefault(aggregate.id, aggregate)
                self.store.partition_of.setdefault(aggregate.id,
                                                   self.store.partition(events[0].key))
                self.outbox.extend(events)
        self._touched.clear()

    async def discard(self) -> None:
        """Throw away what the failed message did: publish what earlier messages of the batch
        decided, then reload the touched aggregates' partitions from the log."""
        partitions = {self.store.partition_of[a] for a in self._touched
                      if a in self.store.partition_of}
        for aggregate in self._touched.values():
            aggregate.collect()
        self._touched.clear()
        await self.flush()
        if partitions:
            await self.store._load(partitions & self.store.owned or partitions)

    async def flush(self) -> None:
        outbox, self.outbox = self.outbox, []
        if outbox:
            await self.store._publish(outbox)

    async def commit(self) -> None:
        self.keep()
        await self.flush()
        for p in sorted(self.touched_partitions()):
            try:
                await self.store._checkpoint(p, force=False)
            except Exception:  # a snapshot only speeds a restart up: never fail the batch
                log.exception("snapshot block not written; trying again after "
                              f"{self.store.snapshot_every} more events", extra={"partition": p})
                self.store.since_snapshot[p] = 0

    def touched_partitions(self) -> set[int]:
        return {self.store.partition_of[a] for a in self._batch if a in self.store.partition_of}

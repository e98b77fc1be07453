"""An in-memory bus for handler tests: the same AggregateStore and unit of work as production,
with the log kept in lists instead of a broker. For a handler's unit test only — end-to-end
claims run on the real broker (tests/e2e)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from contracts import decode, encode, topic_for
from contracts.envelope import Message
from contracts.topics import TOPICS, Keyed, TopicSpec, partition_for
from services.runtime.replay import LogReader


@dataclass(frozen=True)
class Record:
    """What the store reads back: a topic's record with its offset."""

    topic: str
    partition: int
    offset: int
    value: bytes


class MemoryBus:
    """Publishes to per-partition lists; `messages(topic)` is what a test asserts on."""

    def __init__(self) -> None:
        self.log: dict[tuple[str, int], list[Record]] = defaultdict(list)

    async def publish(self, messages: Sequence[Keyed]) -> list[Record]:
        out = []
        for m in messages:
            topic = topic_for(m)
            out.append(self._append(topic.name, partition_for(m.key, topic.partitions), m))
        return out

    async def publish_records(self, records: Sequence[Keyed], topic: TopicSpec,
                              partition: int) -> list[Record]:
        return [self._append(topic.name, partition, r) for r in records]

    def _append(self, topic: str, partition: int, message: Message) -> Record:
        records = self.log[(topic, partition)]
        record = Record(topic, partition, len(records), encode(message))
        records.append(record)
        return record

    def messages(self, topic: TopicSpec) -> list[Message]:
        """Every message published to `topic`, partition by partition."""
        return [decode(r.value) for p in range(topic.partitions)
                for r in self.log.get((topic.name, p), [])]

    def reader(self) -> LogReader:
        return MemoryReader(self)  # type: ignore[return-value]  # the same methods


class MemoryReader:
    """LogReader's interface over a MemoryBus."""

    def __init__(self, bus: MemoryBus) -> None:
        self.bus = bus

    async def __aenter__(self) -> MemoryReader:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        return None

    async def partitions(self, topic: str) -> list[int]:
        return list(range(TOPICS[topic].partitions))

    async def bounds(self, topic: str, partition: int) -> tuple[int, int]:
        return 0, len(self.bus.log.get((topic, partition), []))

    async def records(self, topic: str, partition: int, start: int = 0,
                      stop: int | None = None) -> AsyncIterator[Record]:
        for record in self.bus.log.get((topic, partition), [])[start:stop]:
            yield record

    messages = LogReader.messages

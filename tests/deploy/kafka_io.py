"""Small kafka-python helpers for the deploy tests: produce N values, read them back."""
from __future__ import annotations

import time

from kafka import KafkaConsumer, KafkaProducer

# kafka-python waits for the whole max_poll_interval before a group join completes; these
# short timeouts make it join in about 2 s (shared/broker.md).
FAST_GROUP = {"max_poll_interval_ms": 5000, "session_timeout_ms": 4000,
              "heartbeat_interval_ms": 1000}


def produce(bootstrap: str, topic: str, values: list[str], linger_ms: int = 5) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", enable_idempotence=False,
                             linger_ms=linger_ms)
    for value in values:
        producer.send(topic, value.encode(), key=value[-1:].encode())
    producer.flush()
    producer.close()


def consume_group(bootstrap: str, topic: str, group: str, expected: int,
                  timeout: float = 20.0) -> list[str]:
    """Read through consumer group `group` until `expected` values arrived; commit; return."""
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=group,
                             auto_offset_reset="earliest", enable_auto_commit=False,
                             **FAST_GROUP)
    values: list[str] = []
    deadline = time.monotonic() + timeout
    while len(values) < expected and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=500).values():
            values.extend(r.value.decode() for r in records)
    consumer.commit()
    consumer.close()
    return values

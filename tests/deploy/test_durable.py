"""Durable mode: events and committed consumer-group offsets survive a broker restart."""
from __future__ import annotations

from kafka import KafkaAdminClient

from deploy.local.admin import ensure_topics
from deploy.local.state import pid_alive
from tests.deploy.kafka_io import consume_group, produce

N = 500


def committed(bootstrap: str, group: str) -> int:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        return sum(o.offset for o in admin.list_group_offsets(group)[group].values())
    finally:
        admin.close()


def test_events_and_offsets_survive_restart(durable_broker) -> None:
    broker = durable_broker()
    ensure_topics(broker.bootstrap, {"floor.events": 3})
    sent = [f"event-{i}" for i in range(N)]
    produce(broker.bootstrap, "floor.events", sent)
    assert sorted(consume_group(broker.bootstrap, "floor.events", "auditor", N)) == sorted(sent)
    assert committed(broker.bootstrap, "auditor") == N

    pids = broker.status()["pids"]
    broker.stop()
    assert not any(pid_alive(pid, name) for name, pid in pids.items())
    broker.start()   # same object: same ports, same data dir

    replayed = consume_group(broker.bootstrap, "floor.events", "replayer", N)
    assert len(replayed) == N and sorted(replayed) == sorted(sent)
    assert committed(broker.bootstrap, "auditor") == N


def test_a_new_broker_on_other_ports_reads_the_same_data(durable_broker, tmp_path) -> None:
    first = durable_broker(tmp_path / "data")
    ensure_topics(first.bootstrap, {"floor.events": 2})
    produce(first.bootstrap, "floor.events", [f"e{i}" for i in range(50)])
    first.stop()
    second = durable_broker(tmp_path / "data")   # fresh free ports
    assert second.port != first.port
    assert sorted(consume_group(second.bootstrap, "floor.events", "g", 50)) == \
        sorted(f"e{i}" for i in range(50))

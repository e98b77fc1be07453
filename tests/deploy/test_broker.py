"""EmbeddedBroker lifecycle: start, readiness, status, stop, ports, failures."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic
from kafka.structs import TopicPartition

from deploy.local import broker as broker_module
from deploy.local.admin import ensure_topics
from deploy.local.broker import BrokerError, EmbeddedBroker, free_port, kafka_ready, port_is_free
from deploy.local.procs import accepts_connections
from deploy.local.state import pid_alive
from tests.deploy.kafka_io import produce


def test_memory_broker_start_status_stop(tmp_path: Path) -> None:
    broker = EmbeddedBroker(tmp_path, durable=False)
    assert broker.start() == broker.bootstrap == f"127.0.0.1:{broker.port}"
    status = broker.status()
    assert status["running"] is True and status["mode"] == "memory"
    assert set(status["pids"]) == {"tansu"} and status["s3_port"] is None
    pid = status["pids"]["tansu"]
    assert pid_alive(pid, "tansu")
    assert "listening on: tcp://" + broker.bootstrap in Path(status["logs"]["tansu"]).read_text()
    broker.stop()
    assert not pid_alive(pid, "tansu")
    assert broker.status()["running"] is False and broker.status()["pids"] == {}
    assert not accepts_connections(broker.bootstrap)
    broker.stop()   # a second stop is harmless


def test_ready_means_it_answers_kafka_requests(tmp_path: Path) -> None:
    with EmbeddedBroker(tmp_path, durable=False) as broker:
        assert kafka_ready(broker.bootstrap)
        # Straight after start(), without any retry, admin and producer requests succeed.
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("ready", 1, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, enable_idempotence=False)
        sent = [producer.send("ready", value).get(timeout=5) for value in (b"a", b"b")]
        producer.close()
        assert [(m.topic, m.partition, m.offset) for m in sent] == [("ready", 0, 0),
                                                                     ("ready", 0, 1)]
    assert not kafka_ready(broker.bootstrap, timeout=0.5)


def test_tansu_list_offsets_latest_quirk_is_still_there(tmp_path: Path) -> None:
    """Canary for the README's "known limits": Tansu 0.6 answers ListOffsets(latest) with the
    last batch's base offset + 1, not the log end, while a fetch reports the true high
    watermark. If this fails, Tansu was fixed: update deploy/local/README.md."""
    with EmbeddedBroker(tmp_path, durable=False) as broker:
        ensure_topics(broker.bootstrap, {"quirk": 1})
        produce(broker.bootstrap, "quirk", ["a", "b", "c"], linger_ms=300)   # one batch of 3
        tp = TopicPartition("quirk", 0)
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        read = 0
        for _ in range(20):
            read += sum(len(r) for r in consumer.poll(timeout_ms=200).values())
            if read == 3:
                break
        assert (read, consumer.highwater(tp)) == (3, 3)
        assert consumer.end_offsets([tp])[tp] == 1      # the quirk: should be 3
        consumer.close()


def test_durable_broker_runs_both_processes(durable_broker, tmp_path: Path) -> None:
    broker = durable_broker()
    status = broker.status()
    assert status["mode"] == "durable" and set(status["pids"]) == {"tansu", "localbucket"}
    assert (tmp_path / "broker" / "s3" / "tansu").is_dir()
    assert status["s3_port"] not in (None, broker.port)
    pids = status["pids"]
    broker.stop()
    assert not pid_alive(pids["tansu"], "tansu")
    assert not pid_alive(pids["localbucket"], "localbucket")


def test_free_ports_differ_and_are_bindable() -> None:
    ports = {free_port() for _ in range(5)}
    assert len(ports) >= 4   # the kernel rotates ephemeral ports
    assert all(port_is_free(p) for p in ports)


def test_two_brokers_get_their_own_ports(tmp_path: Path) -> None:
    with EmbeddedBroker(tmp_path / "a", durable=False) as one, \
            EmbeddedBroker(tmp_path / "b", durable=False) as two:
        assert one.port != two.port
        assert kafka_ready(one.bootstrap) and kafka_ready(two.bootstrap)


def test_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        broker = EmbeddedBroker(tmp_path, durable=False, port=port)
        with pytest.raises(BrokerError, match=f"port {port} is still in use"):
            broker.start(timeout=0.5)
        assert broker.status()["pids"] == {}


def test_restart_waits_for_the_port_and_keeps_the_address(tmp_path: Path) -> None:
    with EmbeddedBroker(tmp_path, durable=False) as broker:
        first = broker.bootstrap
        broker.stop()
        assert broker.start() == first
        assert kafka_ready(first)


def test_a_self_chosen_port_taken_meanwhile_is_replaced(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(broker_module, "RECLAIM_SECONDS", 0.3)
    broker = EmbeddedBroker(tmp_path, durable=False)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", broker.port))
        squatter.listen()
        with broker:
            assert broker.port != squatter.getsockname()[1]
            assert kafka_ready(broker.bootstrap)


def test_broker_that_dies_while_starting_is_reported_and_cleaned_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(broker_module, "tansu_binary", lambda: "/bin/false")
    broker = EmbeddedBroker(tmp_path, durable=True)
    with pytest.raises(BrokerError, match="tansu exited with code 1 while starting"):
        broker.start(timeout=10)
    # localbucket had started first; the failed start must not leave it running.
    assert broker.status()["pids"] == {}
    assert not accepts_connections(f"127.0.0.1:{broker.s3_port}")

"""kafka_config: the environment decides the cluster and the producer options."""
from __future__ import annotations

import pytest

from services.runtime.kafka_config import KafkaConfig, KafkaConfigError, kafka_config


def test_defaults_mean_embedded_broker_and_tansu_safe_producer() -> None:
    config = kafka_config({})
    assert config == KafkaConfig(bootstrap=None, acks="all", enable_idempotence=False,
                                 fetch_max_wait_ms=500)
    assert not config.external
    assert config.producer_options() == {"acks": "all", "enable_idempotence": False}
    assert config.consumer_options() == {"fetch_max_wait_ms": 500}


def test_external_cluster_with_production_producer_options() -> None:
    config = kafka_config({"KAFKA_BOOTSTRAP_SERVERS": "k1:9092,k2:9092", "KAFKA_ACKS": "all",
                           "KAFKA_ENABLE_IDEMPOTENCE": "1"})
    assert config.external and config.bootstrap == "k1:9092,k2:9092"
    assert config.producer_options() == {"acks": "all", "enable_idempotence": True}


def test_fetch_wait_for_low_latency_on_tansu() -> None:
    assert kafka_config({"KAFKA_FETCH_MAX_WAIT_MS": "100"}).consumer_options() == \
        {"fetch_max_wait_ms": 100}


@pytest.mark.parametrize(("text", "acks"), [("0", 0), ("1", 1), ("all", "all"), ("-1", "all"),
                                            (" ALL ", "all")])
def test_acks_spellings(text: str, acks: object) -> None:
    assert kafka_config({"KAFKA_ACKS": text}).acks == acks


def test_blank_bootstrap_means_embedded() -> None:
    assert kafka_config({"KAFKA_BOOTSTRAP_SERVERS": "  "}).bootstrap is None


@pytest.mark.parametrize(("env", "field", "reason"), [
    ({"KAFKA_ACKS": "2"}, "KAFKA_ACKS", "must be 0, 1 or all, not '2'"),
    ({"KAFKA_ENABLE_IDEMPOTENCE": "maybe"}, "KAFKA_ENABLE_IDEMPOTENCE", "must be 1 or 0"),
    ({"KAFKA_ENABLE_IDEMPOTENCE": "1", "KAFKA_ACKS": "1"}, "KAFKA_ACKS",
     "must be all when KAFKA_ENABLE_IDEMPOTENCE=1"),
    ({"KAFKA_FETCH_MAX_WAIT_MS": "0"}, "KAFKA_FETCH_MAX_WAIT_MS", "from 1 to 60000, not '0'"),
    ({"KAFKA_FETCH_MAX_WAIT_MS": "1.5"}, "KAFKA_FETCH_MAX_WAIT_MS", "whole milliseconds"),
])
def test_bad_values_name_the_variable_and_the_reason(env: dict[str, str], field: str,
                                                     reason: str) -> None:
    with pytest.raises(KafkaConfigError) as caught:
        kafka_config(env)
    assert caught.value.name == field and reason in caught.value.reason


def test_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KAFKA_ENABLE_IDEMPOTENCE", "KAFKA_FETCH_MAX_WAIT_MS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "kafka.example:9092")
    monkeypatch.setenv("KAFKA_ACKS", "1")
    assert kafka_config() == KafkaConfig("kafka.example:9092", 1, False, 500)

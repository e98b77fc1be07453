"""Which Kafka to use and how to produce to it, from the environment.

The same code runs on the embedded Tansu broker and on a production Kafka cluster; only these
differ:

KAFKA_BOOTSTRAP_SERVERS   host:port[,host:port]. When set, that cluster is used and the embedded
                          broker is not started. Unset: start the embedded broker.
KAFKA_ACKS                producer acks: 0, 1 or all (default: all).
KAFKA_ENABLE_IDEMPOTENCE  1 turns the idempotent producer on (default 0: Tansu 0.6 fails
                          InitProducerId; production clusters should set 1).
KAFKA_FETCH_MAX_WAIT_MS   consumer fetch_max_wait_ms (default 500, the clients' default). Tansu
                          often holds a waiting fetch for about half of it after a record came,
                          so 100 cuts a hop's latency on Tansu to ~50 ms (at 10, durable
                          replay stalled). Real Kafka answers at once: keep 500 there.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Acks = int | str          # 0, 1 or "all" — the spelling both aiokafka and kafka-python accept
_ACKS: dict[str, Acks] = {"0": 0, "1": 1, "all": "all", "-1": "all"}
_BOOL = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False, "": False}


class KafkaConfigError(ValueError):
    """A Kafka setting in the environment is invalid; names the variable and the reason."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name, self.reason = name, reason


@dataclass(frozen=True)
class KafkaConfig:
    bootstrap: str | None             # None: start the embedded broker
    acks: Acks = "all"
    enable_idempotence: bool = False
    fetch_max_wait_ms: int = 500

    @property
    def external(self) -> bool:
        """True when an external cluster is configured (do not start the embedded broker)."""
        return self.bootstrap is not None

    def producer_options(self) -> dict[str, Any]:
        """Keyword arguments for AIOKafkaProducer and kafka-python's KafkaProducer alike.
        Both are always given: kafka-python 3 would otherwise default idempotence to on."""
        return {"acks": self.acks, "enable_idempotence": self.enable_idempotence}

    def consumer_options(self) -> dict[str, Any]:
        """Keyword arguments for AIOKafkaConsumer and kafka-python's KafkaConsumer alike."""
        return {"fetch_max_wait_ms": self.fetch_max_wait_ms}


def kafka_config(env: Mapping[str, str] | None = None) -> KafkaConfig:
    """Read the Kafka settings from `env` (default: os.environ); raise KafkaConfigError."""
    env = os.environ if env is None else env
    bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS", "").strip() or None
    acks_text = env.get("KAFKA_ACKS", "all").strip().lower()
    if acks_text not in _ACKS:
        raise KafkaConfigError("KAFKA_ACKS", f"must be 0, 1 or all, not {acks_text!r}")
    idem_text = env.get("KAFKA_ENABLE_IDEMPOTENCE", "0").strip().lower()
    if idem_text not in _BOOL:
        raise KafkaConfigError("KAFKA_ENABLE_IDEMPOTENCE", f"must be 1 or 0, not {idem_text!r}")
    acks, idempotence = _ACKS[acks_text], _BOOL[idem_text]
    if idempotence and acks != "all":
        # Kafka clients refuse this combination; say so before a producer is built.
        raise KafkaConfigError("KAFKA_ACKS", "must be all when KAFKA_ENABLE_IDEMPOTENCE=1")
    wait_text = env.get("KAFKA_FETCH_MAX_WAIT_MS", "500").strip()
    if not wait_text.isdigit() or not 1 <= int(wait_text) <= 60_000:
        raise KafkaConfigError("KAFKA_FETCH_MAX_WAIT_MS",
                               f"must be whole milliseconds from 1 to 60000, not {wait_text!r}")
    return KafkaConfig(bootstrap, acks, idempotence, int(wait_text))

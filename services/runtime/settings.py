"""A service's settings: the Kafka ones from the environment (services/runtime/kafka_config.py,
so the same code runs on the embedded broker and on a production cluster), plus where local
data lives (CASINO_VAR_DIR, default var/ at the repository root) and how commands are
authenticated (services/runtime/identity.py):

CASINO_REQUIRE_SIGNATURES  1: refuse (FORBIDDEN) every command not signed by a registered,
                           unrevoked key. 0 (the default, for handler tests and old scripts):
                           an unsigned command is judged by the actor it names; a signed one is
                           still checked. `casino run` sets 1 for every service it starts.
CASINO_ROOT_KEY            the root administrator's public key file (default
                           <var>/identity/root.pub, written by `casino keys init`): the one key
                           trusted without a registration; it signs the first registrations.

Message sizes come from the topic registry (contracts/topics.py, `max_message_bytes`): a
producer's request size allows the largest message of any topic (the bus checks each message
against its own topic's limit before it is sent), and a consumer fetches up to FETCH_MESSAGES
messages at its topics' limit per partition.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from contracts.topics import BATCH_OVERHEAD, TopicSpec, largest_message_bytes
from services.runtime.kafka_config import KafkaConfig, kafka_config

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BOOTSTRAP = "127.0.0.1:9092"
FETCH_MESSAGES = 16   # messages at the limit that one partition's fetch has room for


@dataclass(frozen=True)
class Settings:
    bootstrap: str
    kafka: KafkaConfig = field(default_factory=lambda: KafkaConfig(None))
    var_dir: Path = field(default_factory=lambda: REPO_ROOT / "var")
    require_signatures: bool = False
    root_key: Path | None = None          # None: <var_dir>/identity/root.pub

    @classmethod
    def from_env(cls, bootstrap: str | None = None) -> Settings:
        kafka = kafka_config()
        root = os.environ.get("CASINO_ROOT_KEY", "").strip()
        return cls(bootstrap=bootstrap or kafka.bootstrap or DEFAULT_BOOTSTRAP, kafka=kafka,
                   var_dir=Path(os.environ.get("CASINO_VAR_DIR", REPO_ROOT / "var")),
                   require_signatures=_flag("CASINO_REQUIRE_SIGNATURES"),
                   root_key=Path(root) if root else None)

    @property
    def identity_dir(self) -> Path:
        """Where `casino keys` and `casino run` keep key files (private ones mode 0600)."""
        return self.var_dir / "identity"

    @property
    def root_public_key(self) -> Path:
        return self.root_key or self.identity_dir / "root.pub"

    def producer_options(self) -> dict[str, Any]:
        # linger: batch what a handler publishes together (a round settles as one batch)
        return {**self.kafka.producer_options(), "linger_ms": 5,
                "max_request_size": largest_message_bytes() + BATCH_OVERHEAD}

    def consumer_options(self, topics: Sequence[TopicSpec] = ()) -> dict[str, Any]:
        """Options of a consumer of `topics`: its fetches have room for FETCH_MESSAGES of
        their largest messages per partition. (Kafka returns a first batch over the limit
        anyway, and Tansu 0.6 whole batches, so a rogue bigger record still arrives.)"""
        options = self.kafka.consumer_options()
        if topics:
            largest = max(t.max_message_bytes for t in topics) + BATCH_OVERHEAD
            options["max_partition_fetch_bytes"] = FETCH_MESSAGES * largest
        return options

    def broker_options(self) -> dict[str, Any]:
        """TLS and SASL for the FastStream broker (services/runtime/kafka_config.py)."""
        return self.kafka.broker_options()


def _flag(name: str) -> bool:
    text = os.environ.get(name, "0").strip().lower()
    if text not in ("0", "1", "true", "false", "yes", "no", ""):
        raise ValueError(f"{name}: must be 1 or 0, not {text!r}")
    return text in ("1", "true", "yes")

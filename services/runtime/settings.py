"""A service's settings: the Kafka ones from the environment (services/runtime/kafka_config.py,
so the same code runs on the embedded broker and on a production cluster), plus where local
data lives (CASINO_VAR_DIR, default var/ at the repository root)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from services.runtime.kafka_config import KafkaConfig, kafka_config

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BOOTSTRAP = "127.0.0.1:9092"


@dataclass(frozen=True)
class Settings:
    bootstrap: str
    kafka: KafkaConfig = field(default_factory=lambda: KafkaConfig(None))
    var_dir: Path = field(default_factory=lambda: REPO_ROOT / "var")

    @classmethod
    def from_env(cls, bootstrap: str | None = None) -> Settings:
        kafka = kafka_config()
        return cls(bootstrap=bootstrap or kafka.bootstrap or DEFAULT_BOOTSTRAP, kafka=kafka,
                   var_dir=Path(os.environ.get("CASINO_VAR_DIR", REPO_ROOT / "var")))

    def producer_options(self) -> dict[str, Any]:
        # linger: batch what a handler publishes together (a round settles as one batch)
        return {**self.kafka.producer_options(), "linger_ms": 5}

    def consumer_options(self) -> dict[str, Any]:
        return self.kafka.consumer_options()

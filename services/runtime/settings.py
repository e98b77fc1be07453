"""Settings from the environment, so the same code runs on the embedded broker and on a real
Kafka cluster: only KAFKA_BOOTSTRAP_SERVERS and the producer options differ.

KAFKA_BOOTSTRAP_SERVERS   host:port[,host:port]; when set, `casino run` uses that cluster and
                          does not start the embedded broker.
KAFKA_ACKS                producer acks: 0, 1 or all (default 1; production: all)
KAFKA_ENABLE_IDEMPOTENCE  1 to turn on the idempotent producer (default off: Tansu rejects
                          InitProducerId; production: 1)
CASINO_VAR_DIR            where local data (DuckDB files, evidence, logs) lives (default var/)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Settings:
    bootstrap: str
    acks: Any = 1
    idempotence: bool = False
    var_dir: Path = field(default_factory=lambda: REPO_ROOT / "var")

    @classmethod
    def from_env(cls, bootstrap: str | None = None) -> "Settings":
        acks_text = os.environ.get("KAFKA_ACKS", "1")
        return cls(
            bootstrap=bootstrap or os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092"),
            acks="all" if acks_text == "all" else int(acks_text),
            idempotence=os.environ.get("KAFKA_ENABLE_IDEMPOTENCE", "0") == "1",
            var_dir=Path(os.environ.get("CASINO_VAR_DIR", REPO_ROOT / "var")),
        )

    def producer_options(self) -> dict[str, Any]:
        return {"acks": self.acks, "enable_idempotence": self.idempotence, "linger_ms": 5}

"""Shared fixtures: a Kafka broker for the tests (see deploy/local/README.md)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from deploy.local.broker import EmbeddedBroker
from services.runtime.kafka_config import kafka_config


@pytest.fixture(scope="session")
def kafka_bootstrap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bootstrap address of a Kafka broker shared by the whole session: KAFKA_BOOTSTRAP_SERVERS
    when set, else an embedded Tansu in memory mode on free ports. Tests sharing it must use
    their own topic and group names."""
    external = kafka_config().bootstrap
    if external:
        yield external
        return
    with EmbeddedBroker(tmp_path_factory.mktemp("kafka"), durable=False) as broker:
        yield broker.bootstrap


@pytest.fixture
def durable_broker(tmp_path: Path) -> Iterator[Callable[..., EmbeddedBroker]]:
    """Factory: `durable_broker(data_dir=None, **kwargs)` starts a durable (localbucket-backed)
    EmbeddedBroker, by default in tmp_path/broker; every one made is stopped at teardown."""
    made: list[EmbeddedBroker] = []

    def make(data_dir: Path | None = None, **kwargs: Any) -> EmbeddedBroker:
        broker = EmbeddedBroker(data_dir or tmp_path / "broker", durable=True, **kwargs)
        made.append(broker)
        broker.start()
        return broker

    yield make
    for broker in made:
        broker.stop()

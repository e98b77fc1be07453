"""Fixtures of the `casino` tool tests: a real embedded broker per test module with the floor's
topics (the tools accept only registered topic names, so modules must not share a broker)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from contracts.topics import partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker


@pytest.fixture(scope="module")
def bootstrap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with EmbeddedBroker(tmp_path_factory.mktemp("cli-broker"), durable=False) as broker:
        ensure_topics(broker.bootstrap, partition_counts())
        yield broker.bootstrap

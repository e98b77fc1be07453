"""End-to-end fixtures. Each test module gets a broker of its own: the floor's topic names are
fixed (contracts/topics.py), so modules must not see each other's messages."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from contracts.topics import partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker
from services.runtime.settings import Settings


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with EmbeddedBroker(tmp_path_factory.mktemp("floor-broker"), durable=False) as broker:
        ensure_topics(broker.bootstrap, partition_counts())
        yield Settings(bootstrap=broker.bootstrap, var_dir=tmp_path_factory.mktemp("var"))

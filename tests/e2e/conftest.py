"""End-to-end fixtures. Each test module gets a broker of its own: the floor's topic names are
fixed (contracts/topics.py), so modules must not see each other's messages.

The floor is a signed one (issue 12, authenticated actors): its var dir has a root
administrator key (`casino keys init`) and the keys `casino run` registers (the wheel and dice
services sign what they forward to the tables), the simulator registers and signs with its
terminals' keys, and the services started in-process refuse every unsigned command — except in the
modules of UNSIGNED_MODULES, which post hand-written or raw commands on purpose (scripts, bad
bytes, redeliveries) and test other things; there a signed command is still checked."""
from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from contracts.topics import partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker
from services.runtime.key_admin import setup_floor_keys
from services.runtime.settings import Settings

UNSIGNED_MODULES = {"test_casino_send", "test_dead_letters", "test_poison", "test_oversized",
                    "test_vision_checks", "test_hold_expiry", "test_devices", "test_forks",
                    "test_oversized_event"}


@pytest.fixture(scope="module")
def floor(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    module = request.module.__name__.rsplit(".", 1)[-1]
    with EmbeddedBroker(tmp_path_factory.mktemp("floor-broker"), durable=False) as broker:
        ensure_topics(broker.bootstrap, partition_counts())
        settings = Settings(bootstrap=broker.bootstrap, var_dir=tmp_path_factory.mktemp("var"),
                            require_signatures=module not in UNSIGNED_MODULES)
        asyncio.run(setup_floor_keys(settings))  # root, console and wheel/dice service keys
        yield settings

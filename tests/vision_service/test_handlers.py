"""The vision service's handler maps through the runtime's store and unit of work on the
in-memory bus: a dealer's result opens its round's check, a frame that cannot be read goes to
surveillance with its payouts held, a resolution for an unknown check is refused, and every
check event is keyed by its table (so the table's owner reads it from its own partition)."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from contracts.envelope import Actor, Message
from contracts.topics import VISION_CHECKS_TOPIC, partition_for
from contracts.vision import (
    DealerResultNoted,
    ResolveVerification,
    ResolveVerificationData,
    ResultRead,
    VerificationRequested,
)
from services.runtime.bus import Rejected, bind
from services.runtime.evidence import EvidenceStore
from services.runtime.store import AggregateStore
from services.runtime.testing import MemoryBus
from services.vision.service import handlers
from services.vision.service.checks import RoundCheck
from tests.vision_service.test_checks import CORR, frame, spin


@pytest.fixture
def setup(tmp_path: Path):
    bus = MemoryBus()
    store = AggregateStore(factory=lambda cid: RoundCheck(cid), aggregate_type="round_check",
                           events=VISION_CHECKS_TOPIC, bus=bus)
    deps = handlers.Deps(EvidenceStore(tmp_path / "evidence"), None)
    maps = {**bind(handlers.FRAME_HANDLERS, deps), **bind(handlers.RESULT_HANDLERS, deps),
            **bind(handlers.COMMAND_HANDLERS, deps)}
    asyncio.run(store.own_all())
    return bus, store, maps


def deliver(store, maps, *messages: Message) -> None:
    async def batch() -> None:
        async with store.unit_of_work() as uow:
            for message in messages:
                done = maps[type(message)](message, uow)
                if asyncio.iscoroutine(done):
                    await done
                uow.keep()
    asyncio.run(batch())


def test_an_unreadable_frame_and_the_dealers_result_request_a_verification(setup):
    bus, store, maps = setup
    deliver(store, maps, spin("17"), frame())   # the frame's file does not exist
    noted, read, requested = bus.messages(VISION_CHECKS_TOPIC)
    assert isinstance(noted, DealerResultNoted) and isinstance(read, ResultRead)
    assert read.payload.reading.no_decision
    assert isinstance(requested, VerificationRequested)
    assert requested.payload.reason == "NO_DECISION" and requested.aggregate_id == CORR
    # keyed by the table, in the table's partition of the checks topic
    assert {m.key for m in (noted, read, requested)} == {"RUL-01"}
    assert store.partition_of[CORR] == partition_for("RUL-01", VISION_CHECKS_TOPIC.partitions)


def test_a_redelivered_result_changes_nothing(setup):
    bus, store, maps = setup
    deliver(store, maps, spin("17"))
    deliver(store, maps, spin("17"))
    assert len(bus.messages(VISION_CHECKS_TOPIC)) == 1


def test_a_resolution_for_a_check_nobody_opened_is_rejected(setup):
    _bus, store, maps = setup
    command = ResolveVerification(
        target_id="no-such-round", issued_by="t", actor=Actor(employee_id="S1",
                                                              role="surveillance"),
        payload=ResolveVerificationData(outcome="UPHELD"))
    with pytest.raises(Rejected) as refused:
        deliver(store, maps, command)
    assert refused.value.code == "unknown_aggregate"

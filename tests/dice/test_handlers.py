"""The dice service's handler maps on the in-memory bus: rolls judged, only valid ones forwarded
to the table as RecordRoll, bad input refused or dead-lettered, alerts kept open until
acknowledged."""
from __future__ import annotations

import asyncio
import random

import pytest

from contracts.devices import (
    AcknowledgeData,
    AcknowledgeDiceAlert,
    DiceAlertAcknowledged,
    DiceAlertRaised,
    RollAccepted,
)
from contracts.envelope import Actor, Message
from contracts.permissions import authorize
from contracts.table import RecordRoll
from contracts.topics import DICE_EVENTS_TOPIC, TABLE_COMMANDS_TOPIC
from services.dice import handlers
from services.dice.domain import DiceSet
from services.runtime.bus import Rejected
from services.runtime.store import AggregateStore
from services.runtime.testing import MemoryBus
from tests.dice.unit import SET, TABLE, cmd, roll, setup


def new_store(bus: MemoryBus) -> AggregateStore[DiceSet]:
    return AggregateStore(factory=DiceSet, aggregate_type="dice_set", events=DICE_EVENTS_TOPIC,
                          bus=bus)


async def deliver(store: AggregateStore[DiceSet], *messages: Message) -> None:
    async with store.unit_of_work() as uow:
        for message in messages:
            handlers.COMMAND_HANDLERS[type(message)](message, uow)
            uow.keep()


async def forward(bus: MemoryBus) -> None:
    for event in bus.messages(DICE_EVENTS_TOPIC):
        if isinstance(event, RollAccepted):
            await handlers.forward_roll(event, None, bus)


def test_only_valid_rolls_reach_the_table() -> None:
    bus = MemoryBus()

    async def go() -> None:
        store = new_store(bus)
        await store.own_all()
        await deliver(store, *setup(), roll(3, 4, round_id="C1.1"),
                      roll(6, 6, void="die_off_table", round_id="C1.2"),
                      roll(2, 5, round_id="C1.2"))
        await forward(bus)
    asyncio.run(go())
    sent = bus.messages(TABLE_COMMANDS_TOPIC)
    assert [(c.payload.round_id, c.payload.dice) for c in sent] == [  # type: ignore[attr-defined]
        ("C1.1", (3, 4)), ("C1.2", (2, 5))]
    for command in sent:
        assert isinstance(command, RecordRoll) and command.target_id == TABLE
        assert command.payload.device_id == SET and authorize(command) is None


def test_a_roll_for_an_unknown_set_is_rejected_naming_the_field() -> None:
    bus = MemoryBus()

    async def go() -> None:
        store = new_store(bus)
        await store.own_all()
        await deliver(store, roll(1, 2, target="DS-NOPE"))
    with pytest.raises(Rejected) as err:
        asyncio.run(go())
    assert err.value.code == "unknown_aggregate" and "target_id" in err.value.reason


def test_a_loaded_die_raises_an_alert_that_stays_open_until_acknowledged() -> None:
    rng = random.Random(3)
    rolls = [roll(rng.randint(1, 6), rng.choices(range(1, 7), [1, 1, 1, 1, 1, 5])[0])
             for _ in range(120)]
    bus = MemoryBus()
    surveillance = Actor(employee_id="CCTV7", role="surveillance")

    async def go() -> None:
        store = new_store(bus)
        await store.own_all()
        await deliver(store, *setup(), *rolls)
        raised = [e for e in bus.messages(DICE_EVENTS_TOPIC) if isinstance(e, DiceAlertRaised)]
        assert [e.payload.test for e in raised] == ["face_frequency"]
        assert store.aggregates[SET].open_tests() == {"face_frequency"}
        await deliver(store, cmd(AcknowledgeDiceAlert, AcknowledgeData(
            alert_id=raised[0].payload.alert_id, comment="set sent to the lab"),
            actor=surveillance))
        assert store.aggregates[SET].open_tests() == set()
    asyncio.run(go())
    ack = bus.messages(DICE_EVENTS_TOPIC)[-1]
    assert isinstance(ack, DiceAlertAcknowledged) and ack.actor == surveillance
    assert ack.payload.comment == "set sent to the lab" and ack.occurred_at is not None

"""The wheel service's handler maps through the runtime's store and unit of work on the
in-memory bus: spins judged, only valid ones forwarded to the table, bad input refused."""
from __future__ import annotations

import asyncio

import pytest

from contracts.devices import SpinAccepted, SpinVoided, WheelCommandRejected
from contracts.envelope import Message
from contracts.permissions import authorize
from contracts.table import RecordSpin
from contracts.topics import TABLE_COMMANDS_TOPIC, WHEEL_EVENTS_TOPIC
from services.runtime.bus import Rejected
from services.runtime.store import AggregateStore
from services.runtime.testing import MemoryBus
from services.wheel import handlers
from services.wheel.domain import Wheel
from tests.wheel.unit import SERIAL, TABLE, setup, spin


def new_store(bus: MemoryBus) -> AggregateStore[Wheel]:
    return AggregateStore(factory=Wheel, aggregate_type="wheel", events=WHEEL_EVENTS_TOPIC,
                          bus=bus)


async def deliver(store: AggregateStore[Wheel], *messages: Message) -> None:
    async with store.unit_of_work() as uow:
        for message in messages:
            handlers.COMMAND_HANDLERS[type(message)](message, uow)
            uow.keep()


async def forward(bus: MemoryBus) -> None:
    """The forwarding consumer over everything the wheels published."""
    for event in bus.messages(WHEEL_EVENTS_TOPIC):
        if isinstance(event, SpinAccepted):
            await handlers.forward_spin(event, None, bus)


def test_only_valid_spins_reach_the_table() -> None:
    bus = MemoryBus()

    async def go() -> None:
        store = new_store(bus)
        await store.own_all()
        await deliver(store, *setup(), spin("17", rotor="clockwise"),
                      spin("4", rotor="clockwise"), spin("4", rotor="counterclockwise"))
        await forward(bus)
    asyncio.run(go())
    events = bus.messages(WHEEL_EVENTS_TOPIC)
    assert [type(e).__name__ for e in events[-3:]] == ["SpinAccepted", "SpinVoided",
                                                       "SpinAccepted"]
    sent = bus.messages(TABLE_COMMANDS_TOPIC)
    assert [c.payload.pocket for c in sent] == ["17", "4"]  # type: ignore[attr-defined]
    for command in sent:
        assert isinstance(command, RecordSpin) and command.target_id == TABLE
        assert command.actor is not None and command.actor.role == "device"
        assert command.payload.device_id == SERIAL and authorize(command) is None
    accepted = [e for e in events if isinstance(e, SpinAccepted)]
    assert [c.command_id for c in sent] == [e.event_id for e in accepted]  # type: ignore[attr-defined]


def test_redelivered_spin_is_not_recorded_twice_and_forwards_the_same_command() -> None:
    bus = MemoryBus()
    s = spin("17")

    async def go() -> None:
        store = new_store(bus)
        await store.own_all()
        await deliver(store, *setup(), s, s)
        await forward(bus)
        await forward(bus)
    asyncio.run(go())
    assert sum(isinstance(e, SpinAccepted) for e in bus.messages(WHEEL_EVENTS_TOPIC)) == 1
    sent = bus.messages(TABLE_COMMANDS_TOPIC)
    assert len(sent) == 2 and sent[0] == sent[1]   # the table recognises the copy by its id


def test_a_spin_for_an_unknown_wheel_is_rejected_naming_the_field() -> None:
    bus = MemoryBus()

    async def go() -> None:
        store = new_store(bus)
        await store.own_all()
        await deliver(store, spin("17", serial="W-NOPE"))
    with pytest.raises(Rejected) as err:
        asyncio.run(go())
    assert err.value.code == "unknown_aggregate" and "target_id" in err.value.reason


def test_a_restarted_store_rebuilds_the_wheels_and_refuses_a_second_result() -> None:
    bus = MemoryBus()

    async def go() -> None:
        first = new_store(bus)
        await first.own_all()
        await deliver(first, *setup(), spin("17", round_id="T1.1"))
        second = new_store(bus)
        await second.own_all()
        await deliver(second, spin("18", round_id="T1.1", rotor="counterclockwise"))
    asyncio.run(go())
    last = bus.messages(WHEEL_EVENTS_TOPIC)[-1]
    assert isinstance(last, WheelCommandRejected) and last.payload.field == "payload.round_id"
    assert not any(isinstance(e, SpinVoided) for e in bus.messages(WHEEL_EVENTS_TOPIC))

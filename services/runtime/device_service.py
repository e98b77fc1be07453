"""A device service (the wheel service, the dice service) wired the one way: a store of devices
(device.py) fed by one consumer of the device commands, co-partitioned with the device's events
by serial, and a second consumer that reads those events back and forwards each accepted
result (a valid spin, a valid roll) to its table on `floor.table.commands`.

A service brings its `DeviceService` description: its topics, its aggregate, the command that
brings a device into existence, how an accepted result becomes the table's command, its
`/status` row and the descriptions of the AsyncAPI document. Its `build` and `main` do the rest.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from contracts.envelope import Command, Event, Message
from contracts.topics import TABLE_COMMANDS_TOPIC, TopicSpec
from services.runtime.bus import Bus, Handler, Rejected, bind
from services.runtime.device import Device
from services.runtime.service import Service, run_service
from services.runtime.settings import Settings
from services.runtime.store import AggregateStore, Publisher, UnitOfWork

D = TypeVar("D", bound=Device)
A = TypeVar("A", bound=Event)
Forwarder = Callable[[Any, Any, Publisher], Awaitable[None]]


def command_handlers(commands: tuple[type[Command], ...], creates: type[Command],
                     unknown: str) -> dict[type[Message], Handler]:
    """One map for every command of a device: `creates` (RegisterWheel, IssueDiceSet) makes the
    device (a second one is refused by the device); any other command for a device that does
    not exist is dead-lettered (`unknown_aggregate`, field target_id: `unknown` % its id)."""
    def create(command: Command, uow: UnitOfWork[Device]) -> None:
        uow.get_or_create(command.target_id).handle(command)

    def existing(command: Command, uow: UnitOfWork[Device]) -> None:
        device = uow.get(command.target_id)
        if device is None:
            raise Rejected("unknown_aggregate", f"target_id: {unknown % (command.target_id,)}")
        device.handle(command)

    handlers: dict[type[Message], Handler] = {kind: existing for kind in commands}
    handlers[creates] = create
    return handlers


def forward_to_table(to_table: Callable[[A], Command]) -> Forwarder:
    """The handler of an accepted result: the table's command for it, published (signed by the
    bus with the service's key). Its command id is the accepted event's (see `to_table`), so a
    redelivered event forwards the same command, which the table does not apply twice."""
    async def forward(accepted: A, _ctx: object, bus: Publisher) -> None:
        await bus.publish([to_table(accepted)])
    forward.__doc__ = to_table.__doc__
    return forward


@dataclass(frozen=True)
class DeviceService(Generic[D]):
    device: type[D]                    # its PRODUCER names the service, group and key
    aggregate_type: str
    commands: TopicSpec
    events: TopicSpec
    command_handlers: dict[type[Message], Handler]
    accepted: type[Event]              # the event forwarded (SpinAccepted, RollAccepted)
    forward: Forwarder
    result: tuple[str, str]            # ("spin", "RecordSpin"): a result, the table's command
    status: tuple[str, Callable[[D], dict[str, Any]]]   # "wheels": one row per device
    judges: str                        # what the command consumer does (AsyncAPI document)

    @property
    def service(self) -> str:
        return self.device.PRODUCER

    def build(self, settings: Settings) -> Service:
        """The device service's composition root."""
        bus = Bus(settings, self.service)
        store = AggregateStore(factory=self.device, aggregate_type=self.aggregate_type,
                               events=self.events, bus=bus)
        bus.consume([self.commands], self.service, self.command_handlers,
                    context=store.unit_of_work, owner=store, description=self.judges)
        noun, command = self.result
        bus.consume([self.events], f"{self.service}.forward",
                    bind({self.accepted: self.forward}, bus),
                    description=f"Accepted {noun}s, forwarded to their table as {command}.")
        # The service reads its own log back to forward (above); AsyncAPI keeps one channel
        # per service and topic, so this publisher's description says both.
        bus.declare_publisher(self.events, f"{self.events.description} The service also "
                              f"reads it back to forward accepted {noun}s to their tables as "
                              f"{command}.")
        bus.declare_publisher(TABLE_COMMANDS_TOPIC,
                              f"{command} for each valid {noun} (actor role device).")
        return Service(bus, status=lambda: self.status_of(bus, store))

    def status_of(self, bus: Bus, store: AggregateStore[D]) -> dict[str, Any]:
        key, row = self.status
        return {**bus.status(), "partitions": sorted(store.owned), "broken": store.broken,
                key: {sid: {"version": d.version, **row(d), "open_alerts": sorted(d.open_tests())}
                      for sid, d in sorted(store.aggregates.items())}}

    async def main(self, settings: Settings, *, status_port: int = 0,
                   stop: asyncio.Event | None = None,
                   on_ready: Callable[[str], None] | None = None) -> None:
        """Run the device service until stopped."""
        await run_service(self.build(settings), status_port=status_port, stop=stop,
                          on_ready=on_ready)

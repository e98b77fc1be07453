"""What the wheel service does with each message: plain functions in one map per topic, wired by
bootstrap.py. The wheel (domain.py) decides; these find the wheel, and forward accepted spins."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from contracts.devices import WHEEL_COMMANDS, RegisterWheel, SpinAccepted
from contracts.envelope import Actor, Command, Message
from contracts.table import RecordSpin, RecordSpinData
from services.runtime.bus import Handler, Rejected
from services.runtime.store import Publisher, UnitOfWork
from services.wheel.domain import Wheel

SERVICE = "wheel-service"
Wheels = UnitOfWork[Wheel]


def register(command: RegisterWheel, uow: Wheels) -> None:
    """A wheel comes to exist by its RegisterWheel (a second one is refused by the wheel)."""
    uow.get_or_create(command.target_id).handle(command)


def wheel_command(command: Command, uow: Wheels) -> None:
    wheel = uow.get(command.target_id)
    if wheel is None:
        raise Rejected("unknown_aggregate",
                       f"target_id: wheel {command.target_id!r} is not registered")
    wheel.handle(command)


def record_spin(accepted: SpinAccepted) -> RecordSpin:
    """The table command for a valid spin. Its id is the SpinAccepted event's, so a redelivered
    event forwards the same command, which the table recognises and does not apply twice."""
    p = accepted.payload
    assert p.pocket is not None, "a valid spin has a pocket"
    return RecordSpin(
        command_id=accepted.event_id, target_id=p.table_id, issued_at=accepted.occurred_at,
        issued_by=SERVICE, correlation_id=accepted.correlation_id,
        actor=Actor(employee_id=accepted.aggregate_id, role="device"),
        payload=RecordSpinData(pocket=p.pocket, device_id=accepted.aggregate_id,
                               spin_id=p.spin_id))


async def forward_spin(accepted: SpinAccepted, _ctx: object, bus: Publisher) -> None:
    """Only valid spins reach the table session (a void spin never reaches settlement)."""
    await bus.publish([record_spin(accepted)])


COMMAND_HANDLERS: dict[type[Message], Handler] = {kind: wheel_command for kind in WHEEL_COMMANDS}
COMMAND_HANDLERS[RegisterWheel] = register
Forwarder = Callable[[Any, Any, Publisher], Awaitable[None]]
FORWARD_HANDLERS: dict[type[Message], Forwarder] = {SpinAccepted: forward_spin}

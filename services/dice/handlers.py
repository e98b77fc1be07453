"""What the dice service does with each message: plain functions in one map per topic, wired by
bootstrap.py. The dice set (domain.py) decides; these find the set, and forward accepted rolls."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from contracts.devices import DICE_COMMANDS, IssueDiceSet, RollAccepted
from contracts.envelope import Actor, Command, Message
from contracts.table import RecordRoll, RecordRollData
from services.dice.domain import DiceSet
from services.runtime.bus import Handler, Rejected
from services.runtime.store import Publisher, UnitOfWork

SERVICE = "dice-service"
Sets = UnitOfWork[DiceSet]


def issue(command: IssueDiceSet, uow: Sets) -> None:
    """A dice set comes to exist by its IssueDiceSet (a second one is refused by the set)."""
    uow.get_or_create(command.target_id).handle(command)


def dice_command(command: Command, uow: Sets) -> None:
    dice = uow.get(command.target_id)
    if dice is None:
        raise Rejected("unknown_aggregate",
                       f"target_id: dice set {command.target_id!r} was never issued")
    dice.handle(command)


def record_roll(accepted: RollAccepted) -> RecordRoll:
    """The table command for a valid roll; its id is the RollAccepted event's, so a redelivered
    event forwards the same command and the table does not apply it twice."""
    p = accepted.payload
    return RecordRoll(
        command_id=accepted.event_id, target_id=p.table_id, issued_at=accepted.occurred_at,
        issued_by=SERVICE, correlation_id=accepted.correlation_id,
        actor=Actor(employee_id=accepted.aggregate_id, role="device"),
        payload=RecordRollData(round_id=p.round_id, dice=p.dice,
                               device_id=accepted.aggregate_id, roll_id=p.roll_id))


async def forward_roll(accepted: RollAccepted, _ctx: object, bus: Publisher) -> None:
    """Only valid rolls reach the table session: a void roll decides no bet."""
    await bus.publish([record_roll(accepted)])


COMMAND_HANDLERS: dict[type[Message], Handler] = {kind: dice_command for kind in DICE_COMMANDS}
COMMAND_HANDLERS[IssueDiceSet] = issue
Forwarder = Callable[[Any, Any, Publisher], Awaitable[None]]
FORWARD_HANDLERS: dict[type[Message], Forwarder] = {RollAccepted: forward_roll}

"""What the dice service does with each message, wired by bootstrap.py. The dice set
(domain.py) decides; services/runtime/device_service.py finds it, and forwards accepted rolls."""
from __future__ import annotations

from contracts.devices import DICE_COMMANDS, IssueDiceSet, RollAccepted
from contracts.envelope import Actor
from contracts.table import RecordRoll, RecordRollData
from services.runtime.device_service import command_handlers, forward_to_table

SERVICE = "dice-service"


def record_roll(accepted: RollAccepted) -> RecordRoll:
    """The table command for a valid roll: only valid rolls reach the table session (a void
    roll decides no bet). Its id is the RollAccepted event's, so a redelivered event forwards
    the same command and the table does not apply it twice."""
    p = accepted.payload
    return RecordRoll(
        command_id=accepted.event_id, target_id=p.table_id, issued_at=accepted.occurred_at,
        issued_by=SERVICE, correlation_id=accepted.correlation_id,
        actor=Actor(employee_id=accepted.aggregate_id, role="device"),
        payload=RecordRollData(round_id=p.round_id, dice=p.dice,
                               device_id=accepted.aggregate_id, roll_id=p.roll_id))


# A dice set comes to exist by its IssueDiceSet; any other command needs an issued set.
COMMAND_HANDLERS = command_handlers(DICE_COMMANDS, IssueDiceSet, "dice set %r was never issued")
forward_roll = forward_to_table(record_roll)

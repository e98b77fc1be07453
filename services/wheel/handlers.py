"""What the wheel service does with each message, wired by bootstrap.py. The wheel (domain.py)
decides; services/runtime/device_service.py finds it, and forwards accepted spins."""
from __future__ import annotations

from contracts.devices import WHEEL_COMMANDS, RegisterWheel, SpinAccepted
from contracts.envelope import Actor
from contracts.table import RecordSpin, RecordSpinData
from services.runtime.device_service import command_handlers, forward_to_table

SERVICE = "wheel-service"


def record_spin(accepted: SpinAccepted) -> RecordSpin:
    """The table command for a valid spin: only valid spins reach the table session (a void
    spin never reaches settlement). Its id is the SpinAccepted event's, so a redelivered event
    forwards the same command, which the table recognises and does not apply twice."""
    p = accepted.payload
    assert p.pocket is not None, "a valid spin has a pocket"
    return RecordSpin(
        command_id=accepted.event_id, target_id=p.table_id, issued_at=accepted.occurred_at,
        issued_by=SERVICE, correlation_id=accepted.correlation_id,
        actor=Actor(employee_id=accepted.aggregate_id, role="device"),
        payload=RecordSpinData(pocket=p.pocket, device_id=accepted.aggregate_id,
                               spin_id=p.spin_id))


# A wheel comes to exist by its RegisterWheel; any other command needs a registered wheel.
COMMAND_HANDLERS = command_handlers(WHEEL_COMMANDS, RegisterWheel, "wheel %r is not registered")
forward_spin = forward_to_table(record_spin)

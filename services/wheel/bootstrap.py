"""The wheel service's composition root: the store of wheels, one consumer of the wheel
commands (co-partitioned with the wheel events by serial), and one that forwards each accepted
spin to its table (floor.table.commands) as RecordSpin (services/runtime/device_service.py)."""
from __future__ import annotations

from typing import Any

from contracts.devices import SpinAccepted
from contracts.topics import WHEEL_COMMANDS_TOPIC, WHEEL_EVENTS_TOPIC
from services.runtime.device_service import DeviceService
from services.wheel import handlers
from services.wheel.domain import Wheel


def status_row(wheel: Wheel) -> dict[str, Any]:
    return {"table": wheel.table_id, "open": wheel.in_session, "spins": wheel.stats.spins,
            "voided": wheel.stats.voided}


WHEEL_SERVICE = DeviceService(
    device=Wheel, aggregate_type="wheel", commands=WHEEL_COMMANDS_TOPIC,
    events=WHEEL_EVENTS_TOPIC, command_handlers=handlers.COMMAND_HANDLERS, accepted=SpinAccepted,
    forward=handlers.forward_spin, result=("spin", "RecordSpin"), status=("wheels", status_row),
    judges="Wheel commands: inventory, sessions, inspections, seals and every spin, judged "
           "against the profile's no-spin rules (domain.md §5.5).")
build = WHEEL_SERVICE.build
main = WHEEL_SERVICE.main  # runs the wheel service until stopped

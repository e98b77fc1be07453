"""The dice service's composition root: the store of dice sets, one consumer of the dice
commands (co-partitioned with the dice events by set serial), and one that forwards each
accepted roll to its table (floor.table.commands) as RecordRoll
(services/runtime/device_service.py)."""
from __future__ import annotations

from typing import Any

from contracts.devices import RollAccepted
from contracts.topics import DICE_COMMANDS_TOPIC, DICE_EVENTS_TOPIC
from services.dice import handlers
from services.dice.domain import DiceSet
from services.runtime.device_service import DeviceService


def status_row(dice: DiceSet) -> dict[str, Any]:
    return {"table": dice.table_id, "withdrawn": dice.withdrawn, "rolls": dice.stats.valid,
            "voided": dice.stats.voided}


DICE_SERVICE = DeviceService(
    device=DiceSet, aggregate_type="dice_set", commands=DICE_COMMANDS_TOPIC,
    events=DICE_EVENTS_TOPIC, command_handlers=handlers.COMMAND_HANDLERS, accepted=RollAccepted,
    forward=handlers.forward_roll, result=("roll", "RecordRoll"), status=("dice_sets", status_row),
    judges="Dice commands: sets issued, inspected, chosen, incidents, changes and every roll, "
           "void or valid (domain.md §4.3, §4.4).")
build = DICE_SERVICE.build
main = DICE_SERVICE.main  # runs the dice service until stopped

"""Dice commands for the tests: an issued, inspected set with two dice chosen, and rolls."""
from __future__ import annotations

from itertools import count
from typing import Any

from contracts.devices import (
    ChooseDice,
    DiceChoiceData,
    DiceInspectedData,
    DiceSetIssuedData,
    InspectDice,
    IssueDiceSet,
    RecordDiceRoll,
    RollData,
)
from contracts.envelope import Actor, Command, Event
from services.dice.domain import DiceSet

SET, TABLE = "DS-0001", "C1"
DICE = ("D1", "D2", "D3", "D4", "D5")
DEALER = Actor(employee_id="D1", role="dealer")
SUPERVISOR = Actor(employee_id="S1", role="table_supervisor")
_ids = count(1)


def cmd(kind: type[Command], payload: Any, *, actor: Actor = SUPERVISOR, target: str = SET) -> Any:
    return kind(target_id=target, issued_by="test", actor=actor,
                payload=payload)  # type: ignore[call-arg]


def setup(change_after: int | None = None, target: str = SET) -> list[Command]:
    return [cmd(IssueDiceSet, DiceSetIssuedData(table_id=TABLE, dice=DICE,
                                                change_after_rolls=change_after), target=target),
            cmd(InspectDice, DiceInspectedData(passed=True), actor=DEALER, target=target),
            cmd(ChooseDice, DiceChoiceData(in_play=("D1", "D2")), actor=DEALER, target=target)]


def roll(a: int, b: int, *, void: str | None = None, round_id: str | None = None,
         table: str = TABLE, target: str = SET) -> RecordDiceRoll:
    n = next(_ids)
    return cmd(RecordDiceRoll, RollData(roll_id=f"roll-{n}", table_id=table,
                                        round_id=round_id or f"{table}.{n}", dice=(a, b),
                                        void_cause=void),  # type: ignore[arg-type]
               actor=DEALER, target=target)


def handle(dice: DiceSet, *commands: Command) -> list[Event]:
    out: list[Event] = []
    for c in commands:
        dice.handle(c)
        out += dice.collect()
    return out


def ready(change_after: int | None = None) -> DiceSet:
    dice = DiceSet(SET)
    handle(dice, *setup(change_after))
    return dice

"""The dice set at each simulated craps table (`casino simulate --dice`): each roll goes to the
dice service (RecordDiceRoll) and the dice service forwards the valid ones to the table as
RecordRoll. Pure.

Void rolls are injected on purpose, as the tallador calls them (domain.md §4.4): the dice
overlap, one lands on a chip or on the rail, a throw that does not reach the far wall, dice that
slide. A void roll decides no bet and the same shooter throws again for the same round. Causes
that take a die out of play (broken, off the table) are not injected: they withdraw the set
(domain.md §4.3 item 7), which the simulated pit would then have to replace.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from contracts.devices import (
    ChooseDice,
    DiceChoiceData,
    DiceInspectedData,
    DiceSetIssuedData,
    InspectDice,
    IssueDiceSet,
    RecordDiceRoll,
    RollData,
    RollVoidCause,
)
from contracts.envelope import Actor, Command, Event
from contracts.table import RecordRoll

SOURCE = "floor-simulator"
PIT = Actor(employee_id="PM001", role="pit_manager")
VOID_CAUSES: tuple[RollVoidCause, ...] = ("dice_overlap", "die_on_chip", "die_on_rail",
                                          "far_wall_not_touched", "dice_slid")


@dataclass
class DiceStick:
    """The stickman's side of one table's dice set: issues it, and calls each throw."""

    serial: str
    table_id: str
    dealer: Actor
    void_rate: float = 0.03
    throws: int = 0


def dice_for(table_id: str, dealer: Actor) -> DiceStick:
    return DiceStick(f"D-{table_id}", table_id, dealer)


def setup_dice(stick: DiceStick) -> list[Command]:
    """Issue a set of five dice to the table, inspect it, the shooter chooses two. On a restart
    the dice service refuses what is already done and says so."""
    dice = tuple(f"{stick.serial}-{n}" for n in range(1, 6))

    def command(kind: type[Command], payload: object) -> Command:
        return kind(target_id=stick.serial, issued_by=SOURCE, actor=PIT,  # type: ignore[call-arg]
                    payload=payload)
    return [command(IssueDiceSet, DiceSetIssuedData(table_id=stick.table_id, dice=dice)),
            command(InspectDice, DiceInspectedData(passed=True)),
            command(ChooseDice, DiceChoiceData(in_play=(dice[0], dice[1])))]


def through_dice(messages: list[Event | Command], stick: DiceStick | None,
                 rng: random.Random) -> list[Event | Command]:
    """A round's messages with its RecordRoll replaced by the throws at the dice service: maybe
    a void one first, then the valid one with the round's dice."""
    if stick is None:
        return messages
    out: list[Event | Command] = []
    for m in messages:
        if not isinstance(m, RecordRoll):
            out.append(m)
            continue
        if rng.random() < stick.void_rate:
            void = (rng.randint(1, 6), rng.randint(1, 6))
            out.append(_throw(stick, m, void, rng.choice(VOID_CAUSES)))
        out.append(_throw(stick, m, m.payload.dice, None))
    return out


def _throw(stick: DiceStick, roll: RecordRoll, dice: tuple[int, int],
           cause: RollVoidCause | None) -> Command:
    stick.throws += 1
    return RecordDiceRoll(
        target_id=stick.serial, issued_by=SOURCE, actor=stick.dealer,
        correlation_id=roll.correlation_id,
        payload=RollData(roll_id=f"{stick.serial}.{roll.correlation_id}.{stick.throws}",
                         table_id=stick.table_id, round_id=roll.payload.round_id, dice=dice,
                         void_cause=cause))

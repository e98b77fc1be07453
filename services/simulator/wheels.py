"""The wheel at each simulated roulette table (`casino simulate --wheels`): the results go to
the wheel service as spins (RecordWheelSpin) with the rotor's and the ball's directions and the
ball's revolutions, and the wheel service forwards the valid ones to the table. Pure.

Irregularities are injected on purpose, as surveillance rooms see them: a dealer who turns the
wheel the same way as the spin before, or whose ball makes fewer than 3 revolutions. Each is
void under the profiles whose seed says so (domain.md §5.5), and the dealer relaunches for the
same round. Where a profile's seed has no such rule (AR-RUL for both, LIVE-GG for the
direction), nothing is injected: the spin would simply be valid there.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from contracts.devices import (
    AssignData,
    AssignWheel,
    Direction,
    InspectWheel,
    OpenWheel,
    RecordWheelSpin,
    RegisterWheel,
    SealData,
    SpinData,
    WheelInspectedData,
    WheelRegisteredData,
)
from contracts.envelope import Actor, Command, Event
from contracts.table import Profile, RecordSpin
from contracts.topics import WHEEL_COMMANDS_TOPIC

SOURCE = "floor-simulator"
WHEEL_TOPIC = WHEEL_COMMANDS_TOPIC
PIT = Actor(employee_id="PM001", role="pit_manager")
# Which injected irregularity voids a spin under which profile (domain.md §5.5).
VOIDS = {"same_direction": {"BO", "CL-ARICA"}, "short": {"BO", "CL-ARICA", "LIVE-GG"}}


@dataclass
class WheelDealer:
    """The dealer's hand at one table's wheel: alternates the rotor, and sometimes does not."""

    serial: str
    table_id: str
    dealer: Actor
    profile: Profile
    same_direction_rate: float = 0.02
    short_spin_rate: float = 0.02
    last_rotor: Direction = "counterclockwise"
    spins: int = 0


def wheel_for(table_id: str, dealer: Actor, profile: Profile) -> WheelDealer:
    return WheelDealer(f"W-{table_id}", table_id, dealer, profile)


def setup_wheel(wheel: WheelDealer, variant: str) -> list[Command]:
    """Register and mount the wheel, take its seal off and pass the inspection. On a restart the
    wheel service refuses what is already done (a registered wheel, an open one) and says so."""
    def command(kind: type[Command], payload: object) -> Command:
        return kind(target_id=wheel.serial, issued_by=SOURCE, actor=PIT,  # type: ignore[call-arg]
                    payload=payload)
    return [command(RegisterWheel, WheelRegisteredData(variant=variant,  # type: ignore[arg-type]
                                                       profile=wheel.profile)),
            command(AssignWheel, AssignData(table_id=wheel.table_id)),
            command(OpenWheel, SealData(seal_number=f"SEAL-{wheel.serial}")),
            command(InspectWheel, WheelInspectedData(level_ok=True, moving_parts_ok=True,
                                                     ball_ok=True))]


def spin_commands(wheel: WheelDealer, rng: random.Random, pocket: str, round_id: str,
                  correlation_id: str) -> list[Command]:
    """The launches of one round: maybe an irregular one (void), then the valid one."""
    out: list[Command] = []
    if wheel.profile in VOIDS["same_direction"] and rng.random() < wheel.same_direction_rate:
        out.append(_launch(wheel, round_id, correlation_id, rng.choice(_POCKETS),
                           wheel.last_rotor, rng.randint(5, 12)))
    elif wheel.profile in VOIDS["short"] and rng.random() < wheel.short_spin_rate:
        out.append(_launch(wheel, round_id, correlation_id, rng.choice(_POCKETS),
                           _other(wheel.last_rotor), rng.randint(1, 2)))
    out.append(_launch(wheel, round_id, correlation_id, pocket, _other(wheel.last_rotor),
                       rng.randint(5, 12)))
    return out


def through_wheel(messages: list[Event | Command], wheel: WheelDealer | None,
                  rng: random.Random) -> list[Event | Command]:
    """A round's messages with its RecordSpin replaced by the wheel's launches (when the table
    has a wheel); the round's correlation id is the wheel's round id."""
    if wheel is None:
        return messages
    out: list[Event | Command] = []
    for m in messages:
        if isinstance(m, RecordSpin):
            out += spin_commands(wheel, rng, m.payload.pocket, m.correlation_id,
                                 m.correlation_id)
        else:
            out.append(m)
    return out


_POCKETS = [str(n) for n in range(37)]


def _other(direction: Direction) -> Direction:
    return "clockwise" if direction == "counterclockwise" else "counterclockwise"


def _launch(wheel: WheelDealer, round_id: str, correlation_id: str,
            pocket: str, rotor: Direction, revolutions: int) -> Command:
    wheel.spins += 1
    wheel.last_rotor = rotor
    return RecordWheelSpin(
        target_id=wheel.serial, issued_by=SOURCE, actor=wheel.dealer,
        correlation_id=correlation_id,
        payload=SpinData(spin_id=f"{wheel.serial}.{correlation_id}.{wheel.spins}",
                         table_id=wheel.table_id, round_id=round_id, rotor_direction=rotor,
                         ball_direction=_other(rotor), revolutions=revolutions, pocket=pocket))

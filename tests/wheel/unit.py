"""Wheel commands for the tests: a registered, mounted, opened and inspected wheel, and spins."""
from __future__ import annotations

from itertools import count
from typing import Any

from contracts.devices import (
    AssignData,
    AssignWheel,
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
from services.wheel.domain import Wheel

SERIAL, TABLE = "W-0001", "T1"
DEALER = Actor(employee_id="D1", role="dealer")
SUPERVISOR = Actor(employee_id="S1", role="table_supervisor")
_ids = count(1)


def cmd(kind: type[Command], payload: Any, *, actor: Actor = SUPERVISOR,
        target: str = SERIAL) -> Any:
    return kind(target_id=target, issued_by="test", actor=actor,
                payload=payload)  # type: ignore[call-arg]


def setup(profile: Any = "BO", variant: Any = "european", serial: str = SERIAL,
          table: str = TABLE) -> list[Command]:
    return [cmd(RegisterWheel, WheelRegisteredData(variant=variant, profile=profile),
                target=serial),
            cmd(AssignWheel, AssignData(table_id=table), target=serial),
            cmd(OpenWheel, SealData(seal_number="S-100"), target=serial),
            cmd(InspectWheel, WheelInspectedData(level_ok=True, moving_parts_ok=True,
                                                 ball_ok=True), target=serial)]


def spin(pocket: str | None = "17", *, rotor: str = "clockwise", ball: str | None = None,
         revolutions: int = 8, round_id: str | None = None, table: str = TABLE,
         observed: tuple[str, ...] = (), serial: str = SERIAL) -> RecordWheelSpin:
    n = next(_ids)
    ball = ball or ("counterclockwise" if rotor == "clockwise" else "clockwise")
    return cmd(RecordWheelSpin, SpinData(
        spin_id=f"spin-{n}", table_id=table, round_id=round_id or f"{table}.{n}",
        rotor_direction=rotor, ball_direction=ball, revolutions=revolutions,  # type: ignore[arg-type]
        pocket=pocket, observed=observed), actor=DEALER, target=serial)  # type: ignore[arg-type]


def handle(wheel: Wheel, *commands: Command) -> list[Event]:
    out: list[Event] = []
    for c in commands:
        wheel.handle(c)
        out += wheel.collect()
    return out


def ready(profile: Any = "BO", variant: Any = "european") -> Wheel:
    wheel = Wheel(SERIAL)
    handle(wheel, *setup(profile, variant))
    return wheel


def alternate(n: int) -> str:
    return "clockwise" if n % 2 == 0 else "counterclockwise"

"""The wheel and dice services on the real broker, with the table service and the projector:
valid spins settle rounds, a spin in the same direction as the one before is void and settles
nothing, bad device input is refused or dead-lettered while the services keep running, and
`casino report devices` shows the wheel's spins, the void one and its cause."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import contracts
from contracts.devices import (
    AssignData,
    AssignWheel,
    ChooseDice,
    DiceChoiceData,
    DiceInspectedData,
    DiceSetIssuedData,
    InspectDice,
    InspectWheel,
    IssueDiceSet,
    OpenWheel,
    RecordDiceRoll,
    RecordWheelSpin,
    RegisterWheel,
    RollData,
    SealData,
    SpinData,
    SpinVoided,
    WheelCommandRejected,
    WheelInspectedData,
    WheelRegisteredData,
)
from contracts.envelope import Actor, Command, Event
from contracts.money import Money
from contracts.table import (
    BetsClosed,
    BetSpec,
    CloseBets,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    RecordRoll,
    RecordSpin,
    TableOpenedData,
)
from contracts.topics import (
    DEAD_LETTER_TOPIC,
    DICE_COMMANDS_TOPIC,
    DICE_EVENTS_TOPIC,
    TABLE_COMMANDS_TOPIC,
    TABLE_EVENTS_TOPIC,
    WHEEL_COMMANDS_TOPIC,
    WHEEL_EVENTS_TOPIC,
)
from services.dice import bootstrap as dice_app
from services.wheel import bootstrap as wheel_app
from tests.cli.tools import json_lines, run_process
from tests.e2e.floor import produce_raw, query, read_topic, running_services, wait_for

T, W, DS = "ROU-W1", "W-E2E-1", "DS-E2E-1"
DEALER = Actor(employee_id="D3", role="dealer")
PIT = Actor(employee_id="PM3", role="pit_manager")


def command(kind: type[Command], target: str, payload: object = None,
            actor: Actor = DEALER) -> Command:
    fields: dict[str, Any] = {} if payload is None else {"payload": payload}
    return kind(target_id=target, issued_by="e2e", actor=actor, **fields)


def spin(n: str, round_id: str, pocket: str | None, rotor: Any, table: str = T,
         wheel: str = W) -> Command:
    ball = "counterclockwise" if rotor == "clockwise" else "clockwise"
    return command(RecordWheelSpin, wheel, SpinData(
        spin_id=f"spin-{n}", table_id=table, round_id=round_id, rotor_direction=rotor,
        ball_direction=ball, revolutions=7, pocket=pocket))  # type: ignore[arg-type]


def send(bootstrap: str, topic: str, *commands: Command) -> None:
    produce_raw(bootstrap, topic, [(c.target_id.encode(), contracts.encode(c)) for c in commands])


def decoded(bootstrap: str, topic: str) -> list:
    return [contracts.decode(r.value) for r in read_topic(bootstrap, topic)]


def events_of(bootstrap: str, topic: str, aggregate: str) -> list[Event]:
    return [e for e in decoded(bootstrap, topic)
            if isinstance(e, Event) and e.aggregate_id == aggregate]


def settled(db) -> list[tuple]:
    return query(db, f"SELECT round_number, pocket FROM rounds WHERE table_id = '{T}' "
                     "AND settled_at IS NOT NULL ORDER BY round_number")


def round_with_bet(n: int) -> list[Command]:
    bet = BetSpec(kind="straight", numbers=("17",), stake=Money(amount=1000, currency="BOB"))
    return [command(OpenRound, T), command(PlaceBet, T, PlaceBetData(
        bet_id=f"b{n}", seat=1, player_id="P1", bet=bet)), command(CloseBets, T)]


@pytest.fixture(scope="module")
def played(floor, tmp_path_factory):
    db = tmp_path_factory.mktemp("proj") / "floor.duckdb"
    b = floor.bootstrap

    def closed(round_number: int) -> bool:
        return any(isinstance(e, BetsClosed) and e.payload.round_id == f"{T}.{round_number}"
                   for e in events_of(b, TABLE_EVENTS_TOPIC.name, T))

    async def play() -> None:
        stop = asyncio.Event()
        ready: list[str] = []
        devices = [asyncio.create_task(wheel_app.main(floor, stop=stop, on_ready=ready.append)),
                   asyncio.create_task(dice_app.main(floor, stop=stop, on_ready=ready.append))]
        try:
            async with running_services(floor, db):
                await wait_for(lambda: len(ready) == 2, 60, "wheel and dice services start")
                send(b, TABLE_COMMANDS_TOPIC.name, command(OpenTable, T, TableOpenedData(
                    game="roulette", variant="european", seating="open", profile="BO",
                    currency="BOB", min_bet=100, max_bet=50_000), actor=PIT), *round_with_bet(1))
                send(b, WHEEL_COMMANDS_TOPIC.name,
                     command(RegisterWheel, W, WheelRegisteredData(variant="european",
                                                                   profile="BO"), actor=PIT),
                     command(AssignWheel, W, AssignData(table_id=T), actor=PIT),
                     command(OpenWheel, W, SealData(seal_number="SEAL-1"), actor=PIT),
                     command(InspectWheel, W, WheelInspectedData(
                         level_ok=True, moving_parts_ok=True, ball_ok=True), actor=PIT))
                await wait_for(lambda: closed(1), 60, "round 1 closed")
                send(b, WHEEL_COMMANDS_TOPIC.name, spin("1", f"{T}.1", "17", "clockwise"))
                await wait_for(lambda: settled(db) == [(1, "17")], 60, "round 1 settled")
                send(b, TABLE_COMMANDS_TOPIC.name, *round_with_bet(2))
                await wait_for(lambda: closed(2), 60, "round 2 closed")
                # the wheel turned the same way as the spin before: void, nothing settles
                send(b, WHEEL_COMMANDS_TOPIC.name, spin("2", f"{T}.2", "5", "clockwise"))
                await wait_for(lambda: any(isinstance(e, SpinVoided) for e in events_of(
                    b, WHEEL_EVENTS_TOPIC.name, W)), 60, "the void spin recorded")
                # bad input, each refused or dead-lettered
                roll = json.loads(contracts.encode(command(RecordDiceRoll, DS, RollData(
                    roll_id="r-bad", table_id="CR-1", round_id="CR-1.1", dice=(3, 4)))))
                roll["payload"]["dice"] = [7, 1]
                produce_raw(b, DICE_COMMANDS_TOPIC.name, [(DS.encode(),
                                                           json.dumps(roll).encode())])
                send(b, WHEEL_COMMANDS_TOPIC.name,
                     spin("x1", f"{T}.2", "5", "counterclockwise", wheel="W-NOBODY"),
                     spin("x2", "OTHER.1", "5", "counterclockwise", table="OTHER"),
                     spin("x3", f"{T}.1", "5", "counterclockwise"))
                # a dice set at a craps table: a valid roll is forwarded as RecordRoll
                send(b, DICE_COMMANDS_TOPIC.name,
                     command(IssueDiceSet, DS, DiceSetIssuedData(
                         table_id="CR-1", dice=("d1", "d2", "d3", "d4", "d5")), actor=PIT),
                     command(InspectDice, DS, DiceInspectedData(passed=True)),
                     command(ChooseDice, DS, DiceChoiceData(in_play=("d2", "d4"))),
                     command(RecordDiceRoll, DS, RollData(
                         roll_id="r1", table_id="CR-1", round_id="CR-1.1", dice=(6, 5))),
                     command(RecordDiceRoll, DS, RollData(
                         roll_id="r2", table_id="CR-1", round_id="CR-1.2", dice=(2, 2),
                         void_cause="far_wall_not_touched")))
                await wait_for(lambda: sum(isinstance(e, WheelCommandRejected) for e in
                                           events_of(b, WHEEL_EVENTS_TOPIC.name, W)) == 2, 60,
                               "the bad spins refused")
                # the service goes on: the relaunch, the other way, settles round 2
                send(b, WHEEL_COMMANDS_TOPIC.name, spin("3", f"{T}.2", "5", "counterclockwise"))
                await wait_for(lambda: settled(db) == [(1, "17"), (2, "5")], 60,
                               "round 2 settled")
                await wait_for(lambda: any(isinstance(c, RecordRoll) for c in decoded(
                    b, TABLE_COMMANDS_TOPIC.name)), 60, "the roll forwarded")
        finally:
            stop.set()
            await asyncio.gather(*devices)

    asyncio.run(play())
    return db


def test_valid_spins_settle_rounds_and_the_void_one_settles_nothing(floor, played) -> None:
    assert settled(played) == [(1, "17"), (2, "5")]
    spins = [c for c in decoded(floor.bootstrap, TABLE_COMMANDS_TOPIC.name)
             if isinstance(c, RecordSpin)]
    assert [(c.payload.pocket, c.payload.spin_id, c.actor.role if c.actor else None)
            for c in spins] == [("17", "spin-1", "device"), ("5", "spin-3", "device")]
    table = events_of(floor.bootstrap, TABLE_EVENTS_TOPIC.name, T)
    assert [e.payload.pocket for e in table  # type: ignore[attr-defined]
            if e.event_type == "SpinResulted"] == ["17", "5"]
    paid = [e.payload.paid.amount for e in table  # type: ignore[attr-defined]
            if e.event_type == "BetSettled"]
    assert paid == [36_000, 0]   # 35 to 1 on the 17 (seed 000 §4.1.4.2), lost on the 5
    wheel = events_of(floor.bootstrap, WHEEL_EVENTS_TOPIC.name, W)
    [void] = [e for e in wheel if isinstance(e, SpinVoided)]
    assert void.payload.cause == "same_direction_as_previous"
    assert "Previous number: 17" in void.payload.procedure


def test_bad_device_input_is_refused_or_dead_lettered(floor, played) -> None:
    letters = [d for d in decoded(floor.bootstrap, DEAD_LETTER_TOPIC.name)]
    by_service = {(d.service, d.code): d for d in letters}
    assert "W-NOBODY" in by_service[("wheel-service", "unknown_aggregate")].reason
    assert "payload.dice" in by_service[("dice-service", "invalid_payload")].reason
    refused = [e.payload for e in events_of(floor.bootstrap, WHEEL_EVENTS_TOPIC.name, W)
               if isinstance(e, WheelCommandRejected)]
    assert [r.field for r in refused] == ["payload.table_id", "payload.round_id"]
    rolls = [c for c in decoded(floor.bootstrap, TABLE_COMMANDS_TOPIC.name)
             if isinstance(c, RecordRoll)]
    assert [(c.target_id, c.payload.dice) for c in rolls] == [("CR-1", (6, 5))]
    assert [e.event_type for e in events_of(floor.bootstrap, DICE_EVENTS_TOPIC.name, DS)][-2:] \
        == ["RollAccepted", "RollVoided"]


def test_report_devices_shows_the_spins_and_the_void_one(floor, played) -> None:
    done = run_process("report", "devices", "--json", bootstrap=floor.bootstrap)
    assert done.returncode == 0, done.stderr
    rows = {r["serial"]: r for r in json_lines(done.stdout)}
    wheel = rows[W]
    assert (wheel["spins"], wheel["valid"], wheel["voided"]) == (3, 2, 1)
    assert wheel["void_causes"] == {"same_direction_as_previous": 1}
    assert wheel["pockets"]["17"] == 1 and wheel["pockets"]["5"] == 1
    assert wheel["table"] == T and wheel["open_alerts"] == []
    dice = rows[DS]
    assert (dice["valid"], dice["voided"]) == (1, 1)
    assert dice["in_play"] == ["d2", "d4"] and dice["reserve"] == ["d1", "d3", "d5"]
    text = run_process("report", "devices", bootstrap=floor.bootstrap)
    assert text.returncode == 0 and f"wheel {W}" in text.stdout

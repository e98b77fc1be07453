"""A craps table through the table service's handler map, the runtime's store and unit of work
on the in-memory bus: what is published, that a redelivered roll changes nothing, that a new
store rebuilds the same layout (through a snapshot block too), and that a roll with a die of 7
never decodes (it goes to the dead-letter topic with the field and reason)."""
from __future__ import annotations

import json

import pytest

from contracts.codec import DecodeError, decode, encode
from contracts.table import (
    BetSettled,
    CloseBets,
    DiceRolled,
    OpenRound,
    OpenTable,
    RecordRoll,
    RecordRollData,
    RoundSettled,
    SeatData,
    SeatPlayer,
    ShooterChanged,
    TableOpenedData,
)
from contracts.topics import TABLE_EVENTS_TOPIC
from services.runtime.testing import MemoryBus
from tests.table.test_craps import bet
from tests.table.test_handlers import deliver, new_store, run
from tests.table.unit import T, cmd

CONFIG = TableOpenedData(game="craps", variant="craps", profile="BO", currency="BOB",
                         min_bet=100, max_bet=50_000)


def a_roll(n: int, dice: tuple[int, int]) -> list:
    return [cmd(CloseBets), cmd(RecordRoll, payload=RecordRollData(round_id=f"{T}.{n}",
                                                                  dice=dice))]


@pytest.fixture
def bus() -> MemoryBus:
    return MemoryBus()


def test_rolls_through_the_store_redelivery_and_a_rebuild_with_the_same_layout(bus):
    store = new_store(bus, snapshot_every=7)
    run(store.own_all())
    seats = [cmd(SeatPlayer, payload=SeatData(seat=s, player_id=f"P{s}")) for s in (1, 3, 5)]
    run(deliver(store, cmd(OpenTable, payload=CONFIG), *seats[:1], *seats[2:], cmd(OpenRound)))
    seven = a_roll(1, (3, 3))
    run(deliver(store, bet("p", "pass_line"), bet("h", "hardway", 100, number=8), *seven))
    published = bus.messages(TABLE_EVENTS_TOPIC)
    [rolled] = [m for m in published if isinstance(m, DiceRolled)]
    assert rolled.payload.point_after == 6 and rolled.payload.travelled == {"p": 6}
    assert [m.payload.seat for m in published if isinstance(m, ShooterChanged)] == [1]
    run(deliver(store, *seven))                                  # redelivered: nothing new
    assert bus.messages(TABLE_EVENTS_TOPIC) == published
    run(deliver(store, cmd(OpenRound), bet("c", "come", 500, seat=5), *a_roll(2, (4, 4))))
    run(deliver(store, cmd(OpenRound), *a_roll(3, (2, 5))))      # seven out
    events = bus.messages(TABLE_EVENTS_TOPIC)
    lost = {m.payload.bet_id: m.payload.outcome for m in events if isinstance(m, BetSettled)}
    assert lost == {"h": "win", "p": "lose", "c": "lose"}        # hard 8, then the 7
    [last] = [m for m in events if isinstance(m, ShooterChanged)][1:]
    assert (last.payload.previous_seat, last.payload.seat) == (1, 5)
    assert sum(isinstance(m, RoundSettled) for m in events) == 3
    again = new_store(bus, snapshot_every=7)
    run(again.own_all())
    old, new = store.aggregates[T], again.aggregates[T]
    assert again.last_load is not None and again.last_load.snapshots == 1
    assert new.version == old.version and new.play == old.play
    assert new.play.shooter == 5 and new.play.point is None and not new.play.bets


def test_a_roll_with_a_die_of_seven_is_refused_at_decoding_naming_the_field():
    good = cmd(RecordRoll, payload=RecordRollData(round_id=f"{T}.1", dice=(3, 4)))
    body = json.loads(encode(good))
    body["payload"]["dice"] = [7, 1]
    with pytest.raises(DecodeError) as refused:
        decode(json.dumps(body).encode())
    assert refused.value.code == "invalid_payload"
    assert "payload.dice.0" in refused.value.reason
    assert decode(encode(good)) == good

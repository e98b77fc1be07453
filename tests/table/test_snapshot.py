"""Snapshots: a session restored from `snapshot_state()` decides exactly as the original."""
import json
import random

from contracts.table import (
    CloseBets,
    OpenRound,
    RecordSpin,
    RecordSpinData,
    SeatData,
    SeatPlayer,
)
from services.table.domain import TableSession
from tests.table.test_holds import requested, resolved
from tests.table.test_session_rules import opened
from tests.table.unit import bet, cmd, handle, hold, resolve

# hash covers event_id and recorded_at; prev_hash then names that hash (checked apart: both
# sessions carry one chain on from the snapshot's head)
VOLATILE = {"event_id", "recorded_at", "hash", "prev_hash"}


def restored(table: TableSession) -> TableSession:
    """The session as the store restores it: its whole snapshot, through JSON."""
    snap = json.loads(json.dumps(table.snapshot()))  # only JSON values survive this
    return TableSession(table.id).load_snapshot(table.version, snap)


def round_commands(rng: random.Random, n: int) -> list:
    bets = [bet(kind="red", numbers=(), bet_id=f"r{n}", zero_option="prison"),
            bet(kind="straight", numbers=(str(rng.randrange(37)),), bet_id=f"s{n}",
                amount=rng.choice([100, 1000, 60_000])),
            bet(kind="dozen", numbers=(), index=rng.randint(1, 3), bet_id=f"d{n}")]
    pocket = rng.choice(["0", "0", "17", str(rng.randrange(37))])
    return [cmd(OpenRound), *bets, cmd(CloseBets),
            cmd(RecordSpin, payload=RecordSpinData(pocket=pocket))]


def same(a: list, b: list) -> bool:
    return [e.model_dump(exclude=VOLATILE) for e in a] == [e.model_dump(exclude=VOLATILE)
                                                           for e in b]


def test_a_restored_session_produces_the_same_events_as_the_original():
    rng = random.Random(11)
    table = opened("BO", seating="enforced")
    handle(table, cmd(SeatPlayer, payload=SeatData(seat=1, player_id="P1")))
    handle(table, cmd(CloseBets))
    handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="17")))
    for n in range(2, 40):
        commands = round_commands(rng, n)
        copy = restored(table)
        ours = [e for c in commands for e in handle(table, c)]
        theirs = [e for c in commands for e in handle(copy, c)]
        assert same(ours, theirs), f"round {n}"
        assert ours[0].prev_hash == theirs[0].prev_hash is not None  # the chain carries on
        if n % 5 == 0:  # a hold on this round, corrected on CCTV
            rid, check = table.current.round_id, f"chk-{n}"
            copy, request = restored(table), requested(round_id=rid, check=check)
            assert same(hold(table, request), hold(copy, request))
            snap, resolution = restored(table), resolved("18", round_id=rid, check=check)
            fixed = resolve(table, resolution)
            assert fixed and same(fixed, resolve(snap, resolution))
            assert same(fixed, resolve(copy, resolution))
    assert table.rounds_played == 39 and table.snapshot_state() == restored(table).snapshot_state()


def test_the_snapshot_is_plain_json_values():
    table = opened("BO")
    handle(table, bet(kind="red", numbers=(), bet_id="j", zero_option="prison"))
    handle(table, cmd(CloseBets))
    handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="0")))
    state = table.snapshot_state()
    assert json.loads(json.dumps(state)) == state
    copy = TableSession(table.id)
    copy.restore_state(state)
    assert copy.prisoners == table.prisoners and copy.config == table.config
    assert copy.current.settled == table.current.settled and copy.version == 0

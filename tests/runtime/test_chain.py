"""The hash chain (contracts/chain.py) and its verification over raw records
(services/runtime/chain.py): an event modified, deleted, inserted or reordered makes the
verification fail at that event; an identical copy and history from before the chain do not."""
from __future__ import annotations

import json
from typing import Any

import pytest

from contracts import decode as decode_message
from contracts import encode
from contracts.chain import link_of, seal, sha256
from contracts.snapshots import AggregateSnapshot
from contracts.table import (
    CloseBets,
    OpenRound,
    OpenTable,
    RecordSpin,
    RecordSpinData,
    TableOpenedData,
)
from services.runtime.chain import ChainVerifier, verify
from services.runtime.sequence import SequenceGuard, Verdict
from services.table.domain import TableSession
from tests.table.unit import T, bet, cmd, handle

CONFIG = TableOpenedData(game="roulette", variant="european", seating="open", profile="BO",
                         currency="BOB", min_bet=100, max_bet=50_000)


def decode(data: bytes) -> Any:
    """The message in `data` (an event, in these tests: each reads its own fields)."""
    return decode_message(data)


def opening() -> tuple[TableSession, list]:
    table = TableSession(T)
    return table, handle(table, cmd(OpenTable, payload=CONFIG))


def play(table: TableSession, bet_id: str, pocket: str = "17") -> list:
    """Every event of one round: opened, a bet, «no más apuestas», the spin and settlement."""
    return (handle(table, cmd(OpenRound)) + handle(table, bet(bet_id=bet_id))
            + handle(table, cmd(CloseBets))
            + handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket=pocket))))


@pytest.fixture
def log() -> list[bytes]:
    """The encoded events of a table that opened and played two rounds."""
    table, events = opening()
    events += play(table, "b0") + play(table, "b1")
    return [encode(e) for e in events]


def rebuilt(log: list[bytes]) -> TableSession:
    table = TableSession(T)
    for data in log:
        table.apply(decode(data))
    return table


def records(data: list[bytes]) -> list[tuple[int, bytes]]:
    return list(enumerate(data))


def test_every_event_names_its_predecessor_and_its_hash_is_over_its_bytes(log):
    events = [decode(d) for d in log]
    assert events[0].prev_hash is None and events[0].hash is not None
    for before, after in zip(events, events[1:]):
        assert after.prev_hash == before.hash
    body = json.loads(log[3])
    assert body["hash"] == events[3].hash
    assert sha256(log[3].replace(f'"hash":"{events[3].hash}"'.encode(), b'"hash":null')) \
        == events[3].hash


def test_an_intact_log_verifies(log):
    report = verify(records(log))
    assert report.ok and report.events == len(log) and report.hashed == len(log)


def test_a_modified_event_fails_at_that_event(log):
    k = next(i for i, d in enumerate(log) if b'"SpinResulted"' in d)
    tampered = list(log)
    tampered[k] = log[k].replace(b'"pocket":"17"', b'"pocket":"18"')
    assert tampered[k] != log[k]
    report = verify(records(tampered))
    first = report.first_break()
    assert first is not None and (first.offset, first.kind) == (k, "modified")
    assert first.sequence == decode(log[k]).sequence
    assert first.found == decode(log[k]).hash and first.expected != first.found


def test_a_modified_event_whose_hash_was_recomputed_breaks_the_next_link(log):
    k = 4
    event = decode(log[k]).model_copy(update={"producer": "forger", "hash": None})
    forged = list(log)
    forged[k] = encode(seal(event))
    first = verify(records(forged)).first_break()
    assert first is not None and (first.offset, first.kind) == (k + 1, "broken_link")
    assert first.expected == decode(forged[k]).hash and first.found == decode(log[k]).hash


def test_a_deleted_event_fails_at_the_event_after_it(log):
    k = 5
    report = verify(records(log[:k] + log[k + 1:]))
    first = report.first_break()
    assert first is not None and (first.offset, first.kind) == (k, "gap")
    assert (first.expected, first.found) == (str(k + 1), str(k + 2))


def test_an_inserted_event_fails_where_it_collides(log):
    """A forger's event at the next sequence, consistently chained: the true event at that
    sequence then arrives as a second, different one — a fork at its offset."""
    k = 6
    real = decode(log[k])
    fake = seal(real.model_copy(update={"event_id": "forged-1", "hash": None}))
    inserted = log[:k] + [encode(fake)] + log[k:]
    first = verify(records(inserted)).first_break()
    assert first is not None and (first.offset, first.kind) == (k + 1, "fork")
    assert (first.expected, first.found) == (fake.hash, real.hash)


def test_an_inserted_event_out_of_chain_fails_at_itself(log):
    k = 6
    stray = seal(decode(log[k]).model_copy(update={"sequence": decode(log[-1]).sequence + 1,
                                                   "prev_hash": None, "hash": None}))
    inserted = log[:k] + [encode(stray)] + log[k:]
    first = verify(records(inserted)).first_break()
    assert first is not None and (first.offset, first.kind) == (k, "gap")


def test_reordered_events_fail_at_the_first_out_of_place(log):
    k = 3
    swapped = list(log)
    swapped[k], swapped[k + 1] = log[k + 1], log[k]
    first = verify(records(swapped)).first_break()
    assert first is not None and (first.offset, first.sequence, first.kind) == (k, k + 2, "gap")


def test_an_identical_copy_is_a_redelivery_not_a_break(log):
    report = verify(records(log[:8] + log[3:5] + log[8:]))
    assert report.ok and report.redeliveries == 2


def test_history_from_before_the_chain_loads_and_the_chain_starts_at_its_first_hash(log):
    """Events written before the chain have no hash fields at all; the session carries on
    from them and its next events start the chain."""
    def unhashed(data: bytes) -> bytes:
        body = json.loads(data)
        del body["hash"], body["prev_hash"]
        return json.dumps(body).encode()

    old = [unhashed(d) for d in log]
    assert b'"hash"' not in old[0]
    table = rebuilt(old)
    assert table.last_hash is None
    new = [encode(e) for e in play(table, "late", pocket="5")]
    assert decode(new[0]).prev_hash is None and decode(new[1]).prev_hash == decode(new[0]).hash
    report = verify(records(old + new))
    assert report.ok and (report.unhashed, report.hashed) == (len(old), len(new))
    # but once the chain has started, an event without a hash breaks it
    bare = unhashed(new[2])
    first = verify(records(old + new[:2] + [bare] + new[3:])).first_break()
    assert first is not None and first.offset == len(old) + 2 and first.kind == "broken_link"


def test_a_restored_session_carries_the_chain_on(log):
    table = rebuilt(log)
    copy = TableSession(T).load_snapshot(table.version, json.loads(json.dumps(table.snapshot())))
    assert copy.last_hash == decode(log[-1]).hash
    after = play(copy, "after", pocket="3")
    assert after[0].prev_hash == decode(log[-1]).hash
    assert verify(records(log + [encode(e) for e in after])).ok


def test_a_snapshot_checkpoint_must_name_the_logs_hash(log):
    table = rebuilt(log)
    verifier = ChainVerifier()
    for offset, data in records(log):
        verifier.record("events", 0, offset, data)

    def snapshot(state: dict) -> AggregateSnapshot:
        return AggregateSnapshot(aggregate_type="table", aggregate_id=T,
                                 version=table.version, state_version=1,
                                 state_z=AggregateSnapshot.pack(state))
    verifier.checkpoint("snapshots", 0, 0, snapshot(table.snapshot()))
    assert verifier.report.ok and verifier.report.checkpoints == 1
    verifier.checkpoint("snapshots", 0, 1, snapshot({**table.snapshot(), "last_hash": "0" * 64}))
    first = verifier.report.first_break()
    assert first is not None and first.kind == "checkpoint" and first.found == "0" * 64


def test_the_guard_tells_a_fork_from_a_redelivery():
    a, first = opening()
    b = TableSession(T)   # a second writer of the same table
    for e in first:
        b.apply(e)
    ours, theirs = play(a, "b1"), play(b, "b1")
    guard = SequenceGuard()
    for e in first + ours:
        link = link_of(decode(encode(e)))
        assert guard.judge(link).verdict is Verdict.APPLY
        guard.advance(e.aggregate_id, e.sequence, link)
    again = guard.judge(link_of(decode(encode(ours[0]))))
    assert again.verdict is Verdict.DUPLICATE
    fork = guard.judge(link_of(decode(encode(theirs[0]))))
    assert fork.verdict is Verdict.FORK
    assert (fork.expected, fork.found) == (ours[0].hash, theirs[0].hash)
    # the forked writer's next event, were it first at its sequence, names the wrong head
    assert theirs[0].hash != ours[0].hash


def test_sealing_twice_is_refused():
    [event] = opening()[1]
    with pytest.raises(ValueError, match="already sealed"):
        seal(event)


def test_an_event_is_encoded_once_and_sent_as_hashed():
    [event] = opening()[1]
    assert encode(event) is event.wire
    assert decode(encode(event)) == event   # equal though only the decoded one keeps its bytes
    moved = event.model_copy(update={"producer": "other"})
    assert moved.wire is None and b'"producer":"other"' in encode(moved)


def test_a_restarted_store_follows_the_first_version_of_a_forked_log():
    """Two writers of one table: the log holds the first's events and, interleaved, the
    second's at the same sequences and beyond. A store loading it follows the chain of the
    version written first (as the projector keeps it), skips the other writer's events instead
    of calling its continuation a gap, and its next event chains on from the first's head."""
    import asyncio

    from contracts.topics import TABLE_EVENTS_TOPIC, TABLE_SNAPSHOTS_TOPIC
    from services.runtime.store import AggregateStore
    from services.runtime.testing import MemoryBus
    from services.table import handlers

    first, opened_log = opening()
    second = TableSession(T)
    for e in opened_log:
        second.apply(e)
    ours = play(first, "b1", pocket="17")
    theirs = play(second, "b1", pocket="3") + handle(second, cmd(OpenRound))
    assert len(theirs) == len(ours) + 1
    bus = MemoryBus()
    interleaved = opened_log + [e for pair in zip(ours, theirs) for e in pair] + theirs[-1:]
    asyncio.run(bus.publish(interleaved))
    store = AggregateStore(factory=TableSession, aggregate_type="table",
                           events=TABLE_EVENTS_TOPIC, snapshots=TABLE_SNAPSHOTS_TOPIC, bus=bus)

    async def load_then_open_a_round() -> None:
        await store.own_all()
        async with store.unit_of_work() as uow:
            handlers.HANDLERS[OpenRound](cmd(OpenRound), uow)
            uow.keep()

    asyncio.run(load_then_open_a_round())
    assert store.broken == {}
    table = store.aggregates[T]
    assert table.version == ours[-1].sequence + 1
    log = [encode(e) for e in bus.messages(TABLE_EVENTS_TOPIC)]
    new = decode(log[-1])
    assert (new.sequence, new.prev_hash) == (ours[-1].sequence + 1, ours[-1].hash)
    # the verifier sees the fork; the projector would keep ours and apply the new event
    report = verify(records(log))
    assert [b.kind for b in report.breaks] == ["fork"]

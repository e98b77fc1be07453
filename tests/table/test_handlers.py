"""The table service's handler map through the runtime's store and unit of work, on the
in-memory bus (no broker): what each message does, what is published, and that a new store
rebuilds the same tables from what was published."""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from contracts.envelope import Command, Message, utcnow
from contracts.payouts import PayoutsHeld, PayoutsNotHeld, PayoutsReleased
from contracts.table import (
    BetPlaced,
    BetSettled,
    CloseBets,
    CommandRejected,
    OpenRound,
    OpenTable,
    RecordSpin,
    RecordSpinData,
    RoundSettled,
    TableOpened,
    TableOpenedData,
)
from contracts.topics import TABLE_EVENTS_TOPIC, TABLE_SNAPSHOTS_TOPIC
from services.runtime.bus import Rejected
from services.runtime.store import AggregateStore
from services.runtime.testing import MemoryBus
from services.table import handlers
from services.table.domain import TableSession
from tests.table.test_holds import requested
from tests.table.unit import DEALER, T, bet, cmd

CONFIG = TableOpenedData(game="roulette", variant="european", seating="open", profile="BO",
                         currency="BOB", min_bet=100, max_bet=50_000)


def new_store(bus: MemoryBus, snapshot_every: int = 1_000_000) -> AggregateStore[TableSession]:
    return AggregateStore(factory=TableSession, aggregate_type="table", events=TABLE_EVENTS_TOPIC,
                          snapshots=TABLE_SNAPSHOTS_TOPIC, bus=bus, snapshot_every=snapshot_every)


async def deliver(store: AggregateStore[TableSession], *messages: Message) -> None:
    """One consumed batch, as the bus hands it over: each message to its handler, then keep."""
    async with store.unit_of_work() as uow:
        for message in messages:
            handlers.HANDLERS[type(message)](message, uow)
            uow.keep()


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def bus() -> MemoryBus:
    return MemoryBus()


def opened_store(bus: MemoryBus, **kw) -> AggregateStore[TableSession]:
    store = new_store(bus, **kw)
    run(store.own_all())
    run(deliver(store, cmd(OpenTable, payload=CONFIG), cmd(OpenRound)))
    return store


def test_open_table_creates_the_table_and_publishes_its_first_event(bus):
    opened_store(bus)
    [opened, round_opened] = bus.messages(TABLE_EVENTS_TOPIC)
    assert isinstance(opened, TableOpened) and opened.aggregate_id == T and opened.sequence == 1
    assert round_opened.sequence == 2


def test_a_command_for_a_table_never_opened_is_rejected_for_the_dead_letter_topic(bus):
    store = new_store(bus)
    run(store.own_all())
    with pytest.raises(Rejected) as refused:
        run(deliver(store, cmd(OpenRound)))
    assert refused.value.code == "unknown_aggregate" and "target_id" in refused.value.reason
    assert bus.messages(TABLE_EVENTS_TOPIC) == []


def test_a_redelivered_batch_publishes_nothing_new(bus):
    store = opened_store(bus)
    batch = [bet(bet_id="a"), bet(bet_id="b", numbers=("18",))]
    run(deliver(store, *batch))
    before = len(bus.messages(TABLE_EVENTS_TOPIC))
    run(deliver(store, *batch))
    assert len(bus.messages(TABLE_EVENTS_TOPIC)) == before


def test_a_dealer_may_not_open_a_table(bus):
    store = new_store(bus)
    run(store.own_all())
    run(deliver(store, cmd(OpenTable, actor=DEALER, payload=CONFIG)))
    [refused] = bus.messages(TABLE_EVENTS_TOPIC)
    assert isinstance(refused, CommandRejected) and refused.payload.code == "FORBIDDEN"


def test_a_check_of_a_table_this_service_does_not_run_is_ignored(bus):
    store = opened_store(bus)
    before = len(bus.messages(TABLE_EVENTS_TOPIC))
    foreign = requested().model_copy(update={"payload": requested().payload.model_copy(
        update={"table_id": "CRAPS-01"})})
    run(deliver(store, foreign))
    assert len(bus.messages(TABLE_EVENTS_TOPIC)) == before


def test_the_hold_timer_releases_a_hold_at_its_deadline_through_the_unit_of_work(bus):
    store = opened_store(bus)
    run(deliver(store, bet(bet_id="win"), *close_and_spin("17")))
    request = requested(declared=utcnow())
    run(deliver(store, request))
    assert isinstance(bus.messages(TABLE_EVENTS_TOPIC)[-1], PayoutsHeld)

    async def tick(now):
        async with store.unit_of_work() as uow:
            handlers.release_expiring_holds(uow, now, timedelta(seconds=5))

    deadline = request.payload.hold_deadline
    run(tick(deadline - timedelta(seconds=6)))                  # not yet
    assert isinstance(bus.messages(TABLE_EVENTS_TOPIC)[-1], PayoutsHeld)
    run(tick(deadline - timedelta(seconds=5)))                  # within the tick: released
    released = bus.messages(TABLE_EVENTS_TOPIC)[-1]
    assert isinstance(released, PayoutsReleased) and released.payload.outcome == "EXPIRED"
    assert released.occurred_at <= deadline


def test_a_request_delivered_after_its_deadline_holds_nothing_and_is_stamped_now(bus):
    """Issue 12: the vision service, behind, asks for a check whose 30 minutes are over: the
    table service pays (no PayoutsHeld) and records it at the time it got the request."""
    store = opened_store(bus)
    run(deliver(store, bet(bet_id="win"), *close_and_spin("17")))
    old = requested(declared=utcnow() - timedelta(minutes=31))
    before = utcnow()
    run(deliver(store, old))
    last = bus.messages(TABLE_EVENTS_TOPIC)[-1]
    assert isinstance(last, PayoutsNotHeld) and last.payload.why == "DEADLINE_PASSED"
    assert last.occurred_at >= before > old.payload.hold_deadline
    assert not any(isinstance(m, PayoutsHeld) for m in bus.messages(TABLE_EVENTS_TOPIC))


def test_an_instance_taking_a_table_over_releases_its_expired_holds_at_once(bus):
    """Issue 12: the owner died with a hold open past its deadline; the instance that takes
    the partition over pays it as soon as it has loaded the table, not at its next tick."""
    from services.table.bootstrap import watch_holds

    store = opened_store(bus)
    run(deliver(store, bet(bet_id="win"), *close_and_spin("17")))
    request = requested(declared=utcnow() - timedelta(minutes=29, seconds=58))
    run(deliver(store, request))                                   # held, 2 s left
    assert isinstance(bus.messages(TABLE_EVENTS_TOPIC)[-1], PayoutsHeld)
    standby = new_store(bus)
    watch_holds(standby)                                           # as bootstrap wires it

    async def take_over() -> None:  # due within the next tick: released now, not in 5 s
        await standby.own_all()
        await asyncio.gather(*standby._hooks)

    run(take_over())
    released = bus.messages(TABLE_EVENTS_TOPIC)[-1]
    assert isinstance(released, PayoutsReleased) and released.payload.outcome == "EXPIRED"
    assert released.occurred_at <= request.payload.hold_deadline


def test_a_new_store_rebuilds_the_same_tables_from_what_was_published(bus):
    store = opened_store(bus, snapshot_every=10)             # snapshot blocks along the way
    for n in range(5):
        run(deliver(store, bet(bet_id=f"x{n}"), bet(bet_id=f"y{n}", numbers=("3",))))
        run(deliver(store, *close_and_spin(str(n)), cmd(OpenRound)))
    again = new_store(bus, snapshot_every=10)
    run(again.own_all())
    old, new = store.aggregates[T], again.aggregates[T]
    assert again.last_load is not None
    assert again.last_load.snapshots == 1                    # restored from a block...
    assert new.version == old.version and new.rounds_played == old.rounds_played == 5
    assert new.snapshot_state() == old.snapshot_state()      # ...to the very same state
    settled = [m for m in bus.messages(TABLE_EVENTS_TOPIC) if isinstance(m, BetSettled)]
    assert len(settled) == 10
    assert len([m for m in bus.messages(TABLE_EVENTS_TOPIC) if isinstance(m, RoundSettled)]) == 5


def close_and_spin(pocket: str) -> list[Command]:
    return [cmd(CloseBets), cmd(RecordSpin, payload=RecordSpinData(pocket=pocket))]


class NoSnapshots(MemoryBus):
    """A log that takes events but fails every snapshot record (too large, say)."""

    async def publish_records(self, records, topic, partition):
        raise RuntimeError("MessageSizeTooLarge")


def test_a_snapshot_that_cannot_be_written_never_fails_the_batch():
    bus = NoSnapshots()
    store = opened_store(bus, snapshot_every=2)
    run(deliver(store, bet(bet_id="s1"), bet(bet_id="s2", numbers=("4",))))   # no exception
    placed = [m for m in bus.messages(TABLE_EVENTS_TOPIC) if isinstance(m, BetPlaced)]
    assert [m.payload.bet_id for m in placed] == ["s1", "s2"]
    assert store.since_snapshot[store.partition(T)] == 0     # tried, and waits to try again

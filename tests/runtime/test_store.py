"""The aggregate store and its unit of work on a real broker: rebuild with one gap policy,
snapshot blocks and the events after them, a failed message thrown away, partition ownership.

The aggregate here is a small one of the tests' own over real table events (it counts rounds),
so the store is tested apart from the table session's rules."""
from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from contracts.envelope import Actor
from contracts.table import OpenRound, RoundOpened, RoundOpenedData
from contracts.topics import TABLE_EVENTS_TOPIC, TABLE_SNAPSHOTS_TOPIC, partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker
from services.runtime.aggregate import Aggregate
from services.runtime.bus import Bus
from services.runtime.settings import Settings
from services.runtime.store import AggregateBroken, AggregateStore
from tests.e2e.floor import produce_raw

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
DEALER = Actor(employee_id="D1", role="dealer")


class Rounds(Aggregate):
    """Counts the rounds opened at a table; snapshots its count."""

    PRODUCER = "test"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.rounds = 0

    def mutate(self, event: Any) -> None:
        self.rounds += 1

    def open_round(self, command: OpenRound) -> None:
        if not self.has_handled(command):
            n = self.rounds + 1
            self.trigger(RoundOpened, RoundOpenedData(round_id=f"{self.id}.{n}", round_number=n),
                         command)

    def snapshot_state(self) -> dict[str, Any]:
        return {"rounds": self.rounds}

    def restore_state(self, state: dict[str, Any]) -> None:
        self.rounds = state["rounds"]


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with EmbeddedBroker(tmp_path_factory.mktemp("store-broker"), durable=False) as broker:
        ensure_topics(broker.bootstrap, partition_counts())
        yield Settings(bootstrap=broker.bootstrap, var_dir=tmp_path_factory.mktemp("var"))


def store_for(settings: Settings, every: int = 1_000_000) -> AggregateStore[Rounds]:
    return AggregateStore(factory=Rounds, aggregate_type="test", events=TABLE_EVENTS_TOPIC,
                          snapshots=TABLE_SNAPSHOTS_TOPIC, bus=Bus(settings, "test"),
                          snapshot_every=every)


def command(table: str) -> OpenRound:
    return OpenRound(target_id=table, issued_by="t", actor=DEALER, issued_at=T0)


async def open_rounds(store: AggregateStore[Rounds], table: str, n: int) -> None:
    async with store.unit_of_work() as uow:
        for _ in range(n):  # as the bus does: one message at a time, each through the uow
            uow.get_or_create(table).open_round(command(table))
            uow.keep()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def _bus(store: AggregateStore[Rounds]) -> Bus:
    assert isinstance(store.bus, Bus)  # store_for gives every store a Bus
    return store.bus


async def _connected(store: AggregateStore[Rounds]) -> AggregateStore[Rounds]:
    await _bus(store).broker.connect()
    await store.own_all()
    return store


def test_a_restart_reads_the_snapshot_block_and_only_the_events_after_it(settings):
    async def scenario() -> None:
        first = await _connected(store_for(settings, every=50))
        await open_rounds(first, "SNAP-1", 120)   # blocks written at 50 and 100 events
        await open_rounds(first, "SNAP-2", 3)
        await _bus(first).broker.stop()

        again = await _connected(store_for(settings, every=50))
        report = again.last_load
        assert report is not None
        assert again.aggregates["SNAP-1"].rounds == 120
        assert again.aggregates["SNAP-1"].version == 120
        assert again.aggregates["SNAP-2"].rounds == 3
        assert report.snapshots >= 1            # restored from a block, not from scratch
        assert report.events < 123              # and replayed only what followed it
        await _bus(again).broker.stop()

        full = AggregateStore(factory=Rounds, aggregate_type="test", events=TABLE_EVENTS_TOPIC,
                              bootstrap=settings.bootstrap)   # no snapshots: the whole log
        await full.own_all()
        assert full.aggregates["SNAP-1"].rounds == 120
        assert full.last_load is not None and full.last_load.events >= 123
    run(scenario())


def test_a_gap_in_the_log_marks_the_aggregate_broken_and_refuses_its_messages(settings):
    async def scenario() -> None:
        store = await _connected(store_for(settings))
        await open_rounds(store, "GAP-1", 2)
        # a foreign producer writes sequence 5 after 2: nothing may silently skip it
        jump = RoundOpened(aggregate_id="GAP-1", sequence=5, occurred_at=T0, producer="rogue",
                           correlation_id="c", payload=RoundOpenedData(round_id="GAP-1.5",
                                                                       round_number=5))
        produce_raw(settings.bootstrap, TABLE_EVENTS_TOPIC.name,
                    [(b"GAP-1", jump.model_dump_json().encode())])
        await _bus(store).broker.stop()
        again = await _connected(store_for(settings))
        assert "GAP-1" in again.broken and "expected sequence 3, got 5" in again.broken["GAP-1"]
        with pytest.raises(AggregateBroken):
            async with again.unit_of_work() as uow:
                uow.get("GAP-1")
        await _bus(again).broker.stop()
    run(scenario())


def test_a_failed_message_is_thrown_away_and_earlier_ones_are_kept(settings):
    async def scenario() -> None:
        store = await _connected(store_for(settings))
        async with store.unit_of_work() as uow:
            uow.get_or_create("UOW-1").open_round(command("UOW-1"))
            uow.keep()                                # message 1 handled
            good = uow.get("UOW-1")
            assert good is not None
            good.open_round(command("UOW-1"))         # message 2 triggers, then fails
            await uow.discard()
            assert store.aggregates["UOW-1"].rounds == 1   # reloaded from the log
            assert store.aggregates["UOW-1"] is not good   # the touched object is gone
        await _bus(store).broker.stop()
        again = await _connected(store_for(settings))
        assert again.aggregates["UOW-1"].version == 1      # message 1 was published
        await _bus(again).broker.stop()
    run(scenario())


def test_a_failed_publish_reloads_the_touched_partition_before_the_next_batch(settings):
    async def scenario() -> None:
        store = await _connected(store_for(settings))
        await open_rounds(store, "PUB-1", 1)
        with pytest.raises(RuntimeError):
            async with store.unit_of_work() as uow:
                table = uow.get("PUB-1")
                assert table is not None
                table.open_round(command("PUB-1"))
                raise RuntimeError("the broker went away while publishing")
        assert store.aggregates["PUB-1"].rounds == 2        # memory is ahead of the log...
        async with store.unit_of_work() as uow:
            reloaded = uow.get("PUB-1")
            assert reloaded is not None and reloaded.rounds == 1  # ...until the next batch reloads
        await _bus(store).broker.stop()
    run(scenario())


def test_an_instance_holds_only_the_partitions_it_owns(settings):
    async def scenario() -> None:
        store = await _connected(store_for(settings))
        tables = [f"OWN-{i}" for i in range(9)]
        for t in tables:
            await open_rounds(store, t, 1)
        mine = {store.partition("OWN-0")}
        await store.own(mine)
        assert set(store.aggregates) == {t for t in store.aggregates if store.owns(t)}
        assert {t for t in tables if store.owns(t)} <= set(store.aggregates)
        assert not any(t in store.aggregates for t in tables if not store.owns(t))
        await store.release(mine)
        assert store.aggregates == {} and store.owned == set()
        await _bus(store).broker.stop()
    run(scenario())

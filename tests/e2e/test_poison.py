"""A message that can never be applied does not stop a consumer (issue 12's probe): two tables
that both used bet id "b1" broke the projector's bets key, and the batch was redelivered forever
while every later table on that partition stayed out of DuckDB. Bets are now keyed by round and
bet id (tests/e2e/test_forks.py), so the poison here is an event that reuses another's event id
(the projection's `events` key, floor-wide). The batch is tried a record at a time after 3
failures; the record that fails alone is dead-lettered as poison, and the rest of the partition
is projected. Real broker, real projector, real DuckDB file."""
from __future__ import annotations

import asyncio

from contracts import decode, encode
from contracts.chain import seal
from contracts.deadletter import DeadLetter
from contracts.envelope import Event
from contracts.table import OpenRound, OpenTable, PlaceBet, TableOpenedData
from contracts.topics import DEAD_LETTER_TOPIC, TABLE_EVENTS_TOPIC, partition_for
from services.projections import app as projector_app
from services.runtime.settings import Settings
from services.table.domain import TableSession
from tests.e2e.floor import produce_raw, query, read_topic, wait_for
from tests.table.unit import DEALER, PIT, bet

CONFIG = TableOpenedData(game="roulette", variant="european", seating="open", profile="BO",
                         currency="BOB", min_bet=100, max_bet=50_000)


def same_partition_tables(n: int) -> list[str]:
    """n table ids whose events land in one partition (so one batch holds them all)."""
    found = [f"P{i:03d}" for i in range(500)]
    first = partition_for(found[0], TABLE_EVENTS_TOPIC.partitions)
    return [t for t in found if partition_for(t, TABLE_EVENTS_TOPIC.partitions) == first][:n]


def opened_with_bet(table_id: str, with_bet: bool) -> list[Event]:
    session = TableSession(table_id)
    commands = [OpenTable(target_id=table_id, issued_by="t", actor=PIT, payload=CONFIG),
                OpenRound(target_id=table_id, issued_by="t", actor=DEALER)]
    if with_bet:
        b1 = bet(bet_id="b1")
        commands.append(PlaceBet(target_id=table_id, issued_by="t", actor=DEALER,
                                 payload=b1.payload))
    for command in commands:
        session.handle(command)
    return session.collect()


def test_a_poison_event_is_dead_lettered_and_the_partition_moves_on(floor: Settings, tmp_path):
    db = tmp_path / "floor.duckdb"
    first, second, later = same_partition_tables(3)
    firsts, seconds = opened_with_bet(first, True), opened_with_bet(second, True)
    # the second table's bet, written again (and sealed again) under the first's event id
    seconds[-1] = seal(seconds[-1].model_copy(update={"event_id": firsts[-1].event_id,
                                                      "hash": None}))
    events = firsts + seconds + opened_with_bet(later, False)
    produce_raw(floor.bootstrap, TABLE_EVENTS_TOPIC.name,
                [(e.key.encode(), encode(e)) for e in events])

    async def scenario() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(projector_app.main(floor, db, stop=stop))
        try:
            await wait_for(lambda: query(db, f"SELECT count(*) FROM tables WHERE table_id = "
                                             f"'{later}'") == [(1,)], 90,
                           "the table after the poison event projected")
        finally:
            stop.set()
            await task

    asyncio.run(scenario())
    letters = [decode(r.value) for r in read_topic(floor.bootstrap, DEAD_LETTER_TOPIC.name)]
    poison = [d for d in letters if isinstance(d, DeadLetter) and d.code == "poison"]
    assert len(poison) == 1, letters
    assert f'Duplicate key "event_id: {firsts[-1].event_id}"' in poison[0].reason, poison[0].reason
    original = decode(poison[0].original())
    assert isinstance(original, Event) and original.aggregate_id == second  # the second bet
    assert query(db, "SELECT table_id FROM bets WHERE bet_id = 'b1'") == [(first,)]
    assert query(db, f"SELECT count(*) FROM tables WHERE table_id IN ('{first}', '{second}', "
                     f"'{later}')") == [(3,)]

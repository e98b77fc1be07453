"""Issue 12: a payout hold is released at its deadline by whichever table-service instance owns
the table, also when the owner dies (seed 002 §1.3; seed 004 RG §6: «no podrá exceder de 30
minutos»). Two instances share the floor; right after their holds start, the owner of some
tables is killed with SIGKILL. Some holds end while it is dead ("short"), some well after
("long"). The standby must take its partitions over and release every hold; the worst
lateness (release time − deadline) is measured and bounded.

The bound, and why: the broker notices the dead member after the consumers' session timeout
(6 s, services/runtime/bus.py) and the survivor rejoins within the rebalance timeout (3 s);
it then loads the partitions (a few events here, well under a second) and, taking them over,
releases at once whatever is due (AggregateStore.on_owned, services/table/bootstrap.py)
instead of waiting for its next HOLD_TICK (5 s). 6 + 3 + load ≈ 10 s; BOUND leaves room for a
machine shared by several test runs. A hold ending after the takeover is released on time.
"""
from __future__ import annotations

import asyncio
import signal
import time
from datetime import timedelta

import pytest
from kafka import KafkaProducer

import contracts
from contracts.envelope import Actor, utcnow
from contracts.money import Money
from contracts.payouts import PayoutsHeld, PayoutsReleased
from contracts.table import (
    BetSpec,
    CloseBets,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    RecordSpin,
    RecordSpinData,
    RoundSettled,
    TableOpenedData,
)
from contracts.topics import (
    TABLE_COMMANDS_TOPIC,
    TABLE_EVENTS_TOPIC,
    VISION_CHECKS_TOPIC,
    partition_for,
)
from contracts.vision import VerificationRequested, VerificationRequestedData
from services.runtime.settings import Settings
from services.table.bootstrap import HOLD_TICK
from tests.e2e.floor import read_topic, wait_for
from tests.e2e.test_two_table_services import free_port, owned, start_instance

BOUND = timedelta(seconds=15)   # takeover ≈ 6 s session + 3 s rebalance + load; see above
# from the requests; SHORT ends inside the takeover (about 10 s) yet after the live owner's
# next tick (5 s): a shorter hold could start and end between two ticks, and be late by design
SHORT, LONG = timedelta(seconds=8), timedelta(seconds=20)
PIT = Actor(employee_id="PM1", role="pit_manager")
DEALER = Actor(employee_id="D1", role="dealer")


def tables_per_partition() -> list[str]:
    """Two table ids on each partition of the command topic."""
    found: dict[int, list[str]] = {}
    n = 0
    while any(len(found.get(p, [])) < 2 for p in range(TABLE_COMMANDS_TOPIC.partitions)):
        n += 1
        tid = f"HOLD-{n:02d}"
        found.setdefault(partition_for(tid, TABLE_COMMANDS_TOPIC.partitions), []).append(tid)
    return sorted(t for ts in found.values() for t in ts[:2])


def send(bootstrap: str, topic, messages) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap)
    for m in messages:
        producer.send(topic.name, key=m.key.encode(), value=contracts.encode(m),
                      partition=partition_for(m.key, topic.partitions))
    producer.flush()
    producer.close()


def one_winning_round(tid: str) -> list:
    def cmd(cls, actor=DEALER, **kw):
        return cls(target_id=tid, issued_by="test", actor=actor, **kw)
    return [cmd(OpenTable, PIT, payload=TableOpenedData(
                game="roulette", variant="european", seating="open", profile="BO",
                currency="BOB", min_bet=100, max_bet=50_000)),
            cmd(OpenRound),
            cmd(PlaceBet, payload=PlaceBetData(bet_id=f"{tid}-b1", seat=1, player_id="P1",
                                               bet=BetSpec(kind="straight", numbers=("17",),
                                                           stake=Money(amount=1000,
                                                                       currency="BOB")))),
            cmd(CloseBets), cmd(RecordSpin, payload=RecordSpinData(pocket="17"))]


def verification(tid: str, lasts: timedelta) -> VerificationRequested:
    now = utcnow()
    return VerificationRequested(
        aggregate_id=f"chk-{tid}", sequence=1, occurred_at=now, producer="vision-service",
        correlation_id=f"chk-{tid}", partition_key=tid, payload=VerificationRequestedData(
            table_id=tid, round_id=f"{tid}.1", kind="wheel", dealer_result="17",
            read_result="18", confidence=0.9, evidence_sha256="0" * 64, evidence_uri="e.png",
            reason="MISMATCH", detail="camera read 18", hold_deadline=now + lasts))


def events(bootstrap: str) -> list:
    return [contracts.decode(r.value) for r in read_topic(bootstrap, TABLE_EVENTS_TOPIC.name)]


@pytest.fixture(scope="module")
def failover(floor: Settings, tmp_path_factory: pytest.TempPathFactory):
    work = tmp_path_factory.mktemp("failover")
    ports = [free_port(), free_port()]
    procs = [start_instance(floor, p, work / f"table-{i}.log") for i, p in enumerate(ports)]
    tables = tables_per_partition()
    seen: dict = {}

    async def scenario() -> None:
        await wait_for(lambda: all(owned(p) for p in ports) and
                       sorted(sum((owned(p) or [] for p in ports), [])) == [0, 1, 2], 90,
                       "two instances sharing the partitions")
        victim = owned(ports[0]) or []
        seen["victim_tables"] = {t for t in tables if
                                 partition_for(t, TABLE_COMMANDS_TOPIC.partitions) in victim}
        send(floor.bootstrap, TABLE_COMMANDS_TOPIC, [c for t in tables
                                                      for c in one_winning_round(t)])
        await wait_for(lambda: sum(isinstance(e, RoundSettled)
                                   for e in events(floor.bootstrap)) == len(tables), 60,
                       "every table's round settled")
        # half the tables' holds end while the owner is dead, half well after the takeover
        seen["lasts"] = {t: SHORT if i % 2 == 0 else LONG for i, t in enumerate(tables)}
        send(floor.bootstrap, VISION_CHECKS_TOPIC,
             [verification(t, seen["lasts"][t]) for t in tables])
        await wait_for(lambda: sum(isinstance(e, PayoutsHeld)
                                   for e in events(floor.bootstrap)) == len(tables), 30,
                       "every hold started")
        procs[0].send_signal(signal.SIGKILL)
        seen["killed_at"] = utcnow()
        started = time.monotonic()
        await wait_for(lambda: owned(ports[1]) == [0, 1, 2], 60, "the standby takes over")
        seen["takeover_seconds"] = time.monotonic() - started
        await wait_for(lambda: sum(isinstance(e, PayoutsReleased)
                                   for e in events(floor.bootstrap)) == len(tables),
                       LONG.total_seconds() + 30, "every hold released")

    try:
        asyncio.run(scenario())
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    records = read_topic(floor.bootstrap, TABLE_EVENTS_TOPIC.name)
    return tables, seen, [(contracts.decode(r.value), r.timestamp) for r in records]


def lateness(log) -> dict[str, tuple[float, float]]:
    """Per table: (release time − deadline, broker append time − deadline), in seconds."""
    held = {e.payload.round_id: e for e, _ in log if isinstance(e, PayoutsHeld)}
    out = {}
    for e, ts in log:
        if isinstance(e, PayoutsReleased):
            deadline = held[e.payload.round_id].payload.deadline
            out[e.aggregate_id] = ((e.occurred_at - deadline).total_seconds(),
                                   ts / 1000 - deadline.timestamp())
    return out


def test_every_hold_is_released_once_by_an_owner_also_after_a_kill(failover):
    tables, seen, log = failover
    released = [e for e, _ in log if isinstance(e, PayoutsReleased)]
    assert sorted(e.aggregate_id for e in released) == tables     # each exactly once
    assert all(e.payload.outcome == "EXPIRED" for e in released)
    assert seen["victim_tables"] and set(seen["victim_tables"]) != set(tables)


def test_the_worst_release_lateness_with_a_standby_is_bounded(failover):
    tables, seen, log = failover
    late = lateness(log)
    worst = max(max(pair) for pair in late.values())
    print(f"\nkill → standby owns all partitions: {seen['takeover_seconds']:.1f} s; "
          f"worst release lateness {worst:.1f} s (bound {BOUND.total_seconds():g} s, tick "
          f"{HOLD_TICK.total_seconds():g} s); per table: "
          + ", ".join(f"{t}={late[t][0]:+.1f}s" for t in sorted(late)))
    assert worst <= BOUND.total_seconds(), late
    # the holds the dead owner left to end during the takeover were the late ones, if any
    for t in tables:
        if t not in seen["victim_tables"] or seen["lasts"][t] == LONG:
            assert late[t][0] <= 0, (t, late[t])   # released on time by a live owner


def test_a_release_says_within_hold_exactly_when_it_was_on_time(failover):
    _tables, _seen, log = failover
    late = lateness(log)
    for e, _ in log:
        if isinstance(e, PayoutsReleased):
            assert e.payload.within_hold is (late[e.aggregate_id][0] <= 0)

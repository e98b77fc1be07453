"""The fault scenarios, one registry: each names what it breaks and how (`inject`), on a floor
whose terminals are playing. The runner (test_faults.py) starts the floor, lets play reach
`at` of its rounds, injects the fault, then checks what checks.py says must hold.

To add a scenario, write an `inject` coroutine and register a Scenario in SCENARIOS. A scenario
with `skip` set is listed and reported as skipped with that reason: a fault the floor cannot
yet produce is never faked.
"""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from kafka import KafkaProducer

from contracts import encode
from contracts.deadletter import DeadLetter
from contracts.envelope import Actor
from contracts.identity import sign_command
from contracts.payouts import PayoutsHeld
from contracts.table import (
    CloseTable,
    CommandRejected,
    OpenTable,
    TableClosed,
    TableClosedData,
    TableOpenedData,
)
from contracts.topics import TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC, partition_for
from services.table.domain import TableSession
from tests.faults.checks import Log, read_all, unreleased_holds
from tests.faults.harness import Floor, Terminals, http_json, poll

DOWN_SECONDS = 5.0     # how long a killed service stays down before it is started again
HOLD_MINUTES = 1.0     # the house hold in the hold scenarios: a vision backlog on a busy
                       # machine asks for holds late, and a shorter one may be over before it
                       # is seen open
HOLD_OUTAGE = 40.0     # the outage while holds are open: most of a hold
PIT = Actor(employee_id="PM-F", role="pit_manager")
CONFIG = TableOpenedData(game="roulette", variant="european", seating="open", profile="BO",
                         currency="BOB", min_bet=100, max_bet=50_000)


@dataclass
class Run:
    """What an inject step works with, and what it records."""

    floor: Floor
    terminals: Terminals
    fault_at: float = 0.0               # time.monotonic() of the fault
    notes: list[str] = field(default_factory=list)
    injected: dict[str, Any] = field(default_factory=dict)

    def fault(self) -> None:
        self.fault_at = time.monotonic()


Inject = Callable[[Run], Awaitable[None]]
Verify = Callable[[Run, Log], None]


@dataclass(frozen=True)
class Scenario:
    name: str
    what: str
    inject: Inject | None = None
    verify: Verify | None = None          # checks of its own, beyond checks.py's
    prepare: Inject | None = None         # before play starts (a standby, say)
    vision: bool = False                  # run the vision service and wheel cameras
    hold_minutes: float = 0.25            # the house hold (with vision): 15 s
    tables: int = 3
    rounds: int = 16                      # per table
    rate: float = 1.0                     # rounds per second per table
    at: float = 0.35                      # share of the rounds played before the fault
    short: bool = False                   # also in `make test` (a smaller floor)
    skip: str | None = None
    max_hold_lateness: float | None = None   # seconds; asserted when set
    durable: bool = False                 # the broker keeps its log on disk (to restart it)


# ----- kills and restarts ------------------------------------------------------------------

def kill_and_restart(instance: str, down: float = DOWN_SECONDS) -> Inject:
    async def inject(run: Run) -> None:
        run.fault()
        svc = run.floor.services[instance]
        svc.kill()
        await asyncio.sleep(down)     # an outage of a chosen length, not a wait for a state
        svc.start()
    return inject


async def broker_restart(run: Run) -> None:
    run.fault()
    await asyncio.to_thread(run.floor.restart_broker)


async def holds_open(run: Run) -> set[str]:
    """Wait until some payouts are on hold and not yet released (read from the raw log);
    returns the tables holding them."""
    # The vision service may check frames well after play (a backlog on a busy machine):
    # the holds open when it gets there, so this waits beyond the end of play.
    deadline = time.monotonic() + 240
    while True:
        log = await Log.read(run.floor.broker.bootstrap)
        tables = {e.aggregate_id for e in log.applied_events()
                  if isinstance(e, PayoutsHeld) and e.payload.round_id in unreleased_holds(log)}
        if tables:
            return tables
        if time.monotonic() > deadline:
            raise TimeoutError("no payout hold was open in 240 s")
        await asyncio.sleep(0.5)


async def standby(run: Run) -> None:
    """A second table service, running before play starts: it owns part of the floor."""
    run.floor.service("table", "table-standby")
    await poll(lambda: bool(_owned(run.floor, "table-standby")) and
               bool(_owned(run.floor, "table")), 120, "the standby joined the group")


def kill_with_open_holds(instance: str, standby: bool = False) -> Inject:
    async def inject(run: Run) -> None:
        holding = sorted(await holds_open(run))
        if standby:   # the owner of a table with an open hold dies; the other carries on
            partition = partition_for(holding[0], TABLE_EVENTS_TOPIC.partitions)
            owner = next((i for i in ("table", "table-standby")
                          if partition in (_owned(run.floor, i) or [])), "table")
            survivor = "table-standby" if owner == "table" else "table"
            run.fault()
            run.floor.services.pop(owner).kill()
            await poll(lambda: _owned(run.floor, survivor) == [0, 1, 2], 120,
                       "the survivor owns every partition")
            run.notes.append(f"killed {owner}, the owner of {holding[0]} (open hold); "
                             f"{survivor} took over every partition")
        else:
            await kill_and_restart(instance, down=HOLD_OUTAGE)(run)
    return inject


def _owned(floor: Floor, instance: str) -> list[int] | None:
    try:
        return list(http_json(floor.services[instance].port, "/status")["partitions"])
    except (OSError, KeyError, ValueError):
        return None


async def second_instance(run: Run) -> None:
    """A second table service started by mistake; later the first is killed with SIGKILL."""
    second = run.floor.service("table", "table-2")
    await poll(second.healthy, 120, "the second instance answers")
    played = run.terminals.sent_rounds
    await poll(lambda: run.terminals.sent_rounds >= played + 2 * run.terminals.tables, 120,
               "more rounds with two instances")
    run.fault()
    run.floor.services.pop("table").kill()
    await poll(lambda: _owned(run.floor, "table-2") == [0, 1, 2], 120,
               "the second instance owns every partition")


# ----- duplicated and reordered delivery ----------------------------------------------------

async def duplicate_and_reorder(run: Run) -> None:
    """Copies of commands and events already on the topics, published again in reverse order
    to their own partitions (a producer's retries, a replayed backup)."""
    bootstrap = run.floor.broker.bootstrap
    commands = await read_all(bootstrap, TABLE_COMMANDS_TOPIC.name)
    events = await read_all(bootstrap, TABLE_EVENTS_TOPIC.name)
    copies = [(TABLE_COMMANDS_TOPIC.name, r) for r in commands[-40:]] + \
             [(TABLE_EVENTS_TOPIC.name, r) for r in events[-60:]]
    producer = KafkaProducer(bootstrap_servers=bootstrap, max_request_size=1 << 20)
    run.fault()
    for topic, r in reversed(copies):
        producer.send(topic, key=r.key, value=r.value, partition=r.partition)
    producer.flush()
    producer.close()
    run.injected["copies"] = len(copies)


# ----- poison ---------------------------------------------------------------------------------

def _same_partition(prefix: str, n: int) -> list[str]:
    names = [f"{prefix}{i:03d}" for i in range(500)]
    first = partition_for(names[0], TABLE_EVENTS_TOPIC.partitions)
    return [t for t in names if partition_for(t, TABLE_EVENTS_TOPIC.partitions) == first][:n]


def _forged_events_with_bet_b1(table_ids: list[str]) -> list:
    """Events of tables that each place a bet "b1" (a key the projection may hold once)."""
    from contracts.table import OpenRound, PlaceBet
    from tests.table.unit import DEALER, bet
    events = []
    for table_id in table_ids:
        session = TableSession(table_id)
        for command in (OpenTable(target_id=table_id, issued_by="fault", actor=PIT,
                                  payload=CONFIG),
                        OpenRound(target_id=table_id, issued_by="fault", actor=DEALER),
                        PlaceBet(target_id=table_id, issued_by="fault", actor=DEALER,
                                 payload=bet(bet_id="b1").payload)):
            session.handle(command)
        events += session.collect()
    return events


async def poison(run: Run) -> None:
    """Every kind of message that can never succeed, on the live topics."""
    run.fault()
    bootstrap = run.floor.broker.bootstrap
    table = "RUL-01"
    big_table = "FAULT-BIG"
    bet: dict[str, Any] = {"command_type": "PlaceBet", "schema_version": 1, "target_id": table,
           "command_id": "poison-invalid", "issued_at": "2026-11-25T12:00:00+00:00",
           "issued_by": "fault", "correlation_id": "poison", "actor": {
               "employee_id": "D101", "role": "dealer"},
           "payload": {"bet_id": "x", "seat": 1, "player_id": "P1", "bet": {
               "kind": "straight", "numbers": ["17"], "stake": {"amount": -5,
                                                               "currency": "BOB"}}}}
    huge = dict(bet, command_id="poison-10mb",
                payload=dict(bet["payload"], player_id="x" * 10_000_000))
    items = {
        "undecodable": (table, b"\xff\xfe not json at all \x00"),
        "unknown_type": (table, json.dumps(dict(bet, command_type="SpinTwice")).encode()),
        "invalid_payload": (table, json.dumps(bet).encode()),
        "10 MB message": (table, json.dumps(huge).encode()),
        "open for the oversized event": (big_table, encode(OpenTable(
            target_id=big_table, issued_by="fault", actor=PIT, payload=CONFIG))),
        "event over its topic's limit": (big_table, encode(CloseTable(
            target_id=big_table, issued_by="fault", actor=PIT, payload=TableClosedData(
                reason="x" * (TABLE_EVENTS_TOPIC.max_message_bytes + 1))))),
    }
    producer = KafkaProducer(bootstrap_servers=bootstrap, max_request_size=16 << 20)
    where = {}
    for kind, (key, value) in items.items():
        meta = producer.send(TABLE_COMMANDS_TOPIC.name, key=key.encode(), value=value).get(30)
        where[kind] = (TABLE_COMMANDS_TOPIC.name, meta.partition, meta.offset)
    forged = _forged_events_with_bet_b1(_same_partition("FAULT-P", 2))
    for e in forged:
        meta = producer.send(TABLE_EVENTS_TOPIC.name, key=e.key.encode(),
                             value=encode(e)).get(30)
    where["constraint-breaking event"] = (TABLE_EVENTS_TOPIC.name, meta.partition, meta.offset)
    producer.flush()
    producer.close()
    run.injected["poison"] = where


def verify_poison(run: Run, log: Log) -> None:
    where = run.injected["poison"]
    letters = {(d.source_topic, d.partition, d.offset): d for d in log.letters}
    must_die = {"undecodable": "undecodable", "unknown_type": "unknown_type",
                "invalid_payload": "invalid_payload", "10 MB message": "invalid_payload",
                "event over its topic's limit": "poison"}
    for kind, code in must_die.items():
        letter: DeadLetter | None = letters.get(where[kind])
        assert letter is not None, f"{kind} at {where[kind]} was not dead-lettered"
        assert letter.code == code, (kind, letter.code, letter.reason)
    big = letters[where["10 MB message"]]
    assert big.truncated and (big.original_size or 0) > 10_000_000
    # the constraint-breaking event is dead-lettered, or applied where the projection keys
    # bets by table: either way its partition moved on (checks: the report equals the log)


# ----- forged actor and tampered history -----------------------------------------------------

async def forged_actor(run: Run) -> None:
    """An attacker with access to the commands topic closes a playing table in a pit manager's
    name, signing with a key of their own that no administrator ever registered."""
    attacker = Ed25519PrivateKey.generate()
    command = sign_command(CloseTable(target_id="RUL-01", issued_by="attacker", actor=PIT,
                                      payload=TableClosedData(reason="forged")), attacker)
    producer = KafkaProducer(bootstrap_servers=run.floor.broker.bootstrap)
    run.fault()
    producer.send(TABLE_COMMANDS_TOPIC.name, key=b"RUL-01", value=encode(command)).get(30)
    producer.close()
    run.injected["forged"] = command.command_id


def verify_forged_actor(run: Run, log: Log) -> None:
    forged = run.injected["forged"]
    refusals = [m for _, m in log.events if isinstance(m, CommandRejected)
                and m.payload.command_id == forged]
    assert [(r.payload.code, r.payload.field) for r in refusals] == [("FORBIDDEN", "signature")]
    assert not any(isinstance(m, TableClosed) and m.aggregate_id == "RUL-01"
                   for _, m in log.events), "a forged command closed the table"


async def tampered_event(run: Run) -> None:
    """A settled bet's payout rewritten on the events topic after it was written (its hash
    left as it was): a copy at the same sequence with other content."""
    bootstrap = run.floor.broker.bootstrap
    records = await read_all(bootstrap, TABLE_EVENTS_TOPIC.name)
    record = next(r for r in reversed(records) if b'"BetSettled"' in r.value)
    body = json.loads(record.value)
    body["payload"]["paid"]["amount"] += 100_000
    producer = KafkaProducer(bootstrap_servers=bootstrap, max_request_size=1 << 20)
    run.fault()
    producer.send(TABLE_EVENTS_TOPIC.name, key=record.key, value=json.dumps(body).encode(),
                  partition=record.partition).get(30)
    producer.close()
    run.injected["tampered"] = (body["aggregate_id"], body["sequence"])


def verify_tampered_event(run: Run, log: Log) -> None:
    table, sequence = run.injected["tampered"]
    quarantined = [d for d in log.letters if d.source_topic == TABLE_EVENTS_TOPIC.name
                   and d.code in ("fork", "broken_chain")]
    assert quarantined, "the rewritten event was not quarantined"
    verify = subprocess.run([sys.executable, "-m", "services.cli.main", "audit", "verify",
                             "--table", table, "--json", "--bootstrap",
                             run.floor.broker.bootstrap], capture_output=True, text=True,
                            timeout=300)
    assert verify.returncode == 1, verify.stdout[-2000:] + verify.stderr[-2000:]
    run.notes.append(f"rewritten {table} #{sequence}: quarantined as "
                     f"{quarantined[0].code}, `casino audit verify` exit 1")


# ----- the registry ---------------------------------------------------------------------------

SCENARIOS: dict[str, Scenario] = {s.name: s for s in (
    Scenario("kill -9 table service", "SIGKILL of the table service mid-stream, restarted "
             f"{DOWN_SECONDS:.0f} s later", kill_and_restart("table"), short=True),
    Scenario("kill -9 projector", "SIGKILL of the projector mid-stream, restarted "
             f"{DOWN_SECONDS:.0f} s later", kill_and_restart("projector")),
    Scenario("kill -9 vision service", "SIGKILL of the vision service mid-stream, restarted "
             f"{DOWN_SECONDS:.0f} s later", kill_and_restart("vision"), vision=True),
    Scenario("broker restart", "the broker stopped and started again on its durable log "
             "mid-stream", broker_restart, durable=True),
    Scenario("duplicated and reordered delivery", "copies of the last 40 commands and 60 "
             "events published again, in reverse order", duplicate_and_reorder),
    Scenario("poison messages", "undecodable bytes, an unknown type, an invalid payload, a "
             "10 MB command, a command whose event is over the events topic's limit, and two "
             "tables' events breaking the projection's bet key", poison, verify_poison),
    Scenario("second table instance by mistake", "a second table service started mid-stream, "
             "then the first killed with SIGKILL", second_instance),
    Scenario("table service dies with open holds", "SIGKILL of the only table service while "
             f"payouts are held (1-minute house hold), restarted {HOLD_OUTAGE:.0f} s later",
             kill_with_open_holds("table"), vision=True, rounds=30,
             hold_minutes=HOLD_MINUTES),
    Scenario("table service dies with open holds, standby running", "a standby table service "
             "runs; SIGKILL of the owner of a table with held payouts (1-minute house hold)",
             kill_with_open_holds("table", standby=True), prepare=standby, vision=True,
             rounds=30, hold_minutes=HOLD_MINUTES, max_hold_lateness=30.0),
    Scenario("vision service dies with open holds", "SIGKILL of the vision service while "
             f"payouts are held (1-minute house hold), restarted {HOLD_OUTAGE:.0f} s later",
             kill_with_open_holds("vision"), vision=True, rounds=30,
             hold_minutes=HOLD_MINUTES),
    Scenario("forged actor", "CloseTable of a playing table in a pit manager's name, signed "
             "with the attacker's own (never registered) key", forged_actor,
             verify_forged_actor),
    Scenario("tampered event", "a settled bet's payout rewritten on the events topic after it "
             "was written", tampered_event, verify_tampered_event),
)}

"""What every fault scenario must leave true, computed from the raw log (read with the runtime's
LogReader, independent of the services' state):

- nothing lost: every record on the commands topic is answered — an event caused by its command
  id (CommandRejected included), or a dead letter naming its partition and offset;
- nothing applied twice: after identical redeliveries (same event id) are set aside, each
  table's sequence numbers run 1..n with no number carried by two different events, and each
  round, bet and payout hold is settled or released once;
- the report (the DuckDB projection, `casino report tables --json`) equals the figures
  recomputed from the events in the log;
- the worst lateness of a payout hold released by its deadline timer.
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from aiokafka import ConsumerRecord

from contracts import DecodeError, decode
from contracts.deadletter import DeadLetter
from contracts.envelope import Command, Event
from contracts.payouts import PayoutsHeld, PayoutsReleased
from contracts.table import BetSettled, CommandRejected, RoundSettled
from contracts.topics import DEAD_LETTER_TOPIC, TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC
from services.runtime.replay import LogReader
from tests.e2e.floor import figures_from_events

REPO = Path(__file__).resolve().parents[2]


async def read_all(bootstrap: str, topic: str) -> list[ConsumerRecord]:
    async with LogReader(bootstrap) as reader:
        records = []
        for partition in await reader.partitions(topic):
            records += [r async for r in reader.records(topic, partition)]
        return records


def _decoded(records: list[ConsumerRecord]) -> list[tuple[ConsumerRecord, object]]:
    out: list[tuple[ConsumerRecord, object]] = []
    for r in records:
        try:
            out.append((r, decode(r.value)))
        except DecodeError:
            out.append((r, None))
    return out


@dataclass
class Log:
    """The raw log of one scenario."""

    commands: list[tuple[ConsumerRecord, object]]   # (record, Command or None if undecodable)
    events: list[tuple[ConsumerRecord, object]]
    letters: list[DeadLetter]

    @classmethod
    async def read(cls, bootstrap: str) -> Log:
        letters = [m for _, m in _decoded(await read_all(bootstrap, DEAD_LETTER_TOPIC.name))
                   if isinstance(m, DeadLetter)]
        return cls(_decoded(await read_all(bootstrap, TABLE_COMMANDS_TOPIC.name)),
                   _decoded(await read_all(bootstrap, TABLE_EVENTS_TOPIC.name)), letters)

    def dead(self, topic: str) -> set[tuple[int, int]]:
        return {(d.partition, d.offset) for d in self.letters if d.source_topic == topic}

    def applied_events(self) -> list[Event]:
        """Table events the projector may apply: decodable, not dead-lettered, each event id
        once (an identical redelivery is no second event)."""
        dead = self.dead(TABLE_EVENTS_TOPIC.name)
        seen: set[str] = set()
        out: list[Event] = []
        for r, m in self.events:
            if isinstance(m, Event) and (r.partition, r.offset) not in dead \
                    and m.event_id not in seen:
                seen.add(m.event_id)
                out.append(m)
        return out


def lost_commands(log: Log) -> list[str]:
    """Command records with neither an event caused by their command id nor a dead letter."""
    caused = {e.causation_id for e in log.applied_events()}
    caused |= {e.payload.command_id for e in log.applied_events()
               if isinstance(e, CommandRejected)}
    dead = log.dead(TABLE_COMMANDS_TOPIC.name)
    lost = []
    for r, m in log.commands:
        if (r.partition, r.offset) in dead:
            continue
        if isinstance(m, Command) and m.command_id in caused:
            continue
        what = f"{type(m).__name__} {m.command_id}" if isinstance(m, Command) else "undecodable"
        lost.append(f"{TABLE_COMMANDS_TOPIC.name}[{r.partition}]@{r.offset}: {what}")
    return lost


def applied_twice(log: Log) -> list[str]:
    """Forks (one sequence number, two different events), gaps, and anything settled twice."""
    problems: list[str] = []
    events = log.applied_events()
    by_aggregate: dict[str, Counter[int]] = defaultdict(Counter)
    for e in events:
        by_aggregate[e.aggregate_id][e.sequence] += 1
    for aggregate, sequences in sorted(by_aggregate.items()):
        forked = sorted(s for s, n in sequences.items() if n > 1)
        if forked:
            problems.append(f"{aggregate}: sequences {forked[:5]} carried by two events")
        if sorted(sequences) != list(range(1, len(sequences) + 1)):
            problems.append(f"{aggregate}: sequences are not 1..{len(sequences)}")
    twice = [
        ("round settled", Counter(e.payload.round_id for e in events
                                  if isinstance(e, RoundSettled))),
        ("bet settled", Counter(e.payload.bet_id for e in events if isinstance(e, BetSettled)
                                and e.payload.imprisoned_from is None)),
        ("hold released", Counter(e.payload.round_id for e in events
                                  if isinstance(e, PayoutsReleased))),
    ]
    for what, counts in twice:
        problems += [f"{what} {n} times: {key}" for key, n in counts.items() if n > 1]
    return problems


def worst_hold_lateness(log: Log) -> timedelta | None:
    """The latest a hold was released after its deadline (zero when on time); None without
    holds."""
    events = log.applied_events()
    held = {e.payload.round_id: e.payload.deadline for e in events if isinstance(e, PayoutsHeld)}
    late = [max(timedelta(0), e.occurred_at - held[e.payload.round_id]) for e in events
            if isinstance(e, PayoutsReleased) and e.payload.round_id in held]
    return max(late) if late else None


def unreleased_holds(log: Log) -> set[str]:
    events = log.applied_events()
    released = {e.payload.round_id for e in events if isinstance(e, PayoutsReleased)}
    return {e.payload.round_id for e in events
            if isinstance(e, PayoutsHeld) and e.payload.round_id not in released}


def expected_figures(log: Log) -> dict[str, dict]:
    """The figures of the events the projector may apply; a table is not reliable while its
    log holds a quarantined copy (a dead letter `fork` or `broken_chain`), as the report says."""
    figures = figures_from_events(log.applied_events())
    forked = {d.key for d in log.letters if d.source_topic == TABLE_EVENTS_TOPIC.name
              and d.code in ("fork", "broken_chain")}
    for table_id, f in figures.items():
        f["reliable"] = f["reliable"] and table_id not in forked
    return figures


def report_tables(db: Path) -> dict[str, dict]:
    """`casino report tables --db DB --json`, as a person runs it."""
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "report", "tables",
                             "--db", str(db), "--json"], capture_output=True, text=True,
                            cwd=REPO, timeout=120)
    if result.returncode != 0:
        raise AssertionError(f"casino report tables failed: {result.stderr[-2000:]}")
    return {row["table_id"]: row for row in map(json.loads, result.stdout.splitlines())}


def projected_figures(db: Path) -> dict[str, dict]:
    """The report's rows, read in this process (to poll until the projection caught up)."""
    from services.projections import store
    from services.projections.report import table_report
    if not db.exists():
        return {}
    with store.connect(db, read_only=True, wait_seconds=30) as con:
        return {f.table_id: f.to_dict() for f in table_report(con)}

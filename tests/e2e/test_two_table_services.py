"""Two table-service processes share the floor by partition; one is killed with SIGKILL while
rounds are being played. Every round must still be settled exactly once, every table's
sequence numbers must run 1..n without a gap or a repeat, and the report must equal the
figures recomputed from the raw log. (Before the shared runtime, a second instance forked the
tables' histories: 3,024 sequence numbers with two different events in 60 s.)"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

import contracts
from contracts.table import BetPlaced, BetSettled, RoundSettled
from contracts.topics import TABLE_EVENTS_TOPIC
from services.projections import app as projector_app
from services.runtime.settings import Settings
from services.simulator.app import simulate
from tests.e2e.floor import figures_from_events, query, read_topic, wait_for

REPO = Path(__file__).resolve().parents[2]
TABLES, ROUNDS, RATE = 6, 30, 2.0   # 180 rounds, about 15 s of play at 2 rounds/s per table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=2) as r:
        return json.load(r)


def start_instance(settings: Settings, port: int, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", "service", "table", "--bootstrap",
         settings.bootstrap, "--status-port", str(port), "--log-file", str(log)],
        cwd=REPO, env={**os.environ, "CASINO_VAR_DIR": str(settings.var_dir)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def fetch(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
        return r.read().decode()


def owned(port: int) -> list[int] | None:
    try:
        return status(port)["partitions"]
    except OSError:
        return None


@pytest.fixture(scope="module")
def played(floor: Settings, tmp_path_factory: pytest.TempPathFactory):
    work = tmp_path_factory.mktemp("two")
    db = work / "floor.duckdb"
    ports = [free_port(), free_port()]
    procs = [start_instance(floor, p, work / f"table-{i}.log") for i, p in enumerate(ports)]
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        stop = asyncio.Event()
        projector = asyncio.create_task(projector_app.main(floor, db, stop=stop))
        try:
            # both members joined and split the three partitions between them
            await wait_for(lambda: all(owned(p) for p in ports) and
                           sorted(sum((owned(p) or [] for p in ports), [])) == [0, 1, 2], 60,
                           "two instances sharing the partitions")
            seen["before"] = sorted(sum((owned(p) or [] for p in ports), []))
            seen["killed_owned"] = owned(ports[0])
            play = asyncio.create_task(simulate(floor, tables=TABLES, rounds=ROUNDS, rate=RATE,
                                                seed=5))
            await asyncio.sleep(5)
            procs[0].send_signal(signal.SIGKILL)   # mid-stream, no goodbye
            assert await play == TABLES * ROUNDS
            await wait_for(lambda: owned(ports[1]) == [0, 1, 2], 60, "the survivor takes over")
            seen["metrics"] = fetch(ports[1], "/metrics")
            seen["health"] = fetch(ports[1], "/health")
            await wait_for(lambda: query(db, "SELECT count(*) FROM rounds WHERE settled_at IS "
                                             "NOT NULL") == [(TABLES * ROUNDS,)], 120,
                           "every round projected")
        finally:
            stop.set()
            await projector

    try:
        asyncio.run(scenario())
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    events = [contracts.decode(r.value) for r in read_topic(floor.bootstrap,
                                                            TABLE_EVENTS_TOPIC.name)]
    return db, events, seen


def test_both_instances_owned_part_of_the_floor_before_the_kill(played):
    _db, _events, seen = played
    assert seen["before"] == [0, 1, 2]
    assert seen["killed_owned"] and len(seen["killed_owned"]) < 3


def test_the_survivor_is_healthy_and_counts_what_it_handled(played):
    _db, _events, seen = played
    assert json.loads(seen["health"])["status"] == "ok"
    handled = [line for line in seen["metrics"].splitlines() if line.startswith(
        'casino_messages_handled_total{topic="floor.table.commands",type="PlaceBet"}')]
    assert handled and float(handled[0].split()[-1]) > 0


def test_sequences_have_no_gap_and_no_repeat(played):
    _db, events, _seen = played
    by_table = defaultdict(list)
    for e in events:
        by_table[e.aggregate_id].append(e.sequence)
    assert len(by_table) == TABLES
    for table, sequences in by_table.items():
        assert sequences == list(range(1, len(sequences) + 1)), table


def test_every_round_and_every_bet_is_settled_exactly_once(played):
    _db, events, _seen = played
    rounds = Counter(e.payload.round_id for e in events if isinstance(e, RoundSettled))
    assert len(rounds) == TABLES * ROUNDS and set(rounds.values()) == {1}
    placed = {e.payload.bet_id for e in events if isinstance(e, BetPlaced)}
    settled = Counter(e.payload.bet_id for e in events
                      if isinstance(e, BetSettled) and e.payload.imprisoned_from is None)
    assert set(settled) == placed and set(settled.values()) == {1}


def test_the_report_equals_the_figures_recomputed_from_the_raw_log(played):
    db, events, _seen = played
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "report", "tables",
                             "--db", str(db), "--json"], capture_output=True, text=True,
                            check=True, cwd=REPO)
    report = {row["table_id"]: row for row in map(json.loads, result.stdout.splitlines())}
    assert report == figures_from_events(events)

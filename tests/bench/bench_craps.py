"""Craps end to end, beside roulette in the same run: rolls/s and decided bets/s.

The same processes as the floor benchmark (tests/bench/bench_floor.py: the table service, the
real projector wrapped to note its commit times, `casino simulate`), on a fresh embedded
broker and DuckDB file per scenario, one table-service instance. The simulator plays TABLES
tables x ROLLS rounds at full speed: BO craps, BO mini craps, and BO roulette for comparison.
A craps round is one roll; a craps bet is decided rolls after it was placed, and some are
still on the layout at the end, so the figure is bets *decided* per second.

Seconds = from the first PlaceBet's `issued_at` to the commit of the DuckDB transaction
holding the last RoundSettled.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from contracts.topics import partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker
from services.projections import store
from tests.bench.bench_floor import Floor, read_timings, wait

TABLES, ROLLS = 6, int(os.environ.get("BENCH_ROUNDS", "100"))
GAMES = ("craps", "mini_craps", "roulette")


def scenario(game: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, \
            EmbeddedBroker(Path(tmp) / "broker", durable=False) as broker:
        work = Path(tmp)
        ensure_topics(broker.bootstrap, partition_counts())
        db, timings = work / "floor.duckdb", work / "timings.jsonl"
        floor = Floor(broker.bootstrap, work, 1)
        try:
            floor.start(db, timings)
            sim = floor.spawn("simulator", [
                "services.cli.main", "simulate", "--bootstrap", broker.bootstrap, "--game", game,
                "--tables", str(TABLES), "--rounds", str(ROLLS), "--rate", "0", "--seed", "11"])
            total = TABLES * ROLLS
            wait(lambda: sum(len(t["rounds"]) for t in read_timings(timings)) >= total
                 or sim.poll() not in (None, 0), 120 + total / 10, "every round in DuckDB")
            if sim.returncode not in (None, 0):
                raise RuntimeError("simulator failed: " +
                                   (work / "simulator.out").read_text()[-2000:])
        finally:
            floor.stop()
        batches = read_timings(timings)
        with store.connect(db, read_only=True) as con:
            (placed, decided), = con.execute(
                "SELECT count(*), count(settled_at) FROM bets").fetchall()
            (rounds,), = con.execute(
                "SELECT count(*) FROM rounds WHERE settled_at IS NOT NULL").fetchall()
    first = min(b["first_placed"] for b in batches if b["first_placed"])
    last = max(b["committed"] for b in batches if b["rounds"])
    seconds = last - first
    return {"game": game, "rounds": rounds, "placed": placed, "decided": decided,
            "seconds": seconds, "rounds_per_s": rounds / seconds,
            "decided_per_s": decided / seconds, "load": os.getloadavg()[0]}


def run() -> str:
    started = time.time()
    rows = []
    for game in GAMES:
        s = scenario(game)
        rows.append(f"| {game} | {s['rounds']:,} | {s['placed']:,} | {s['decided']:,} | "
                    f"{s['seconds']:.1f} | **{s['rounds_per_s']:,.1f}** | "
                    f"**{s['decided_per_s']:,.0f}** | {s['load']:.1f} |")
    took = time.time() - started
    return f"""Craps and mini craps end to end beside roulette, in one run ({took:.0f} s):
{TABLES} BO tables x {ROLLS} rounds of each game, simulator at full speed, one table-service
instance, the real projector, a fresh embedded broker (Tansu, memory storage) and DuckDB file
per game. A craps round is one roll; its bets are decided rolls after they were placed (the
line bets, come bets, odds, place bets), so the bets column counts bets *decided*; bets still
on the layout at the end are placed but not decided. Seconds = first PlaceBet `issued_at` to
the commit of the DuckDB transaction holding the last RoundSettled. The load average (1 min,
at the end of each run) shows how busy the shared machine was: other engineers' work ran
beside it, so the figures are low bounds and move between runs.

| game | rolls (rounds) | bets placed | bets decided | s | rolls/s | decided bets/s | load |
|---|---:|---:|---:|---:|---:|---:|---:|
{chr(10).join(rows)}
"""

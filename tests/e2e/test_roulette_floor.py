"""The first slice end to end: simulated roulette tables → table service → Kafka → projector
→ DuckDB → `casino report tables`, on a real Kafka-protocol broker (Tansu) started here."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

import contracts
from contracts.table import BetPlaced, BetRejected, BetSettled, RoundSettled
from contracts.topics import TABLE_EVENTS_TOPIC
from services.projections import store
from services.projections.projector import apply_events
from services.runtime.settings import Settings
from services.simulator.app import simulate
from tests.e2e.floor import figures_from_events, query, read_topic, running_services, wait_for

TABLES, ROUNDS = 3, 67  # rounds per table: 201 rounds on 3 tables


@pytest.fixture(scope="module")
def played(floor: Settings, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    """201 rounds on 3 tables, fully projected; returns the DuckDB file and the log."""
    db = tmp_path_factory.mktemp("proj") / "floor.duckdb"

    async def scenario() -> None:
        async with running_services(floor, db):
            sent = await simulate(floor, tables=TABLES, rounds=ROUNDS, rate=0, seed=7)
            assert sent == TABLES * ROUNDS
            await wait_for(lambda: query(db, "SELECT count(*) FROM rounds WHERE settled_at "
                                             "IS NOT NULL") == [(TABLES * ROUNDS,)], 240,
                           "every round projected")

    asyncio.run(scenario())
    events = [contracts.decode(r.value)
              for r in read_topic(floor.bootstrap, TABLE_EVENTS_TOPIC.name)]
    return db, events


def test_report_equals_figures_computed_from_the_raw_events(played):
    db, events = played
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "report", "tables",
                             "--db", str(db), "--json"], capture_output=True, text=True, check=True)
    report = {row["table_id"]: row for row in map(json.loads, result.stdout.splitlines())}
    expected = figures_from_events(events)
    assert len(expected) == TABLES and all(f["rounds"] == ROUNDS for f in expected.values())
    assert report == expected


def test_every_round_balances_and_every_payout_names_its_rule(played):
    _db, events = played
    bets = defaultdict(list)
    for e in events:
        if isinstance(e, BetSettled):
            bets[e.payload.round_id].append(e.payload)
            assert e.payload.rule.startswith("seed ")
    rounds = [e.payload for e in events if isinstance(e, RoundSettled)]
    assert len(rounds) == TABLES * ROUNDS
    for r in rounds:
        assert r.wagered.amount == sum(b.stake.amount for b in bets[r.round_id]
                                       if b.imprisoned_from is None)
        assert r.paid.amount == sum(b.paid.amount for b in bets[r.round_id])


def test_stakes_sent_to_prison_are_decided_by_the_next_spin_of_their_table(played):
    _db, events = played
    jailed = {e.payload.bet_id: e.payload.round_id for e in events
              if isinstance(e, BetSettled) and e.payload.outcome == "prison"}
    decided = {e.payload.bet_id: e.payload for e in events
               if isinstance(e, BetSettled) and e.payload.imprisoned_from}
    assert jailed, "seed 7 sends some even chances to prison"
    for bet_id, settled in decided.items():
        assert jailed[bet_id] == settled.imprisoned_from
        n = int(settled.imprisoned_from.rsplit(".", 1)[1])
        assert settled.round_id == f"{settled.imprisoned_from.rsplit('.', 1)[0]}.{n + 1}"
        assert settled.outcome in ("push", "lose")
        assert settled.paid.amount in (0, settled.stake.amount)
    last_rounds = {f"{t}.{ROUNDS}" for t in {e.aggregate_id for e in events}}
    assert set(jailed) - set(decided) == {b for b, r in jailed.items() if r in last_rounds}


def test_over_limit_bets_play_the_maximum_and_late_bets_are_refused_with_reasons(played):
    """BO (over_max return_excess, seed 002 §1.2.1.1): an over-maximum bet plays the maximum
    and the excess goes back to the player; a bet after «no más apuestas» is refused."""
    _db, events = played
    codes: defaultdict[str, int] = defaultdict(int)
    for e in events:
        if isinstance(e, BetRejected):
            codes[e.payload.code] += 1
            assert e.payload.reason and e.payload.field
    assert codes["BETTING_CLOSED"] > 0 and set(codes) == {"BETTING_CLOSED"}
    cut = [e.payload for e in events if isinstance(e, BetPlaced) and e.payload.excess_returned]
    assert cut, "the simulator sends some bets over the maximum"
    for p in cut:
        assert p.bet.stake.amount == 50_000 and p.excess_returned
        assert p.excess_returned.amount > 0
        assert p.limit_rule == "seed 002 §1.2.1.1"


def test_projection_is_idempotent_over_the_same_events(played, tmp_path):
    db, events = played
    again = tmp_path / "again.duckdb"
    with store.connect(again) as con:
        applied = apply_events(con, events)
        replayed = apply_events(con, events)  # the whole log a second time
    assert applied == len(events) and replayed == 0
    digest = ("SELECT count(*), md5(string_agg(CAST(b AS VARCHAR), '|' ORDER BY bet_id)) "
              "FROM bets b")
    rounds = "SELECT count(*), sum(wagered), sum(paid), sum(house_win) FROM rounds"
    assert query(again, digest) == query(db, digest)
    assert query(again, rounds) == query(db, rounds)

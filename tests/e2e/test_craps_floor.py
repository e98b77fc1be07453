"""Craps and mini craps end to end on a real Kafka-protocol broker (Tansu): simulated dice
tables → table service → Kafka → projector → DuckDB → `casino report tables`; every decided
bet re-settled independently by `casino rules settle` from the logged bets and rolls."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import defaultdict
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

import pytest

import contracts
from contracts.table import (
    BetPlaced,
    BetSettled,
    DiceRolled,
    RoundSettled,
    ShooterChanged,
    TableOpened,
)
from contracts.topics import TABLE_EVENTS_TOPIC
from services.runtime.settings import Settings
from services.simulator.app import simulate
from tests.e2e.floor import query, read_topic, running_services, wait_for

ROLLS = 100   # per table: two BO craps tables and one CL-ARICA mini craps table
TABLES = {"CRP-01": ("craps", "BO"), "CRP-02": ("craps", "BO"),
          "MCR-01": ("mini_craps", "CL-ARICA")}


@pytest.fixture(scope="module")
def played(floor: Settings, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    db = tmp_path_factory.mktemp("proj") / "floor.duckdb"

    async def scenario() -> None:
        async with running_services(floor, db):
            sent = await asyncio.gather(
                simulate(floor, tables=2, rounds=ROLLS, rate=0, seed=11, game="craps"),
                simulate(floor, tables=1, rounds=ROLLS, rate=0, seed=12, game="mini_craps",
                         profile="CL-ARICA"))
            assert sent == [2 * ROLLS, ROLLS]
            await wait_for(lambda: query(db, "SELECT count(*) FROM rounds WHERE settled_at "
                                             "IS NOT NULL") == [(3 * ROLLS,)], 240,
                           "every roll projected")

    asyncio.run(scenario())
    events = [contracts.decode(r.value)
              for r in read_topic(floor.bootstrap, TABLE_EVENTS_TOPIC.name)]
    return db, events


def figures_from_events(events: list) -> dict[str, dict]:
    """The report's figures from the raw events: a bet is wagered and paid in the roll that
    decides it, whatever roll it was placed in."""
    out: dict[str, dict] = defaultdict(lambda: {"rounds": 0, "wagered": 0, "paid": 0})
    labels = {}
    for e in events:
        if isinstance(e, TableOpened):
            labels[e.aggregate_id] = {"game": e.payload.game, "variant": e.payload.variant,
                                      "currency": e.payload.currency}
        elif isinstance(e, RoundSettled):
            out[e.aggregate_id]["rounds"] += 1
        elif isinstance(e, BetSettled):
            out[e.aggregate_id]["wagered"] += e.payload.stake.amount
            out[e.aggregate_id]["paid"] += e.payload.paid.amount
    for table_id, f in out.items():
        f.update(table_id=table_id, house_win=f["wagered"] - f["paid"], **labels[table_id])
        hold = Decimal(f["house_win"]) * 100 / Decimal(f["wagered"])
        f["hold_pct"] = str(hold.quantize(Decimal("0.01"), ROUND_HALF_EVEN))
    return dict(out)


def test_report_shows_the_dice_tables_with_figures_recomputed_from_the_raw_events(played):
    db, events = played
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "report", "tables",
                             "--db", str(db), "--json"], capture_output=True, text=True, check=True)
    report = {row["table_id"]: row for row in map(json.loads, result.stdout.splitlines())}
    expected = figures_from_events(events)
    assert set(expected) == set(TABLES) and all(f["rounds"] == ROLLS for f in expected.values())
    assert {t: (r["game"], r["variant"]) for t, r in report.items()} == \
        {t: (g, g) for t, (g, _) in TABLES.items()}
    assert report == expected


def test_a_bet_placed_in_one_roll_and_settled_rolls_later_is_projected_as_settled(played):
    db, events = played
    placed = {e.payload.bet_id: e.payload for e in events if isinstance(e, BetPlaced)}
    decided = {e.payload.bet_id: e.payload for e in events if isinstance(e, BetSettled)}
    later = [b for b, s in decided.items() if s.round_id != placed[b].round_id]
    assert len(later) > 100, "line, come, odds and place bets stay up across rolls"
    rows = {r[0]: r[1:] for r in query(db, "SELECT bet_id, round_id, stake, paid, outcome, rule "
                                           "FROM bets WHERE settled_at IS NOT NULL")}
    assert set(rows) == set(decided)
    for bet_id, s in decided.items():
        assert rows[bet_id] == (placed[bet_id].round_id, s.stake.amount, s.paid.amount,
                                s.outcome, s.rule)
    pockets = {r[0] for r in query(db, "SELECT pocket FROM rounds")}
    assert pockets <= {f"{a}+{b}" for a in range(1, 7) for b in range(1, 7)}
    still_up = set(placed) - set(decided)
    assert still_up, "some bets are still on the layout at the end"
    assert query(db, "SELECT count(*) FROM bets WHERE settled_at IS NULL") == [(len(still_up),)]


def test_every_roll_balances_and_the_point_and_the_shooter_follow_the_rules(played):
    _db, events = played
    by_round: dict[str, list] = defaultdict(list)
    rolls: dict[str, list] = defaultdict(list)
    for e in events:
        if isinstance(e, BetSettled):
            by_round[e.payload.round_id].append(e.payload)
            assert e.payload.rule.startswith("seed 00")
        elif isinstance(e, DiceRolled):
            rolls[e.aggregate_id].append(e.payload)
    for r in (e.payload for e in events if isinstance(e, RoundSettled)):
        assert r.wagered.amount == sum(b.stake.amount for b in by_round[r.round_id])
        assert r.paid.amount == sum(b.paid.amount for b in by_round[r.round_id])
    for table_rolls in rolls.values():
        for before, after in zip(table_rolls, table_rolls[1:]):
            assert after.point_before == before.point_after
        assert any(r.seven_out for r in table_rolls)
    changes = [e for e in events if isinstance(e, ShooterChanged)]
    directions = {(e.aggregate_id, e.payload.direction) for e in changes}
    assert directions == {("CRP-01", "clockwise"), ("CRP-02", "clockwise"),
                          ("MCR-01", "counter_clockwise")}
    for e in changes:
        if e.payload.reason == "seven_out" and e.payload.previous_seat is not None:
            step = 1 if e.payload.direction == "clockwise" else -1
            assert e.payload.seat == (e.payload.previous_seat - 1 + step) % 6 + 1


def resettle_requests(events: list) -> tuple[list[dict], dict[str, Any]]:
    """One `casino rules settle` request per bet a roll decided, from the logged events only:
    the point when it was placed, the line bet odds back (with its number then), the bet
    placed before the first of the rolls from its placement to its decision."""
    config = {e.aggregate_id: e.payload for e in events if isinstance(e, TableOpened)}
    rolls: dict[str, DiceRolled] = {}
    number_at: dict[str, list[tuple[int, int]]] = defaultdict(list)  # bet -> [(roll, number)]
    for e in events:
        if isinstance(e, DiceRolled):
            rolls[e.payload.round_id] = e
            n = _number(e.payload.round_id)
            for bet_id, point in e.payload.travelled.items():
                number_at[bet_id].append((n, point))
    placed = {e.payload.bet_id: e.payload for e in events if isinstance(e, BetPlaced)}
    requests, expected = [], {}
    for s in (e.payload for e in events if isinstance(e, BetSettled)):
        if s.outcome == "void" or s.round_id not in rolls:
            continue
        if "abandonar" in s.rule_note:
            continue  # the shooter left with the point on: decided by no roll
        p = placed[s.bet_id]
        table, first, last = p.round_id.rsplit(".", 1)[0], _number(p.round_id), \
            _number(s.round_id)
        cfg = config[table]
        bet = {"id": s.bet_id, "kind": p.bet.kind, "amount": s.stake.amount}
        if p.bet.numbers:
            bet["number"] = int(p.bet.numbers[0])
        if p.bet.working:
            bet["working"] = True
        layout = []
        if p.bet.on is not None:
            line = placed[p.bet.on]
            line_number = [n for r, n in number_at[p.bet.on] if r < first][-1]
            bet["on"] = line.bet_id
            layout.append({"id": line.bet_id, "kind": line.bet.kind,
                           "amount": line.bet.stake.amount, "number": line_number})
        dice = [list(rolls[f"{table}.{n}"].payload.dice) for n in range(first, last + 1)]
        requests.append({"id": s.bet_id, "game": "craps", "profile": cfg.profile,
                         "switches": dict(cfg.switches), "variant": cfg.game,
                         "point": rolls[p.round_id].payload.point_before, "bets": layout,
                         "rolls": [{"dice": dice[0], "place": [bet]}, *dice[1:]]})
        expected[s.bet_id] = (s.paid.amount, s.outcome, s.rule, last - first)
    return requests, expected


def _number(round_id: str) -> int:
    return int(round_id.rsplit(".", 1)[1])


def test_every_decided_bet_is_re_settled_the_same_by_casino_rules_settle(played, tmp_path):
    _db, events = played
    requests, expected = resettle_requests(events)
    assert len(requests) > 500
    batch = tmp_path / "requests.jsonl"
    batch.write_text("\n".join(json.dumps(r) for r in requests) + "\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "rules", "settle",
                             str(batch)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[:2000]
    checked = 0
    for line in map(json.loads, result.stdout.splitlines()):
        [mine] = [b for b in line["bets"] if b["id"] == line["id"]]
        assert (mine["paid"], mine["outcome"], mine["rule"], mine["roll"]) == \
            expected[line["id"]], line["id"]
        checked += 1
    assert checked == len(expected)

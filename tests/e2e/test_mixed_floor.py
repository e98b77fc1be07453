"""A mixed floor on the real broker, with its devices: 2 roulette tables whose spins go through
the wheel service and 2 craps and 1 mini craps tables whose rolls go through the dice service,
a couple of hundred rounds with void spins and rolls among them. Void results never reach a
table; the report equals figures recomputed from the raw table events; every bet a result
decided is re-settled the same by `casino rules settle` from the logged bets and results."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

import contracts
from contracts.devices import RollAccepted, RollVoided, SpinAccepted, SpinVoided
from contracts.table import BetPlaced, BetSettled, DiceRolled, RoundSettled, SpinResulted
from contracts.topics import DICE_EVENTS_TOPIC, TABLE_EVENTS_TOPIC, WHEEL_EVENTS_TOPIC
from services.dice import bootstrap as dice_app
from services.runtime.settings import Settings
from services.simulator.app import simulate
from services.wheel import bootstrap as wheel_app
from tests.e2e.floor import query, read_topic, running_services, wait_for
from tests.e2e.test_craps_floor import figures_from_events, resettle_requests

ROUNDS = 40   # per table; each result goes through its device before the next round opens
RATE = 0      # as fast as the devices forward the results


@pytest.fixture(scope="module")
def played(floor: Settings, tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("proj") / "floor.duckdb"

    async def scenario() -> None:
        stop = asyncio.Event()
        ready: list[str] = []
        devices = [asyncio.create_task(wheel_app.main(floor, stop=stop, on_ready=ready.append)),
                   asyncio.create_task(dice_app.main(floor, stop=stop, on_ready=ready.append))]
        try:
            async with running_services(floor, db):
                await wait_for(lambda: len(ready) == 2, 60, "wheel and dice services start")
                sent = await asyncio.gather(
                    simulate(floor, tables=2, rounds=ROUNDS, rate=RATE, seed=21,
                             game="roulette", variant="american", profile="CL-ARICA",
                             currency="CLP", wheels=True),
                    simulate(floor, tables=2, rounds=ROUNDS, rate=RATE, seed=22, game="craps",
                             dice=True),
                    simulate(floor, tables=1, rounds=ROUNDS, rate=RATE, seed=23,
                             game="mini_craps", profile="CL-ARICA", dice=True))
                assert sent == [2 * ROUNDS, 2 * ROUNDS, ROUNDS]
                await wait_for(lambda: query(db, "SELECT count(*) FROM rounds WHERE settled_at "
                                                 "IS NOT NULL") == [(5 * ROUNDS,)], 120,
                               "every round settled")
        finally:
            stop.set()
            await asyncio.gather(*devices)

    asyncio.run(scenario())
    log = {t.name: [contracts.decode(r.value) for r in read_topic(floor.bootstrap, t.name)]
           for t in (TABLE_EVENTS_TOPIC, WHEEL_EVENTS_TOPIC, DICE_EVENTS_TOPIC)}
    return db, log


def test_void_spins_and_rolls_never_reach_a_table(played):
    _db, log = played
    table, wheel, dice = (log[t.name] for t in (TABLE_EVENTS_TOPIC, WHEEL_EVENTS_TOPIC,
                                                 DICE_EVENTS_TOPIC))
    voided_spins = [e for e in wheel if isinstance(e, SpinVoided)]
    voided_rolls = [e for e in dice if isinstance(e, RollVoided)]
    assert voided_spins and voided_rolls, "the floor must have had void spins and rolls"
    assert all(e.payload.rule for e in voided_spins + voided_rolls)
    spins = [e for e in table if isinstance(e, SpinResulted)]
    rolls = [e for e in table if isinstance(e, DiceRolled)]
    assert len(spins) == len([e for e in wheel if isinstance(e, SpinAccepted)]) == 2 * ROUNDS
    assert len(rolls) == len([e for e in dice if isinstance(e, RollAccepted)]) == 3 * ROUNDS
    accepted = {e.payload.roll_id for e in dice if isinstance(e, RollAccepted)}
    assert {e.payload.roll_id for e in rolls} == accepted  # each table roll names its throw
    assert not accepted & {e.payload.roll_id for e in voided_rolls}


def test_report_equals_figures_recomputed_from_the_raw_events(played):
    db, log = played
    out = subprocess.run([sys.executable, "-m", "services.cli.main", "report", "tables", "--db",
                          str(db), "--json"], capture_output=True, text=True, check=True)
    report = {r["table_id"]: r for r in map(json.loads, out.stdout.splitlines())}
    expected = figures_from_events(log[TABLE_EVENTS_TOPIC.name])
    assert set(report) == set(expected) and len(report) == 5
    for table_id, figures in expected.items():
        assert {k: report[table_id][k] for k in figures} == figures, table_id
    assert sum(1 for e in log[TABLE_EVENTS_TOPIC.name] if isinstance(e, RoundSettled)) \
        == 5 * ROUNDS


def roulette_requests(events: list) -> tuple[list[dict], dict[str, tuple]]:
    """One `casino rules settle` request per roulette bet, from its BetPlaced and its round's
    SpinResulted (no «en prisión» at CL-ARICA: every bet is decided by its own spin)."""
    tables = {e.aggregate_id: e.payload for e in events if type(e).__name__ == "TableOpened"}
    pockets = {e.payload.round_id: e.payload.pocket for e in events
               if isinstance(e, SpinResulted)}
    placed = {e.payload.bet_id: e.payload for e in events if isinstance(e, BetPlaced)}
    requests, expected = [], {}
    for s in (e.payload for e in events if isinstance(e, BetSettled)):
        if s.round_id not in pockets:
            continue
        p, cfg = placed[s.bet_id], tables[s.round_id.rsplit(".", 1)[0]]
        bet = {"kind": p.bet.kind, "amount": s.stake.amount,
               "numbers": list(p.bet.numbers)}
        if p.bet.index is not None:
            bet["index"] = p.bet.index
        requests.append({"id": s.bet_id, "game": "roulette", "profile": cfg.profile,
                         "wheel": cfg.variant, "bets": [bet],
                         "outcome": {"pocket": pockets[s.round_id]}})
        expected[s.bet_id] = (s.paid.amount, s.rule)
    return requests, expected


def test_every_decided_bet_is_re_settled_the_same_by_casino_rules_settle(played, tmp_path):
    _db, log = played
    events = log[TABLE_EVENTS_TOPIC.name]
    craps_requests, craps_expected = resettle_requests(events)
    wheel_requests, wheel_expected = roulette_requests(events)
    assert craps_requests and wheel_requests
    batch = tmp_path / "requests.jsonl"
    batch.write_text("\n".join(json.dumps(r) for r in craps_requests + wheel_requests) + "\n",
                     encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "rules", "settle",
                             str(batch)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[:2000]
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == len(craps_requests) + len(wheel_requests)
    for line in lines:
        if line["game"] == "craps":
            [mine] = [b for b in line["bets"] if b["id"] == line["id"]]
            assert (mine["paid"], mine["outcome"], mine["rule"], mine["roll"]) == \
                craps_expected[line["id"]], line["id"]
        else:
            [mine] = line["bets"]
            assert (mine["paid"], mine["rule"]) == wheel_expected[line["id"]], line


def test_settled_bets_are_all_in_the_projection(played):
    """Each settled bet's row in the projection has the payout, net, outcome and rule of its
    last BetSettled, in exact minor units: nothing missing, nothing extra, nothing altered.
    A row is the bet's (a craps bet can be decided rounds after the one it was placed in)."""
    db, log = played
    settled = {s.bet_id: (s.paid.amount, s.net, s.outcome, s.rule)
               for s in (e.payload for e in log[TABLE_EVENTS_TOPIC.name]
                         if isinstance(e, BetSettled))}
    rows = query(db, "SELECT bet_id, paid, net, outcome, rule FROM bets "
                     "WHERE settled_at IS NOT NULL")
    assert len(rows) == len(settled) > 0
    assert {bet: (paid, net, outcome, rule) for bet, paid, net, outcome, rule in rows} \
        == settled

"""The fault suite: every scenario of scenarios.py on a real embedded broker (durable, so it can
be restarted), the services as processes, and terminals playing while the fault happens.

Each scenario asserts that
- every command has an event or a dead letter (nothing lost),
- nothing was applied twice (no forked sequence, no round, bet or hold settled twice),
- the report (`casino report tables --json` on the DuckDB projection) equals the figures
  recomputed from the raw events log,
- every service answers /health 200 again within RECOVERY_LIMIT seconds of the fault,
- and, where the scenario states one, no hold was released later than its limit.

`make test` runs the scenarios marked short, on a smaller floor; `make faults` runs them all and
writes RELIABILITY.md (CASINO_FAULTS=full, FAULTS_REPORT=path).
"""
from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from tests.faults.checks import (
    Log,
    applied_twice,
    expected_figures,
    lost_commands,
    projected_figures,
    report_tables,
    unreleased_holds,
    worst_hold_lateness,
)
from tests.faults.harness import Floor, poll
from tests.faults.report import Result
from tests.faults.scenarios import SCENARIOS, Run, Scenario

FULL = os.environ.get("CASINO_FAULTS") == "full"
RECOVERY_LIMIT = 90.0      # s from the fault until every service answers /health 200 again
SETTLE_LIMIT = 240.0       # s after play for every command answered and the report caught up
PLAY_LIMIT = 300.0         # s for the terminals to finish their rounds


def short(scenario: Scenario) -> Scenario:
    """The `make test` version: two tables, fewer rounds."""
    return replace(scenario, tables=2, rounds=8, rate=1.0)


def selected() -> list[Scenario]:
    return [s if FULL else short(s) for s in SCENARIOS.values() if FULL or s.short]


@pytest.mark.faults
@pytest.mark.timeout(900)
@pytest.mark.parametrize("scenario", selected(), ids=lambda s: s.name.replace(" ", "-"))
def test_scenario(scenario: Scenario, tmp_path: Path, fault_results: list[Result]) -> None:
    if scenario.skip:
        fault_results.append(Result.skipped(scenario))
        pytest.skip(scenario.skip)
    try:
        result = asyncio.run(run(scenario, tmp_path))
    except Exception as err:   # still a row of RELIABILITY.md, saying what went wrong
        fault_results.append(Result(scenario, error=f"{type(err).__name__}: {err}"))
        raise
    fault_results.append(result)
    assert result.lost == [], result.lost[:10]
    assert result.twice == [], result.twice[:10]
    assert result.report == result.expected, "the report differs from the raw log's figures"
    assert result.recovery is not None and result.recovery <= RECOVERY_LIMIT
    assert result.unreleased == set(), result.unreleased
    if scenario.max_hold_lateness is not None:
        assert result.lateness is not None, "no hold was released: nothing was measured"
        assert result.lateness.total_seconds() <= scenario.max_hold_lateness


async def run(scenario: Scenario, work: Path) -> Result:
    floor = Floor(work, vision=scenario.vision, hold_minutes=scenario.hold_minutes,
                  durable=scenario.durable)
    started = time.monotonic()
    loads: list[float] = []
    sampler = asyncio.create_task(sample_load(loads))
    try:
        await asyncio.to_thread(floor.start_broker)
        await floor.start_services()
        terminals = floor.terminals(tables=scenario.tables, rounds=scenario.rounds,
                                    rate=scenario.rate, seed=12)
        state = Run(floor, terminals)
        if scenario.prepare is not None:
            await scenario.prepare(state)
        play = asyncio.create_task(terminals.play())
        total = scenario.tables * scenario.rounds
        await poll(lambda: terminals.sent_rounds >= scenario.at * total or play.done(), 120,
                   "play reaching the fault")
        if scenario.inject is not None:
            await scenario.inject(state)
        recovery = time.monotonic() - state.fault_at
        recovery += await floor.wait_healthy(RECOVERY_LIMIT, "every service healthy again")
        await asyncio.wait_for(play, PLAY_LIMIT)
        log = await settle(floor, scenario)
        if scenario.verify is not None:
            scenario.verify(state, log)
        healthy = floor.all_healthy()
        report = await asyncio.to_thread(report_tables, floor.db)
        return Result(
            scenario=scenario, messages=len(log.commands) + len(log.events),
            lost=lost_commands(log), twice=applied_twice(log),
            report=report, expected=expected_figures(log),
            recovery=recovery if healthy else None, lateness=worst_hold_lateness(log),
            unreleased=unreleased_holds(log), resends=terminals.resends,
            letters=dict(Counter(f"{d.service}:{d.code}" for d in log.letters)),
            seconds=time.monotonic() - started, notes=state.notes,
            load=max(loads, default=0.0))
    finally:
        sampler.cancel()
        await asyncio.to_thread(floor.stop)


async def sample_load(loads: list[float], every: float = 5.0) -> None:
    """The machine's 1-minute load average during the scenario (other work shares the CPUs)."""
    while True:
        loads.append(os.getloadavg()[0])
        await asyncio.sleep(every)


async def settle(floor: Floor, scenario: Scenario) -> Log:
    """Wait until the log has answered every command and released every hold, and the
    projection shows the log's figures; returns the log then (or the last one read)."""
    deadline = time.monotonic() + SETTLE_LIMIT
    while True:
        log = await Log.read(floor.broker.bootstrap)
        done = not lost_commands(log) and not unreleased_holds(log)
        if done and await asyncio.to_thread(projected_figures, floor.db) == \
                expected_figures(log):
            return log
        if time.monotonic() > deadline:
            return log   # the assertions say what is missing
        await asyncio.sleep(2.0)

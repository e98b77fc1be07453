"""What the hash chain costs per event, with and without it (contracts/chain.py).

- producer: a table session handling rounds of bets, every event then encoded for the bus
  (`Aggregate.trigger` seals it: one encoding, one SHA-256; the bus sends the cached bytes);
  without the chain, `seal` is replaced by the identity and the bus encodes each event.
- consumer: the projector's check of each received event (bytes decoded, then judged by
  sequence alone, or by sequence and chain: the hash recomputed from the bytes, the link and
  the digest remembered).
- projector: the decoded events applied to a real DuckDB file in batches of 500; without the
  chain, the link is not computed and the raw copy is encoded again, as before the chain (with
  it, the bytes the event came in are stored: no second encoding).

Run alone: `.venv/bin/python -c "from tests.bench.bench_chain import run; print(run())"`.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from contracts import decode, encode
from contracts.chain import Link, link_of
from contracts.envelope import Event
from contracts.money import Money
from contracts.table import (
    BetSpec,
    CloseBets,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    RecordSpin,
    RecordSpinData,
    TableOpenedData,
)
from services.projections import projector, store
from services.runtime import aggregate
from services.runtime.sequence import SequenceGuard, Verdict
from services.table.domain import TableSession
from tests.table.unit import cmd

ROUNDS, BETS, REPEATS = 60, 20, 5
CONFIG = TableOpenedData(game="roulette", variant="european", seating="open", profile="BO",
                         currency="BOB", min_bet=100, max_bet=50_000)


def produce() -> list[bytes]:
    table = TableSession("RUL-01")
    table.handle(cmd(OpenTable, payload=CONFIG))
    out = [encode(e) for e in table.collect()]
    for r in range(ROUNDS):
        table.handle(cmd(OpenRound))
        for b in range(BETS):
            table.handle(cmd(PlaceBet, payload=PlaceBetData(
                bet_id=f"b{r}-{b}", seat=1, player_id="P1", bet=BetSpec(
                    kind="straight", numbers=(str(b % 37),),
                    stake=Money(amount=1000, currency="BOB")))))
        table.handle(cmd(CloseBets))
        table.handle(cmd(RecordSpin, payload=RecordSpinData(pocket=str(r % 37))))
        out += [encode(e) for e in table.collect()]
    return out


def consume(log: list[bytes], chain: bool) -> int:
    guard = SequenceGuard()
    applied = 0
    for data in log:
        event = decode(data)
        assert isinstance(event, Event)
        if chain:
            link = link_of(event)
            ok = guard.judge(link).verdict is Verdict.APPLY
            guard.advance(event.aggregate_id, event.sequence, link if ok else None)
        else:
            ok = guard.check(event.aggregate_id, event.sequence) is Verdict.APPLY
            guard.advance(event.aggregate_id, event.sequence)
        applied += ok
    assert applied == len(log)
    return applied


def project(log: list[bytes], chain: bool) -> int:
    events: list[Any] = [decode(data) for data in log]
    patches: list[Any] = [] if chain else [
        mock.patch.object(projector, "wire_of", lambda e: e.model_dump_json().encode()),
        mock.patch.object(projector, "link_of", lambda e, _w=None: Link(
            e.aggregate_id, e.sequence, None, None, "", None))]
    with tempfile.TemporaryDirectory() as tmp, store.connect(Path(tmp) / "p.duckdb") as con:
        for patch in patches:
            patch.start()
        try:
            con.begin()
            for i in range(0, len(events), 500):
                batch = projector.ProjectionBatch(con)
                applied = sum(batch.apply(e) for e in events[i:i + 500])
                assert applied == len(events[i:i + 500])
                batch.flush()
            con.commit()
        finally:
            for patch in patches:
                patch.stop()
    return len(events)


def rate(work: Callable[[], int]) -> tuple[float, float]:
    """Events per CPU second of `work` (median and best of REPEATS runs): CPU time, since the
    machine is shared and wall-clock time there measures the neighbours."""
    rates = []
    for _ in range(REPEATS):
        started = time.process_time()
        n = work()
        rates.append(n / (time.process_time() - started))
    return statistics.median(rates), max(rates)


def run() -> str:
    with mock.patch.object(aggregate, "seal", lambda event: event):
        plain_log = produce()
        without = rate(lambda: len(produce()))
    chained_log = produce()
    with_chain = rate(lambda: len(produce()))
    assert b'"hash":null' in plain_log[1] and b'"hash":"' in chained_log[1]
    consume_without = rate(lambda: consume(chained_log, chain=False))
    consume_with = rate(lambda: consume(chained_log, chain=True))
    project_without = rate(lambda: project(chained_log, chain=False))
    project_with = rate(lambda: project(chained_log, chain=True))
    rows = [("producer: session handles + encodes", without, with_chain),
            ("consumer: decode + sequence/chain check", consume_without, consume_with),
            ("projector: decode + apply to DuckDB", project_without, project_with)]
    lines = [f"{len(chained_log)} events of one roulette table ({ROUNDS} rounds x {BETS} bets), "
             f"median (best) of {REPEATS} runs, events per CPU second:", "",
             "| path | without chain | with chain | cost (best vs best) |", "|---|---:|---:|---:|"]
    for name, (a, a_best), (b, b_best) in rows:
        lines.append(f"| {name} | {a:,.0f} ({a_best:,.0f}) | {b:,.0f} ({b_best:,.0f}) | "
                     f"{(1 / b_best - 1 / a_best) * 1e6:+.1f} µs/event "
                     f"({(a_best / b_best - 1) * 100:+.1f} %) |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())

"""The projector as the floor benchmark runs it: the real service (`services.projections.app`),
plus a record of when each consumed batch's DuckDB transaction committed.

`python -m tests.bench.floor_projector --bootstrap HOST:PORT --db FILE --timings FILE.jsonl
--status-port N`

One JSON line per committed batch of `floor.table.events`: the wall-clock commit time (after
`COMMIT` returned, so the rows are visible to any reader from then on), how many bets were
placed and settled in it, and, for every RoundSettled in it, the round id and its `occurred_at`
— the table service gives every event of a settlement the time of the command that caused it,
i.e. the RecordSpin's `issued_at`. Commit time minus that is the result → settled-in-DuckDB
latency of the round (a round's bets are settled before its RoundSettled, in the same
partition, so they are committed by then too). Nothing else of the projector changes.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import click

from contracts.envelope import Message
from contracts.table import BetPlaced, BetSettled, RoundSettled
from services.projections import app
from services.runtime.logs import setup_logging
from services.runtime.settings import Settings


def instrument(out: Path) -> None:
    import os
    if os.environ.get("BENCH_MAX_HOLD"):   # diagnostics only: how often the projector steps aside
        app.MAX_HOLD_SECONDS = float(os.environ["BENCH_MAX_HOLD"])
    sink = out.open("a", buffering=1)
    original_transaction = app.ProjectorService.transaction
    original_on_event = app.ProjectorService.on_event
    current: dict[int, dict[str, Any]] = {}   # id(service) -> what the open batch projected

    async def on_event(self: app.ProjectorService, message: Message, ctx: Any) -> None:
        await original_on_event(self, message, ctx)
        seen = current.get(id(self))
        if seen is None:
            return
        if isinstance(message, BetSettled) and message.payload.imprisoned_from is None:
            seen["settled"] += 1
        elif isinstance(message, BetPlaced):
            seen["placed"] += 1
            seen["first_placed"] = min(seen["first_placed"] or 1e18,
                                       message.occurred_at.timestamp())
        elif isinstance(message, RoundSettled):
            seen["rounds"].append([message.payload.round_id, message.occurred_at.timestamp()])

    @contextlib.asynccontextmanager
    async def transaction(self: app.ProjectorService) -> AsyncIterator[Any]:
        seen: dict[str, Any] = {"placed": 0, "settled": 0, "first_placed": None, "rounds": []}
        async with original_transaction(self) as ctx:
            current[id(self)] = seen
            try:
                yield ctx
            finally:
                current.pop(id(self), None)
        # the transaction has committed: its rows are visible now
        if seen["placed"] or seen["settled"] or seen["rounds"]:
            sink.write(json.dumps({"committed": time.time(), **seen}) + "\n")

    app.ProjectorService.on_event = on_event  # type: ignore[method-assign, assignment]
    app.ProjectorService.transaction = transaction  # type: ignore[method-assign]


@click.command()
@click.option("--bootstrap", required=True)
@click.option("--db", "db_path", type=click.Path(path_type=Path), required=True)
@click.option("--timings", type=click.Path(path_type=Path), required=True)
@click.option("--status-port", type=int, default=0)
@click.option("--log-file", type=click.Path(path_type=Path), default=None)
def main(bootstrap: str, db_path: Path, timings: Path, status_port: int,
         log_file: Path | None) -> None:
    setup_logging("projector", log_file)
    instrument(timings)
    asyncio.run(app.main(Settings.from_env(bootstrap), db_path, status_port=status_port))


if __name__ == "__main__":
    main()

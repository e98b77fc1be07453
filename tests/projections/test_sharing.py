"""Sharing the DuckDB file: a reader in another process that waits for the projector's lock
leaves a flag, and the projector steps aside after the batch it is writing (real DuckDB file,
real second process)."""
from __future__ import annotations

import asyncio
import multiprocessing
from pathlib import Path

import duckdb

from services.projections import store
from services.projections.app import ProjectorService
from services.runtime.bus import Bus
from services.runtime.settings import Settings


def _try_to_read(path: str) -> str:
    try:
        store.open_db(Path(path), read_only=True, wait_seconds=0.5).close()
        return "opened"
    except duckdb.Error:
        return "locked"


def test_a_reader_waiting_in_another_process_leaves_the_flag(tmp_path):
    db = tmp_path / "floor.duckdb"
    writer = store.open_db(db)
    try:
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            assert pool.apply(_try_to_read, (str(db),)) == "locked"
        assert store.waiting_flag(db).exists()
    finally:
        writer.close()


def test_the_projector_steps_aside_after_its_batch_when_a_reader_waits(tmp_path):
    db = tmp_path / "floor.duckdb"
    service = ProjectorService(Bus(Settings(bootstrap="127.0.0.1:1"), "projector"), db)

    async def batch() -> None:
        async with service.transaction():
            pass

    asyncio.run(batch())
    assert service._con is not None              # kept between batches: nobody is waiting
    store.waiting_flag(db).touch()
    asyncio.run(batch())
    assert service._con is None                  # released for the reader...
    assert not store.waiting_flag(db).exists()   # ...and the request answered
    with store.connect(db, read_only=True, wait_seconds=0.5) as con:
        assert con.execute("SELECT count(*) FROM events").fetchone() == (0,)

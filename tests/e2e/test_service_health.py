"""Health that tells the truth (issue 12), on the real broker: a consumer whose batch keeps
failing makes its service's /health answer 503, shows on its /metrics (stuck gauge) and, through
the ServiceHealth report every service sends from the shared runtime, on the floor dashboard
the projector serves; a service that stops reporting turns "stale" there."""
from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

from contracts import encode
from contracts.table import OpenTable, TableOpenedData
from contracts.topics import TABLE_COMMANDS_TOPIC
from services.projections import app as projector_app
from services.runtime.bus import Bus
from services.runtime.health import STALE_AFTER_PERIODS
from services.runtime.service import Service, run_service
from services.runtime.settings import Settings
from tests.e2e.floor import produce_raw
from tests.table.unit import PIT

EVERY = timedelta(seconds=1)   # the stuck service reports every second: stale after 3 s


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()
    except OSError as err:
        return 0, str(err)


async def fetch(url: str) -> tuple[int, str]:
    """The services answer in this very loop: ask from a thread."""
    return await asyncio.to_thread(get, url)


async def until(url: str, ok: Callable[[int, str], bool], timeout: float, what: str) -> str:
    deadline = time.monotonic() + timeout
    while True:
        code, body = await fetch(url)
        if ok(code, body):
            return body
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what} after {timeout} s: {code} {body}")
        await asyncio.sleep(0.3)


@contextlib.asynccontextmanager
async def disk_away() -> AsyncIterator[None]:
    """A batch context that cannot open (the database's disk away): a transient failure, so
    the batch is retried forever and the consumer is stuck."""
    raise OSError("the disk is away")
    yield


def test_a_stuck_consumer_shows_on_health_metrics_and_the_dashboard(floor: Settings, tmp_path):
    seen: dict[str, str] = {}

    async def handle(_message, _ctx) -> None:
        return None

    async def scenario() -> None:
        stop_all, stop_stuck = asyncio.Event(), asyncio.Event()
        urls: dict[str, str] = {}
        bus = Bus(floor, "stuck-demo")
        bus.consume([TABLE_COMMANDS_TOPIC], "stuck-demo", {OpenTable: handle},
                    context=disk_away)
        tasks = [
            asyncio.create_task(projector_app.main(
                floor, tmp_path / "floor.duckdb", stop=stop_all,
                on_ready=lambda u: urls.__setitem__("projector", u))),
            asyncio.create_task(run_service(
                Service(bus, health_every=EVERY), stop=stop_stuck,
                on_ready=lambda u: urls.__setitem__("stuck", u)))]
        try:
            while len(urls) < 2:
                await asyncio.sleep(0.1)
            command = OpenTable(target_id="T-STUCK", issued_by="t", actor=PIT,
                                payload=TableOpenedData(game="roulette", variant="european",
                                                        seating="open", profile="BO",
                                                        currency="BOB", min_bet=100,
                                                        max_bet=50_000))
            produce_raw(floor.bootstrap, TABLE_COMMANDS_TOPIC.name,
                        [(command.key.encode(), encode(command))])

            page = urls["projector"] + "/"
            seen["health"] = await until(urls["stuck"] + "/health", lambda c, _b: c == 503, 60,
                                         "the stuck consumer makes /health unhealthy")
            seen["metrics"] = (await fetch(urls["stuck"] + "/metrics"))[1]
            seen["unhealthy_page"] = await until(page, lambda _c, b: "UNHEALTHY" in b, 30,
                                                 "the dashboard shows it")
            stop_stuck.set()
            await tasks[1]
            stale = STALE_AFTER_PERIODS * EVERY.total_seconds()
            started = time.monotonic()
            seen["stale_page"] = await until(
                page, lambda _c, b: ">stale<" in b.split("<td>stuck-demo</td>")[-1][:400],
                stale + 15, "a service that stopped reporting shows as stale")
            seen["stale_after"] = f"{time.monotonic() - started:.1f}"
        finally:
            stop_all.set()
            stop_stuck.set()
            await asyncio.gather(*tasks)

    asyncio.run(scenario())
    assert json.loads(seen["health"])["stuck_consumers"] == ["floor.table.commands"]
    assert 'casino_consumer_stuck{consumer="floor.table.commands"} 1.0' in seen["metrics"]
    unhealthy = seen["unhealthy_page"]
    assert "stuck-demo" in unhealthy and "floor.table.commands" in unhealthy
    assert "stuck-demo (" in unhealthy.split("Alerts")[1]          # an alert, too
    projector_row = unhealthy.split("<td>projector</td>")[1].split("</tr>")[0]
    assert ">ok<" in projector_row                                  # the others stay ok
    assert ">stale<" in seen["stale_page"].split("<td>stuck-demo</td>")[1].split("</tr>")[0]
    print(f"\nstale on the dashboard {seen['stale_after']} s after the service stopped "
          f"(reports every {EVERY.total_seconds():g} s, stale after {STALE_AFTER_PERIODS})")

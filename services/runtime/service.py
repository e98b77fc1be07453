"""Running a service: load its aggregates, start consuming and its background tasks, serve
health, status and metrics, stop everything cleanly on a signal. Every service's
`bootstrap.py` builds a `Service` and hands it to `run_service`; no service starts or stops
tasks of its own."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from starlette.routing import BaseRoute

from services.runtime.bus import Bus
from services.runtime.health import REPORT_EVERY, health_reporter
from services.runtime.http import Health, HttpServer

log = logging.getLogger(__name__)
Task = Callable[[asyncio.Event], Coroutine[Any, Any, None]]


@dataclass
class Service:
    """What run_service needs to run one service."""

    bus: Bus
    status: Callable[[], Mapping[str, Any]] | None = None
    health: Health | None = None             # default: the bus's (consumers not stuck)
    prepare: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    routes: Sequence[BaseRoute] = ()
    cleanup: list[Callable[[], None]] = field(default_factory=list)
    health_every: timedelta = REPORT_EVERY   # how often it reports on floor.health


def every(period: timedelta, job: Callable[[], Awaitable[None]], what: str) -> Task:
    """A background task running `job` every `period` until the service stops; a failed run
    (the broker away for a moment) is logged and tried again at the next tick."""
    async def loop(stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), period.total_seconds())
            if stop.is_set():
                return
            try:
                await job()
            except Exception:
                log.exception(f"{what} failed; retrying at the next tick")
    return loop


async def run_service(service: Service, *, status_port: int = 0,
                      stop: asyncio.Event | None = None,
                      on_ready: Callable[[str], None] | None = None) -> None:
    """Run until SIGINT/SIGTERM (or `stop` is set)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread (tests)
            loop.add_signal_handler(sig, stop.set)
    for prepare in service.prepare:
        await prepare()
    bus = service.bus
    await bus.broker.start()
    tasks = [asyncio.create_task(task(stop)) for task in service.tasks]
    health = service.health or bus.health
    server = HttpServer(status=service.status or bus.status, health=health,
                        metrics=bus.metrics, routes=service.routes, port=status_port)
    url = await server.start()
    tasks.append(asyncio.create_task(
        health_reporter(bus, health, lambda: url, service.health_every)(stop)))
    log.info("service ready", extra={"status_url": url})
    if on_ready is not None:
        on_ready(url)
    try:
        await stop.wait()
    finally:
        log.info("service stopping")
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        await bus.stop()
        await server.stop()
        for cleanup in service.cleanup:
            cleanup()

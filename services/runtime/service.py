"""Running a service: rebuild state, start consuming, serve status, stop cleanly on a signal."""
from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any, Awaitable, Callable, Mapping, Sequence

from starlette.routing import BaseRoute

from services.runtime.bus import Bus
from services.runtime.http import HttpServer

log = logging.getLogger(__name__)


async def run_service(bus: Bus, *, prepare: Callable[[], Awaitable[None]] | None = None,
                      status: Callable[[], Mapping[str, Any]] | None = None,
                      status_port: int = 0, routes: Sequence[BaseRoute] = (),
                      stop: asyncio.Event | None = None,
                      on_ready: Callable[[str], None] | None = None) -> None:
    """Run until SIGINT/SIGTERM (or `stop` is set). `prepare` runs before consuming starts —
    that is where a service rebuilds its aggregates from the log."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread (tests)
            pass
    if prepare is not None:
        await prepare()
    await bus.broker.start()
    server = HttpServer(status=status or bus.status, routes=routes, port=status_port)
    url = await server.start()
    log.info("service ready", extra={"status_url": url})
    if on_ready is not None:
        on_ready(url)
    try:
        await stop.wait()
    finally:
        log.info("service stopping")
        await bus.broker.stop()
        await server.stop()

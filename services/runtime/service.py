"""Running a service: rebuild state, start consuming, serve status, stop cleanly on a signal."""
from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any, Awaitable, Callable, Mapping

from services.runtime.bus import Bus
from services.runtime.status import Page, StatusServer

log = logging.getLogger(__name__)


async def run_service(bus: Bus, *, prepare: Callable[[], Awaitable[None]] | None = None,
                      status: Callable[[], Mapping[str, Any]] | None = None,
                      status_port: int = 0, pages: Mapping[str, Page] | None = None,
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
    server = StatusServer(status or bus.status, port=status_port, pages=pages).start()
    log.info("service ready", extra={"status_url": server.url})
    if on_ready is not None:
        on_ready(server.url)
    try:
        await stop.wait()
    finally:
        log.info("service stopping")
        await bus.broker.stop()
        server.close()

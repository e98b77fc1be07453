"""Every service reports its health on the floor.health topic: a ServiceHealth record at start
and then every REPORT_EVERY, with what its /health says (consumers stuck or lagging past the
limit, services/runtime/bus.py). The projector keeps the latest per instance and the floor
dashboard shows them; an instance whose reports stopped (killed, or its loop blocked) shows as
stale after STALE_AFTER_PERIODS periods. run_service starts this for every service, so no
service has a copy of its own.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from contracts import encode
from contracts.envelope import new_id
from contracts.health import ServiceHealth
from contracts.topics import HEALTH_TOPIC
from services.runtime.bus import Bus
from services.runtime.http import Health

log = logging.getLogger(__name__)
REPORT_EVERY = timedelta(seconds=5)
STALE_AFTER_PERIODS = 3


def instance_id() -> str:
    """This process and start: host, pid and a short random id (two services in one process,
    as in the tests, each report on their own)."""
    return f"{socket.gethostname()}/{os.getpid()}/{new_id()[:8]}"


def report(bus: Bus, health: Health, instance: str,
           url: str | None, every: timedelta = REPORT_EVERY) -> ServiceHealth:
    healthy, details = health()
    return ServiceHealth(service=bus.service, instance=instance, healthy=healthy,
                         stuck_consumers=tuple(details.get("stuck_consumers", ())),
                         lagging_partitions=dict(details.get("lagging_partitions", {})),
                         every_seconds=every.total_seconds(), status_url=url)


def health_reporter(bus: Bus, health: Health, url: Callable[[], str | None],
                    every: timedelta = REPORT_EVERY
                    ) -> Callable[[asyncio.Event], Coroutine[Any, Any, None]]:
    """The background task: report now, then every `every` until the service stops; a report
    that cannot be sent (the broker away) is logged and the next one tried."""
    instance = instance_id()

    async def loop(stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                record = report(bus, health, instance, url(), every)
                await bus.broker.publish(encode(record), topic=HEALTH_TOPIC.name,
                                         key=record.key_for_topic.encode())
            except Exception:
                log.warning("health report not sent; trying again", exc_info=True)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), every.total_seconds())
    return loop

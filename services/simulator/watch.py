"""What a dealer waits for when a device sends the result (`--wheels`, `--dice`): the table's
own word that the round is settled. A dealer does not open the next round while the wheel or
the dice service is still forwarding the last result; without this wait the next OpenRound can
reach the table first and be refused («round … is still closed»)."""
from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from contracts.table import RoundSettled
from contracts.topics import TABLE_EVENTS_TOPIC
from services.runtime.replay import LogFollower

log = logging.getLogger(__name__)
RESULT_WAIT_SECONDS = 30.0  # then the dealer carries on anyway, and the table says why not


class SettledRounds:
    """How many rounds each table settled since the watch started, followed live on
    floor.table.events."""

    def __init__(self, bootstrap: str) -> None:
        self._follower = LogFollower(bootstrap, TABLE_EVENTS_TOPIC.name)
        self._settled: dict[str, int] = {}
        self._changed = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> SettledRounds:
        await self._follower.__aenter__()
        self._task = asyncio.create_task(self._follow())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
        await self._follower.__aexit__(*exc)

    async def _follow(self) -> None:
        async for message in self._follower.messages():
            if isinstance(message, RoundSettled):
                async with self._changed:
                    table = message.aggregate_id
                    self._settled[table] = self._settled.get(table, 0) + 1
                    self._changed.notify_all()

    async def wait(self, table_id: str, rounds: int,
                   timeout: float = RESULT_WAIT_SECONDS) -> bool:
        """Until the table settled `rounds` rounds since the watch started (True), or `timeout`
        passed (False)."""
        async def settled() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: self._settled.get(table_id, 0) >= rounds)
        try:
            await asyncio.wait_for(settled(), timeout)
            return True
        except TimeoutError:
            log.warning("%s settled fewer than %s rounds in %s s; carrying on", table_id, rounds,
                        timeout)
            return False

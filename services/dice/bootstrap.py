"""The dice service's composition root: the store of dice sets, one consumer of the dice
commands (co-partitioned with the dice events by set serial), and one that forwards each
accepted roll to its table (floor.table.commands) as RecordRoll."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from contracts.topics import DICE_COMMANDS_TOPIC, DICE_EVENTS_TOPIC, TABLE_COMMANDS_TOPIC
from services.dice import handlers
from services.dice.domain import DiceSet
from services.dice.handlers import SERVICE
from services.runtime.bus import Bus, bind
from services.runtime.service import Service, run_service
from services.runtime.settings import Settings
from services.runtime.store import AggregateStore


def build(settings: Settings) -> Service:
    bus = Bus(settings, SERVICE)
    store = AggregateStore(factory=DiceSet, aggregate_type="dice_set", events=DICE_EVENTS_TOPIC,
                           bus=bus)
    bus.consume([DICE_COMMANDS_TOPIC], SERVICE, handlers.COMMAND_HANDLERS,
                context=store.unit_of_work, owner=store,
                description="Dice commands: sets issued, inspected, chosen, incidents, changes "
                            "and every roll, void or valid (domain.md §4.3, §4.4).")
    bus.consume([DICE_EVENTS_TOPIC], f"{SERVICE}.forward", bind(handlers.FORWARD_HANDLERS, bus),
                description="Accepted rolls, forwarded to their table as RecordRoll.")
    # The service reads its own log back to forward (above); AsyncAPI keeps one channel per
    # service and topic, so this publisher's description says both.
    bus.declare_publisher(DICE_EVENTS_TOPIC, f"{DICE_EVENTS_TOPIC.description} The "
                          "service also reads it back to forward accepted rolls to their "
                          "tables as RecordRoll.")
    bus.declare_publisher(TABLE_COMMANDS_TOPIC, "RecordRoll for each valid roll (actor role "
                                                "device).")
    return Service(bus, status=lambda: status(bus, store))


def status(bus: Bus, store: AggregateStore[DiceSet]) -> dict[str, Any]:
    return {**bus.status(), "partitions": sorted(store.owned), "broken": store.broken,
            "dice_sets": {sid: {"version": d.version, "table": d.table_id,
                                "withdrawn": d.withdrawn, "rolls": d.stats.valid,
                                "voided": d.stats.voided, "open_alerts": sorted(d.open_tests())}
                          for sid, d in sorted(store.aggregates.items())}}


async def main(settings: Settings, *, status_port: int = 0, stop: asyncio.Event | None = None,
               on_ready: Callable[[str], None] | None = None) -> None:
    """Run the dice service until stopped."""
    await run_service(build(settings), status_port=status_port, stop=stop, on_ready=on_ready)

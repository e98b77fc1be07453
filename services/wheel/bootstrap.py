"""The wheel service's composition root: the store of wheels, one consumer of the wheel
commands (co-partitioned with the wheel events by serial), and one that forwards each accepted
spin to its table (floor.table.commands) as RecordSpin."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from contracts.topics import TABLE_COMMANDS_TOPIC, WHEEL_COMMANDS_TOPIC, WHEEL_EVENTS_TOPIC
from services.runtime.bus import Bus, bind
from services.runtime.service import Service, run_service
from services.runtime.settings import Settings
from services.runtime.store import AggregateStore
from services.wheel import handlers
from services.wheel.domain import Wheel
from services.wheel.handlers import SERVICE


def build(settings: Settings) -> Service:
    bus = Bus(settings, SERVICE)
    store = AggregateStore(factory=Wheel, aggregate_type="wheel", events=WHEEL_EVENTS_TOPIC,
                           bus=bus)
    bus.consume([WHEEL_COMMANDS_TOPIC], SERVICE, handlers.COMMAND_HANDLERS,
                context=store.unit_of_work, owner=store,
                description="Wheel commands: inventory, sessions, inspections, seals and every "
                            "spin, judged against the profile's no-spin rules (domain.md §5.5).")
    bus.consume([WHEEL_EVENTS_TOPIC], f"{SERVICE}.forward", bind(handlers.FORWARD_HANDLERS, bus),
                description="Accepted spins, forwarded to their table as RecordSpin.")
    # The service reads its own log back to forward (above); AsyncAPI keeps one channel per
    # service and topic, so this publisher's description says both.
    bus.declare_publisher(WHEEL_EVENTS_TOPIC, f"{WHEEL_EVENTS_TOPIC.description} The "
                          "service also reads it back to forward accepted spins to their "
                          "tables as RecordSpin.")
    bus.declare_publisher(TABLE_COMMANDS_TOPIC, "RecordSpin for each valid spin (actor role "
                                                "device).")
    return Service(bus, status=lambda: status(bus, store))


def status(bus: Bus, store: AggregateStore[Wheel]) -> dict[str, Any]:
    return {**bus.status(), "partitions": sorted(store.owned), "broken": store.broken,
            "wheels": {wid: {"version": w.version, "table": w.table_id, "open": w.in_session,
                             "spins": w.stats.spins, "voided": w.stats.voided,
                             "open_alerts": sorted(w.open_tests())}
                       for wid, w in sorted(store.aggregates.items())}}


async def main(settings: Settings, *, status_port: int = 0, stop: asyncio.Event | None = None,
               on_ready: Callable[[str], None] | None = None) -> None:
    """Run the wheel service until stopped."""
    await run_service(build(settings), status_port=status_port, stop=stop, on_ready=on_ready)

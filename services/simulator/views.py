"""What a dealer terminal knows of the floor, folded from the log through the shared aggregate
store (one gap policy): each table's open/closed state and where its round stands, and each
camera's last frame number. The simulator resumes from these instead of re-opening tables."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contracts.envelope import Event
from contracts.table import (
    BetsClosed,
    DiceRolled,
    RoundOpened,
    RoundSettled,
    ShooterChanged,
    SpinResulted,
    TableClosed,
    TableOpened,
    TableOpenedData,
)
from contracts.topics import TABLE_EVENTS_TOPIC, VISION_FRAMES_TOPIC
from services.runtime.aggregate import Aggregate
from services.runtime.store import AggregateStore


class TableView(Aggregate):
    """A table as the terminal sees it: its configuration and the state of its round."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.config: TableOpenedData | None = None
        self.closed = False
        self.round_state: str | None = None  # betting, closed, spun, settled
        self.round_number = 0
        self.point: int | None = None    # craps: the ON/OFF marker after the last roll
        self.shooter: int | None = None  # craps: the seat holding the dice

    def mutate(self, event: Event) -> None:
        change = _TABLE_CHANGES.get(type(event))
        if change is not None:
            change(self, event)


# (the view, the event of the type it is listed under)
_TABLE_CHANGES: dict[type[Event], Callable[[TableView, Any], None]] = {
    TableOpened: lambda t, e: setattr(t, "config", e.payload),
    TableClosed: lambda t, e: setattr(t, "closed", True),
    RoundOpened: lambda t, e: t.__dict__.update(round_state="betting",
                                                round_number=e.payload.round_number),
    BetsClosed: lambda t, e: setattr(t, "round_state", "closed"),
    SpinResulted: lambda t, e: setattr(t, "round_state", "spun"),
    DiceRolled: lambda t, e: t.__dict__.update(round_state="spun",
                                               point=e.payload.point_after),
    ShooterChanged: lambda t, e: setattr(t, "shooter", e.payload.seat),
    RoundSettled: lambda t, e: setattr(t, "round_state", "settled"),
}


class CameraView(Aggregate):
    """A camera's frame count (its version): a restarted gateway continues it."""

    def mutate(self, event: Event) -> None:
        pass


async def known_tables(bootstrap: str) -> dict[str, TableView]:
    store = AggregateStore(factory=TableView, aggregate_type="table",
                           events=TABLE_EVENTS_TOPIC, bootstrap=bootstrap)
    await store.own_all()
    return store.aggregates


async def camera_versions(bootstrap: str) -> dict[str, int]:
    store = AggregateStore(factory=CameraView, aggregate_type="camera",
                           events=VISION_FRAMES_TOPIC, bootstrap=bootstrap)
    await store.own_all()
    return {camera: view.version for camera, view in store.aggregates.items()}

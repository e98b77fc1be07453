"""Event-sourced aggregates: state changes only by applying events, each with the next sequence
number (in the manner of the `eventsourcing` library). Pure: no I/O.

A command handler checks the command against the state and calls `trigger(...)`, which builds
the event with the next sequence number, applies it, and queues it for publishing. Rebuilding
is applying the stored events in order. Every event records the command that caused it, so a
redelivered command can be recognised (`has_handled`).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Iterable, TypeVar

from contracts.envelope import Command, Event

E = TypeVar("E", bound=Event)
A = TypeVar("A", bound="Aggregate")


class SequenceError(RuntimeError):
    """An event does not follow the aggregate's last sequence number (gap or out of order)."""


class Aggregate:
    PRODUCER: ClassVar[str] = "unknown"

    def __init__(self, aggregate_id: str) -> None:
        self.id = aggregate_id
        self.version = 0
        self._handled: set[str] = set()
        self._pending: list[Event] = []

    # -- rebuilding -------------------------------------------------------------------------
    @classmethod
    def rebuild(cls: type[A], aggregate_id: str, events: Iterable[Event]) -> A:
        aggregate = cls(aggregate_id)
        for event in events:
            aggregate.apply(event)
        return aggregate

    def apply(self, event: Event) -> None:
        if event.sequence != self.version + 1:
            raise SequenceError(f"{self.id}: expected sequence {self.version + 1}, "
                                f"got {event.sequence} ({event.event_type})")
        self.mutate(event)
        self.version = event.sequence
        if event.causation_id:
            self._handled.add(event.causation_id)

    def mutate(self, event: Event) -> None:
        """Change state for one event; subclasses dispatch on the event type."""
        raise NotImplementedError

    # -- deciding ---------------------------------------------------------------------------
    def has_handled(self, command: Command) -> bool:
        return command.command_id in self._handled

    def trigger(self, event_cls: type[E], payload: Any, command: Command,
                occurred_at: datetime | None = None) -> E:
        event = event_cls(
            aggregate_id=self.id, sequence=self.version + 1,
            occurred_at=occurred_at or command.issued_at, producer=self.PRODUCER,
            causation_id=command.command_id, correlation_id=command.correlation_id,
            actor=command.actor, payload=payload,
        )
        self.apply(event)
        self._pending.append(event)
        return event

    def collect(self) -> list[Event]:
        """The events triggered since the last collect, in order, to publish."""
        pending, self._pending = self._pending, []
        return pending

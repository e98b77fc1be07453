"""Event-sourced aggregates: state changes only by applying events, each with the next sequence
number (in the manner of the `eventsourcing` library). Pure: no I/O.

A handler checks a command (or an event it reacts to) against the state and calls
`trigger(...)`, which builds the event with the next sequence number, applies it, and queues it
for publishing. Rebuilding is applying the stored events in order. Every event records the
message that caused it, so a redelivered message can be recognised (`has_handled`).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Iterable, TypeVar

from contracts.envelope import Command, Event, Message

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
    def has_handled(self, cause: Message) -> bool:
        return cause_id(cause) in self._handled

    def trigger(self, event_cls: type[E], payload: Any, cause: Message,
                occurred_at: datetime | None = None) -> E:
        """The next event, caused by `cause` (a command, or an event this aggregate reacts
        to): it inherits the cause's correlation id, actor and time."""
        event = event_cls(
            aggregate_id=self.id, sequence=self.version + 1,
            occurred_at=occurred_at or _time_of(cause), producer=self.PRODUCER,
            causation_id=cause_id(cause), correlation_id=cause.correlation_id,
            actor=cause.actor, payload=payload,
        )
        self.apply(event)
        self._pending.append(event)
        return event

    def collect(self) -> list[Event]:
        """The events triggered since the last collect, in order, to publish."""
        pending, self._pending = self._pending, []
        return pending


def cause_id(message: Message) -> str:
    return message.command_id if isinstance(message, Command) else message.event_id


def _time_of(message: Message) -> datetime:
    return message.issued_at if isinstance(message, Command) else message.occurred_at

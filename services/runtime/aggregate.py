"""Event-sourced aggregates: state changes only by applying events, each with the next sequence
number (in the manner of the `eventsourcing` library). Pure: no I/O.

A handler checks a command (or an event it reacts to) against the state and calls
`trigger(...)`, which builds the event with the next sequence number, applies it, and queues it
for publishing; the unit of work (store.py) collects and publishes what is queued. Rebuilding
is applying the stored events in order. Every event records the message that caused it, so a
redelivered message can be recognised (`has_handled`).

Every event `trigger` makes is sealed into the aggregate's hash chain (contracts/chain.py): it
names the hash of the aggregate's last event (`prev_hash`) and carries its own, computed here,
once, for every aggregate of every service. The last hash is part of the snapshot, so a
restarted service carries the chain on. An aggregate whose last event is from before the chain
(no hash) starts its chain at its next event.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from contracts.chain import seal
from contracts.envelope import Command, Event

E = TypeVar("E", bound=Event)
A = TypeVar("A", bound="Aggregate")
Cause = Event | Command  # what an aggregate reacts to

# How many causation ids an aggregate remembers. A message comes again only while its offset is
# not committed (one batch, at most a few hundred records) or after a rebalance; remembering every
# id ever would grow without end and make every snapshot bigger.
REMEMBERED_CAUSES = 10_000


class SequenceError(RuntimeError):
    """An event does not follow the aggregate's last sequence number (gap or out of order)."""


class Aggregate:
    PRODUCER: ClassVar[str] = "unknown"
    # Bump when snapshot_state() changes shape: older snapshots are then ignored (full replay).
    STATE_VERSION: ClassVar[int] = 1

    def __init__(self, aggregate_id: str) -> None:
        self.id = aggregate_id
        self.version = 0
        self.partition_key: str | None = None  # None: events are keyed by the aggregate id
        self.last_hash: str | None = None  # the hash chain's head: the last event's hash
        self._handled: OrderedDict[str, None] = OrderedDict()
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
        self.last_hash = event.hash
        if event.partition_key:
            self.partition_key = event.partition_key
        if event.causation_id:
            self._remember(event.causation_id)

    def mutate(self, event: Event) -> None:
        """Change state for one event; subclasses dispatch on the event type."""
        raise NotImplementedError

    def _remember(self, cause: str) -> None:
        self._handled[cause] = None
        self._handled.move_to_end(cause)
        while len(self._handled) > REMEMBERED_CAUSES:
            self._handled.popitem(last=False)

    # -- deciding ---------------------------------------------------------------------------
    def has_handled(self, cause: Cause) -> bool:
        return cause_id(cause) in self._handled

    def trigger(self, event_cls: type[E], payload: Any, cause: Cause,
                occurred_at: datetime | None = None) -> E:
        """The next event, caused by `cause` (a command, or an event this aggregate reacts
        to): it inherits the cause's correlation id, actor and time."""
        fields: dict[str, Any] = dict(  # `payload` is a field of each concrete event type
            aggregate_id=self.id, sequence=self.version + 1,
            occurred_at=occurred_at or _time_of(cause), producer=self.PRODUCER,
            causation_id=cause_id(cause), correlation_id=cause.correlation_id,
            actor=cause.actor, payload=payload, partition_key=self.partition_key,
            prev_hash=self.last_hash,
        )
        event = seal(event_cls(**fields))
        self.apply(event)
        self._pending.append(event)
        return event

    def collect(self) -> list[Event]:
        """The events triggered since the last collect, in order, to publish."""
        pending, self._pending = self._pending, []
        return pending

    # -- snapshots --------------------------------------------------------------------------
    @classmethod
    def snapshots_supported(cls) -> bool:
        return cls.snapshot_state is not Aggregate.snapshot_state

    def snapshot_state(self) -> dict[str, Any]:
        """The aggregate's own state as JSON values; aggregates that support snapshots
        override this and `restore_state`."""
        raise NotImplementedError

    def restore_state(self, state: dict[str, Any]) -> None:
        raise NotImplementedError

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to carry on from this version: the subclass's state, the
        remembered causes, the partition key and the hash chain's head (a checkpoint of the
        chain: `casino audit verify` checks it against the log)."""
        return {"state": self.snapshot_state(), "handled": list(self._handled),
                "partition_key": self.partition_key, "last_hash": self.last_hash}

    def load_snapshot(self: A, version: int, snap: dict[str, Any]) -> A:
        """This aggregate (new, from the service's factory) brought to `version` by `snap`,
        the inverse of `snapshot()`."""
        self.restore_state(snap["state"])
        self.version = version
        self.partition_key = snap.get("partition_key")
        self.last_hash = snap.get("last_hash")  # None from a snapshot older than the chain
        for cause in snap.get("handled", ()):
            self._remember(cause)
        return self


def cause_id(message: Cause) -> str:
    return message.command_id if isinstance(message, Command) else message.event_id


def _time_of(message: Cause) -> datetime:
    return message.issued_at if isinstance(message, Command) else message.occurred_at

"""The hash chain of an aggregate's events: what makes a rewritten history evident.

An event's `hash` is the SHA-256 (hex) of its bytes as published, with the value of its
top-level `hash` member written as `null`; its `prev_hash` is the `hash` of the aggregate's
event before it (None for the first hashed event: the chain's start). Rewriting, deleting,
inserting or reordering an event therefore breaks a link that anyone holding the log can
recompute (`casino audit verify`), and a second, different event at a sequence already seen (a
fork) has another hash than the first.

The hash is over the bytes, not over a re-encoding, so checking it does not depend on how a
reader's models would serialize the event. The producer encodes an event once: `seal` encodes
it with `hash` null, hashes those bytes and writes the hash into them; the bytes are cached on
the event (`wire`) and are what the bus publishes, and a decoded event keeps the bytes it came
in, so a consumer checks the hash without encoding anything again.

Events from before the chain carry no hash; their `digest` (SHA-256 of their bytes) still tells
an identical redelivery from a different event at the same sequence.
"""
from __future__ import annotations

import hashlib
from typing import NamedTuple, TypeVar

from contracts.envelope import Event

E = TypeVar("E", bound=Event)

# The top-level `hash` member, as the envelope writes it: before the payload (the envelope's
# fields come first), without spaces. A match cannot come from inside a JSON string (its quotes
# would be escaped); `link_of` also checks it names the hash the parsed event has.
_MEMBER = b'"hash":'
_NULL = b'"hash":null'


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def seal(event: E) -> E:
    """`event` (just built, its `prev_hash` set and its `hash` not) with its hash and its bytes
    cached: one encoding, one SHA-256. The event is completed in place: nobody holds it yet,
    and a copy would cost as much as the hash."""
    body = event.model_dump_json().encode()
    at = body.find(_NULL)
    if event.hash is not None or at < 0:
        raise ValueError(f"hash: {event.event_type} {event.aggregate_id}#{event.sequence} is "
                         "already sealed")
    digest = sha256(body)
    event.__dict__["hash"] = digest
    event.__pydantic_fields_set__.add("hash")
    event.keep_wire(body.replace(_NULL, b'"hash":"' + digest.encode() + b'"', 1))
    return event


def wire_of(event: Event) -> bytes:
    """The bytes `event` was published or received as (encoded now if it has none)."""
    wire = event.wire
    return wire if wire is not None else event.model_dump_json().encode()


def _stated(data: bytes) -> tuple[int, str | None]:
    """Where the hash value starts in `data` and the hash stated there (None: null, or no
    hash member: an event from before the chain)."""
    at = data.find(_MEMBER)
    if at < 0:
        return -1, None
    start = at + len(_MEMBER)
    value = data[start:start + 66]
    if len(value) == 66 and value[0] == value[65] == 34:  # "…": a wrong value fails the hash
        return start, value[1:65].decode("latin-1")
    return -1, None


class Link(NamedTuple):
    """One event as its aggregate's chain sees it (a tuple: one is made per event consumed)."""

    aggregate_id: str
    sequence: int
    prev_hash: str | None
    hash: str | None        # the hash the event states (None: from before the chain)
    digest: str             # what its bytes hash to: equal to `hash` when it is intact
    problem: str | None = None   # why the event's own hash does not hold, if it does not

    @property
    def chain_hash(self) -> str | None:
        """The hash the next event must name: the event's own, when it has one."""
        return self.hash


def link_of(event: Event, wire: bytes | None = None) -> Link:
    """The chain link of `event`, checked against its bytes (`wire`, else those it came in)."""
    data = wire if wire is not None else wire_of(event)
    start, stated = _stated(data)
    problem = None
    if stated is None:
        digest = sha256(data)
        if event.hash is not None:
            problem = "the event's hash member is not where it belongs in its bytes"
    else:
        digest = sha256(b"%snull%s" % (data[:start], data[start + 66:]))
        if stated != event.hash:
            problem = "the event's bytes state two different hashes"
        elif digest != stated:
            problem = f"its content was changed: its bytes hash to {digest}, it states {stated}"
    return Link(event.aggregate_id, event.sequence, event.prev_hash, event.hash, digest, problem)

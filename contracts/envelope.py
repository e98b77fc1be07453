"""The envelope every message carries, and the registry that decodes messages by type.

Events are immutable facts about one aggregate (a table, a shoe, a pool): each has a unique
id, a type and schema version, the aggregate it belongs to with its per-aggregate sequence
number, when it happened on the floor and when it was recorded, the emitting service,
causation and correlation ids, and the actor (employee id and role) when a person acted.
Commands are requests to a service; the service turns an accepted command into events whose
causation_id is the command id, which is what makes a redelivered command a no-op.

Each aggregate's events form a hash chain (contracts/chain.py): an event names the hash of the
one before it (`prev_hash`) and carries its own (`hash`), SHA-256 of its encoding with `hash`
null. Events written before the chain existed have neither; an aggregate's chain starts at its
first hashed event.

Where each id is unique (its scope), and who makes sure of it:
- `event_id`: floor-wide (a UUID made by the producer); the projection keys `events` on it.
- `command_id`: per target aggregate: a command whose id the target has already handled (among
  its last REMEMBERED_CAUSES causes) is a redelivery and a no-op. Senders use UUIDs.
- `aggregate_id` + `sequence`: one event per sequence number of an aggregate, ever; a second,
  different event at a sequence already seen is a fork (the projector quarantines it).
- table id: floor-wide (OpenTable for an existing table is refused); round id: floor-wide, made
  by the table service as `<table_id>.<round_number>`; bet id: within its round (a bet id may
  repeat at another table or in a later round; the table refuses one already placed in the
  round or still held «en prisión»); round check id: floor-wide (the round's correlation id).
"""
from __future__ import annotations

import functools
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PrivateAttr, StrictInt

Id = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:\-]+$")]


def new_id() -> str:
    return str(uuid.uuid4())


def utcnow() -> datetime:
    return datetime.now(UTC)


class Actor(BaseModel):
    """The employee who acted (dealer, jefe de mesa, pit manager, cashier, count team,
    surveillance, finance); what each role may command is in contracts/permissions.py."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    employee_id: Id
    role: Annotated[str, Field(pattern=r"^(dealer|table_supervisor|pit_manager|cashier|"
                                       r"count_team|surveillance|finance|system|device)$")]


class Message(BaseModel):
    """Common base: frozen, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    KIND: ClassVar[str] = "message"


class Event(Message):
    KIND: ClassVar[str] = "event"

    event_id: Id = Field(default_factory=new_id)
    event_type: str
    schema_version: StrictInt
    aggregate_type: str
    aggregate_id: Id
    sequence: Annotated[StrictInt, Field(ge=1, description="Per-aggregate, gapless, from 1")]
    occurred_at: AwareDatetime = Field(description="When it happened on the floor")
    recorded_at: AwareDatetime = Field(default_factory=utcnow, description="When it was recorded")
    producer: str = Field(description="The emitting service")
    causation_id: Id | None = Field(default=None, description="The command or event that caused it")
    correlation_id: Id = Field(description="Ties together everything of one flow (e.g. a round)")
    actor: Actor | None = None
    partition_key: Id | None = Field(
        default=None, description="The topic's partition key when it is not the aggregate id "
                                  "(a round check is keyed by its table, so the table's owner "
                                  "reads it from the partition it owns)")

    prev_hash: str | None = Field(
        default=None, description="The `hash` of the aggregate's event before this one (None "
                                  "for the first hashed event of an aggregate: the chain's "
                                  "start)")
    hash: str | None = Field(
        default=None, description="SHA-256 (hex) of this event's encoding with `hash` null "
                                  "(contracts/chain.py); None on events from before the chain")
    @property
    def key(self) -> str:
        return self.partition_key or self.aggregate_id

    # The bytes this event was published or received as (contracts/chain.py): encoded once,
    # hashed and sent as they are. Not a field: not compared, not serialized. Kept in pydantic's
    # slot for private state rather than as a declared private attribute, which would cost
    # every event built or decoded an initialisation (a third of a decode).
    @property
    def wire(self) -> bytes | None:
        private = self.__pydantic_private__
        return private.get("wire") if private else None

    def keep_wire(self, data: bytes | None) -> None:
        object.__setattr__(self, "__pydantic_private__", {"wire": data} if data else None)

    def __eq__(self, other: object) -> bool:
        """Equal fields make equal events, whether or not their bytes are cached."""
        if not isinstance(other, BaseModel):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        """A copy; with changed fields its cached bytes are no longer its own."""
        copy = super().model_copy(update=update, deep=deep)
        if update:
            copy.keep_wire(None)
        return copy


class Command(Message):
    KIND: ClassVar[str] = "command"

    command_id: Id = Field(default_factory=new_id)
    command_type: str
    schema_version: StrictInt
    target_id: Id = Field(description="The aggregate the command is addressed to (e.g. table id)")
    issued_at: AwareDatetime = Field(default_factory=utcnow)
    issued_by: str = Field(description="The client or service that sent it")
    correlation_id: Id = Field(default_factory=new_id)
    actor: Actor | None = None
    # Who signed it (contracts/identity.py): the signer's registered key and an Ed25519
    # signature over the command without `signature`. The role checked is the key's.
    key_id: Id | None = Field(default=None, description="The signer's registered key")
    signature: str | None = Field(default=None, max_length=88,
                                  description="Ed25519 signature (base64) of the canonical "
                                              "command without this field")
    # Set by the runtime once the signature is checked (contracts.identity.Authentication);
    # never on the wire.
    _authentication: Any = PrivateAttr(default=None)

    @property
    def key(self) -> str:
        return self.target_id


# (type name, schema version) -> model; filled by `message_type` as contract modules import.
REGISTRY: dict[tuple[str, int], type[Message]] = {}


def message_type(cls: type[Message]) -> type[Message]:
    """Class decorator: register a concrete event/command model for decoding."""
    name = cls.model_fields[type_field(cls)].default
    version = cls.model_fields["schema_version"].default
    REGISTRY[(name, version)] = cls
    return cls


TYPE_FIELDS = ("event_type", "command_type", "record_type")


@functools.cache
def type_field(cls: type[Message]) -> str:
    """The field naming a model's type (event_type, command_type or record_type); looked up
    once per class, since decoding and dispatch ask it for every message."""
    return next(f for f in TYPE_FIELDS if f in cls.model_fields)


def type_of(message: Message) -> str:
    return str(getattr(message, type_field(type(message))))


def as_dict(message: Message) -> dict[str, Any]:
    return message.model_dump(mode="json")

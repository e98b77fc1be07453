"""The envelope every message carries, and the registry that decodes messages by type.

Events are immutable facts about one aggregate (a table, a shoe, a pool): each has a unique
id, a type and schema version, the aggregate it belongs to with its per-aggregate sequence
number, when it happened on the floor and when it was recorded, the emitting service,
causation and correlation ids, and the actor (employee id and role) when a person acted.
Commands are requests to a service; the service turns an accepted command into events whose
causation_id is the command id, which is what makes a redelivered command a no-op.
"""
from __future__ import annotations

import functools
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar

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

    @property
    def key(self) -> str:
        return self.partition_key or self.aggregate_id


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

"""Dead letters: messages a consumer could not use, kept with the reason and original bytes."""
from __future__ import annotations

import base64
from typing import ClassVar, Literal

from pydantic import AwareDatetime, Field

from contracts.envelope import Id, Message, message_type, new_id, utcnow

DeadLetterCode = Literal["undecodable", "unknown_type", "invalid_payload", "sequence_gap",
                         "unknown_aggregate", "handler_error", "poison"]


@message_type
class DeadLetter(Message):
    KIND: ClassVar[str] = "record"

    record_type: Literal["DeadLetter"] = "DeadLetter"
    schema_version: Literal[1] = 1
    dead_letter_id: Id = Field(default_factory=new_id)
    failed_at: AwareDatetime = Field(default_factory=utcnow)
    service: str
    source_topic: str
    partition: int
    offset: int
    key: str | None = None
    code: DeadLetterCode
    reason: str = Field(description="What is wrong, naming the field where there is one")
    original_b64: str = Field(description="The original message bytes, base64")

    @property
    def key_for_topic(self) -> str:
        return self.source_topic

    def original(self) -> bytes:
        return base64.b64decode(self.original_b64)

    @staticmethod
    def encode_original(data: bytes) -> str:
        return base64.b64encode(data).decode("ascii")

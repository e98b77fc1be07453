"""Dead letters: messages a consumer could not use, kept with the reason and original bytes."""
from __future__ import annotations

import base64
import hashlib
from typing import Any, ClassVar, Literal

from pydantic import AwareDatetime, Field

from contracts.envelope import Id, Message, message_type, new_id, utcnow

DeadLetterCode = Literal["undecodable", "unknown_type", "invalid_payload", "sequence_gap",
                         "unknown_aggregate", "handler_error", "poison",
                         # a different event at a sequence already applied, or a broken hash
                         # chain link (contracts/chain.py); the reason names both hashes
                         "fork", "broken_chain", "forbidden"]


KEEP_WHOLE = 64 * 1024   # originals up to this size are kept whole
HEAD = 4 * 1024          # of a larger one, this many first bytes


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
    original_b64: str = Field(description="The original message bytes, base64; only their "
                                          "head when `truncated`")
    original_size: int | None = Field(default=None, description="The original's size in bytes")
    original_sha256: str | None = Field(default=None, description="SHA-256 of the original")
    truncated: bool = Field(default=False, description="The original was over KEEP_WHOLE "
                                                       "bytes: only its first HEAD bytes are kept")

    @property
    def key_for_topic(self) -> str:
        return self.source_topic

    def original(self) -> bytes:
        return base64.b64decode(self.original_b64)

    @staticmethod
    def encode_original(data: bytes) -> str:
        return base64.b64encode(data).decode("ascii")

    @classmethod
    def keeping(cls, data: bytes, **fields: Any) -> DeadLetter:
        """A dead letter that always fits the dead-letter topic: an original over KEEP_WHOLE
        bytes (a command with a 1 MB field, say) is kept as its size, SHA-256 and its first
        HEAD bytes — whole, its base64 copy would be over the producer's request size and
        the consumer would retry the batch forever."""
        whole = len(data) <= KEEP_WHOLE
        return cls(original_b64=cls.encode_original(data if whole else data[:HEAD]),
                   original_size=len(data), original_sha256=hashlib.sha256(data).hexdigest(),
                   truncated=not whole, **fields)

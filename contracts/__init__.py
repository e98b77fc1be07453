"""Message contracts of the casino floor: envelope, events, commands, topics and codec.

Importing this package registers every message type for decoding.
"""
# Imported for their side effect: each module registers its message types.
from contracts import (  # noqa: F401
    audit,
    deadletter,
    devices,
    health,
    identity,
    payouts,
    table,
    vision,
)
from contracts.codec import DecodeError, decode, encode
from contracts.topics import TOPICS, TopicSpec, topic_for

__all__ = ["DecodeError", "decode", "encode", "TOPICS", "TopicSpec", "topic_for"]

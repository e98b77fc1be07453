"""Message contracts of the casino floor: envelope, events, commands, topics and codec.

Importing this package registers every message type for decoding.
"""
from contracts import (  # noqa: F401  (registers message types)
    deadletter,
    devices,
    identity,
    payouts,
    table,
    vision,
)
from contracts.codec import DecodeError, decode, encode
from contracts.topics import TOPICS, TopicSpec, topic_for

__all__ = ["DecodeError", "decode", "encode", "TOPICS", "TopicSpec", "topic_for"]

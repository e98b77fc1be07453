"""Message contracts of the casino floor: envelope, events, commands, topics and codec.

Importing this package registers every message type for decoding.
"""
from contracts import deadletter, identity, payouts, table, vision  # noqa: F401  (registers)
from contracts.codec import DecodeError, decode, encode
from contracts.topics import TOPICS, TopicSpec, topic_for

__all__ = ["DecodeError", "decode", "encode", "TOPICS", "TopicSpec", "topic_for"]

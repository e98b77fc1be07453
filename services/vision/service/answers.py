"""The vision service's answer to one surveillance command, for the CLI to show the officer:
VerificationResolved or ResolutionRefused on floor.vision.checks (their causation id is the
command's id), or the command itself dead-lettered (an unknown round, a malformed command).

Read with kafka-python from where the topics ended *before* the command was sent, so an
answer cannot be missed and an older one cannot be taken for it.
"""
from __future__ import annotations

import time
from typing import Any

from kafka import KafkaConsumer, TopicPartition

from contracts.codec import DecodeError, decode
from contracts.deadletter import DeadLetter
from contracts.topics import DEAD_LETTER_TOPIC, VISION_CHECKS_TOPIC

TOPICS = (VISION_CHECKS_TOPIC.name, DEAD_LETTER_TOPIC.name)


class Answers:
    def __init__(self, bootstrap: str) -> None:
        self.consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                      request_timeout_ms=10_000, bootstrap_timeout_ms=5_000)
        parts = [TopicPartition(t, p) for t in TOPICS
                 for p in self.consumer.partitions_for_topic(t) or ()]
        self.consumer.assign(parts)
        # end_offsets() may point inside the last batch on some brokers (tests/e2e/floor.py):
        # then a few older records are read again, and none of them answers this command.
        for tp, end in self.consumer.end_offsets(parts).items():
            self.consumer.seek(tp, end)

    def wait(self, command_id: str, seconds: float) -> Any | None:
        """The answer to `command_id` (an event or a DeadLetter), or None after `seconds`."""
        deadline = time.monotonic() + seconds
        try:
            while time.monotonic() < deadline:
                for records in self.consumer.poll(timeout_ms=200).values():
                    for record in records:
                        found = _answer(record.value, command_id)
                        if found is not None:
                            return found
            return None
        finally:
            self.consumer.close()


def _answer(value: bytes | None, command_id: str) -> Any | None:
    try:
        message = decode(value)
    except DecodeError:
        return None
    if isinstance(message, DeadLetter):
        try:
            original = decode(message.original())
        except DecodeError:
            return None
        return message if getattr(original, "command_id", None) == command_id else None
    return message if getattr(message, "causation_id", None) == command_id else None

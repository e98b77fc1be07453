"""Message size limits, per topic (contracts/topics.py): the runtime's publish refuses a message
over its topic's limit naming the topic and the limit; the producers' request size and the
consumers' fetch sizes come from the limits; a dead letter always fits its topic; the floor
simulator never produces a message near a limit."""
from __future__ import annotations

import random

import pytest

from contracts.codec import encode
from contracts.deadletter import DeadLetter
from contracts.envelope import Actor, utcnow
from contracts.table import CloseTable, TableClosed, TableClosedData
from contracts.topics import (
    BATCH_OVERHEAD,
    DEAD_LETTER_TOPIC,
    TABLE_COMMANDS_TOPIC,
    TABLE_EVENTS_TOPIC,
    TOPICS,
    VISION_FRAMES_TOPIC,
    largest_message_bytes,
    topic_for,
)
from services.runtime.bus import MessageTooLarge, checked_size
from services.runtime.settings import FETCH_MESSAGES, Settings
from services.simulator.floor import make_tables, open_table, round_commands, seat_players

PIT = Actor(employee_id="PM1", role="pit_manager")


def close_table(size: int) -> CloseTable:
    """A CloseTable whose key + value are exactly `size` bytes (its reason pads it)."""
    base = CloseTable(target_id="T-01", issued_by="t", actor=PIT, payload=TableClosedData())
    short = len(checked_size(base, _unlimited())) + len(b"T-01")
    return base.model_copy(update={"payload": TableClosedData(
        reason="x" * (size - short + len("end of session")))})


def _unlimited():
    from dataclasses import replace
    return replace(TABLE_COMMANDS_TOPIC, max_message_bytes=1 << 30)


def test_every_topic_has_a_limit_and_the_broker_is_told_it():
    for topic in TOPICS.values():
        assert 1024 <= topic.max_message_bytes <= 8 * 1024 * 1024, topic.name
        assert topic.broker_config["max.message.bytes"] == str(
            topic.max_message_bytes + BATCH_OVERHEAD)
    assert TABLE_COMMANDS_TOPIC.max_message_bytes == 64 * 1024
    assert TABLE_EVENTS_TOPIC.max_message_bytes == 256 * 1024


def test_a_message_at_the_limit_goes_and_one_byte_more_is_refused_naming_topic_and_limit():
    limit = TABLE_COMMANDS_TOPIC.max_message_bytes
    at_limit = close_table(limit)
    assert len(checked_size(at_limit, TABLE_COMMANDS_TOPIC)) + len(b"T-01") == limit
    with pytest.raises(MessageTooLarge) as refused:
        checked_size(close_table(limit + 1), TABLE_COMMANDS_TOPIC)
    assert str(refused.value) == (f"CloseTable for 'T-01' is {limit + 1} bytes, over the "
                                  f"{limit}-byte limit of floor.table.commands")
    assert refused.value.topic is TABLE_COMMANDS_TOPIC and refused.value.size == limit + 1


def test_an_event_is_checked_against_its_own_topic():
    reason = "x" * (100 * 1024)     # over a command's 64 KiB, under an event's 256 KiB
    event = TableClosed(aggregate_id="T-01", sequence=2, occurred_at=utcnow(), producer="t",
                        correlation_id="c1", payload=TableClosedData(reason=reason))
    assert topic_for(event) is TABLE_EVENTS_TOPIC
    checked_size(event, TABLE_EVENTS_TOPIC)
    with pytest.raises(MessageTooLarge, match="floor.table.commands"):
        checked_size(CloseTable(target_id="T-01", issued_by="t", actor=PIT,
                                payload=TableClosedData(reason=reason)), TABLE_COMMANDS_TOPIC)


def test_the_largest_dead_letter_fits_the_dead_letter_topic():
    letter = DeadLetter.keeping(b"\xff" * (10 * 1024 * 1024), service="s" * 200,
                                source_topic="t" * 200, partition=2, offset=10**12,
                                key="k" * 200, code="poison", reason="r" * 4_000)
    whole = DeadLetter.keeping(b"\xff" * (64 * 1024), service="s" * 200, source_topic="t" * 200,
                               partition=2, offset=10**12, key="k" * 200, code="poison",
                               reason="r" * 4_000)
    assert not whole.truncated
    for d in (letter, whole):   # keyed by its source topic (Bus.dead_letter)
        assert len(encode(d)) + len(d.source_topic) <= DEAD_LETTER_TOPIC.max_message_bytes


def test_producers_allow_the_largest_message_and_consumers_fetch_from_their_topics_limits():
    settings = Settings(bootstrap="127.0.0.1:1")
    assert settings.producer_options()["max_request_size"] == \
        largest_message_bytes() + BATCH_OVERHEAD
    assert largest_message_bytes() == max(t.max_message_bytes for t in TOPICS.values())
    options = settings.consumer_options([TABLE_COMMANDS_TOPIC, VISION_FRAMES_TOPIC])
    assert options["max_partition_fetch_bytes"] == \
        FETCH_MESSAGES * (TABLE_COMMANDS_TOPIC.max_message_bytes + BATCH_OVERHEAD)
    assert "max_partition_fetch_bytes" not in settings.consumer_options()


def test_the_floor_simulator_never_produces_a_message_near_a_limit():
    rng = random.Random(7)
    biggest: dict[str, int] = {}
    for table in make_tables(4):
        messages = [open_table(table), *seat_players(table)]
        for _ in range(200):
            messages += round_commands(table, rng)
        for m in messages:
            topic = topic_for(m)
            size = len(checked_size(m, topic))
            biggest[topic.name] = max(biggest.get(topic.name, 0), size)
    assert biggest[TABLE_COMMANDS_TOPIC.name] < TABLE_COMMANDS_TOPIC.max_message_bytes // 16

"""ensure_topics: creates with the right partition counts, idempotent, clear errors."""
from __future__ import annotations

import time
import uuid

import pytest
from kafka import KafkaAdminClient

from deploy.local.admin import TopicSetupError, ensure_topics, partition_counts
from deploy.local.broker import free_port


def unique(name: str) -> str:
    # The session broker may be an external cluster shared with other tests: own names.
    return f"test.{name}.{uuid.uuid4().hex[:8]}"


def counts(bootstrap: str, names: list[str]) -> dict[str, int]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        return partition_counts(admin, names)
    finally:
        admin.close()


def test_creates_topics_with_the_given_partition_counts(kafka_bootstrap: str) -> None:
    wanted = {unique("commands"): 3, unique("events"): 5, unique("deadletter"): 1}
    ensure_topics(kafka_bootstrap, wanted)
    assert counts(kafka_bootstrap, list(wanted)) == wanted


def test_is_idempotent_and_adds_only_what_is_missing(kafka_bootstrap: str) -> None:
    first = {unique("a"): 2}
    ensure_topics(kafka_bootstrap, first)
    ensure_topics(kafka_bootstrap, first)   # again: fine, unchanged
    both = {**first, unique("b"): 4}
    ensure_topics(kafka_bootstrap, both)
    assert counts(kafka_bootstrap, list(both)) == both


def test_existing_topic_with_other_partition_count_is_an_error(kafka_bootstrap: str) -> None:
    name = unique("mismatch")
    ensure_topics(kafka_bootstrap, {name: 2})
    with pytest.raises(TopicSetupError, match=rf"{name}: wanted 3, has 2"):
        ensure_topics(kafka_bootstrap, {name: 3})
    assert counts(kafka_bootstrap, [name]) == {name: 2}


@pytest.mark.parametrize("bad", [0, -1, "3", 2.0, True])
def test_bad_partition_count_names_the_topic(bad: object) -> None:
    with pytest.raises(ValueError, match=r"topics\['t'\]: partition count must be an int >= 1"):
        ensure_topics("127.0.0.1:1", {"t": bad})  # type: ignore[dict-item]


def test_gives_up_with_a_clear_error_when_no_broker_answers() -> None:
    address = f"127.0.0.1:{free_port()}"
    started = time.monotonic()
    with pytest.raises(TopicSetupError, match=f"could not create topics.*{address}"):
        ensure_topics(address, {"t": 1}, timeout=1.0)
    assert time.monotonic() - started < 10

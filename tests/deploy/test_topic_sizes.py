"""ensure_topics creates the registry's topics with their message size limit as the broker's
max.message.bytes (contracts/topics.py). Tansu 0.6 neither reports nor enforces topic configs,
so what is checked is the request the real admin client sends to the real broker."""
from __future__ import annotations

import uuid
from typing import Any

import pytest
from kafka import KafkaAdminClient

from contracts.topics import TABLE_COMMANDS_TOPIC, TOPICS
from deploy.local.admin import ensure_topics, topic_configs


def test_the_registry_topics_are_configured_with_their_size_limit() -> None:
    configs = topic_configs([*TOPICS, "not.ours"])
    assert set(configs) == set(TOPICS)
    for name, t in TOPICS.items():
        assert configs[name]["max.message.bytes"] == str(t.max_message_bytes + 1024)


def test_only_the_health_reports_expire() -> None:
    """The logs the floor is rebuilt from keep the broker's default retention (set for the
    cluster: forever for an audited floor); the health reports are kept a day."""
    configs = topic_configs(list(TOPICS))
    expiring = {name: c["retention.ms"] for name, c in configs.items() if "retention.ms" in c}
    assert expiring == {"floor.health": str(24 * 60 * 60 * 1000)}


def test_new_topics_are_created_with_their_configuration(
        kafka_bootstrap: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[Any] = []
    real = KafkaAdminClient.create_topics

    def spy(self: KafkaAdminClient, new_topics: list[Any], *args: Any, **kwargs: Any) -> Any:
        sent.extend(new_topics)
        return real(self, new_topics, *args, **kwargs)

    monkeypatch.setattr(KafkaAdminClient, "create_topics", spy)
    name = f"test.sized.{uuid.uuid4().hex[:8]}"
    ensure_topics(kafka_bootstrap, {name: 1},
                  configs={name: TABLE_COMMANDS_TOPIC.broker_config})
    [topic] = sent
    assert (topic.name, topic.topic_configs) == (name, {"max.message.bytes": "66560"})

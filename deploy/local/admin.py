"""Create the platform's topics with the partition counts we mean (never rely on auto-creation).

`ensure_topics` is idempotent: existing topics with the right partition count are fine; an
existing topic with a *different* count is an error, because keys (table ids) would hash to
other partitions than the code expects. While the broker is still warming up it retries.

A topic of the registry (contracts/topics.py) is created with its configuration
(`TopicSpec.broker_config`: `max.message.bytes` from its message size limit); other names get
the broker's defaults unless `configs` says otherwise. An existing topic's configuration is
left as it is. Tansu 0.6 accepts the setting but does not enforce it (see contracts/topics.py):
there the clients' own checks are the limit.
"""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Mapping

from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from kafka.errors import KafkaError, TopicAlreadyExistsError

from contracts.topics import TOPICS
from services.runtime.kafka_config import KafkaConfig, kafka_config

__all__ = ["TopicSetupError", "ensure_topics", "partition_counts", "topic_configs",
           "KafkaConfig", "kafka_config"]

# -1: the broker's default.replication.factor (KIP-464) — 1 on Tansu, 3 on a production cluster.
BROKER_DEFAULT = -1


class TopicSetupError(RuntimeError):
    """Topics could not be created, or an existing topic has another partition count."""


def ensure_topics(bootstrap: str, topics: Mapping[str, int], *, timeout: float = 30.0,
                  replication_factor: int = BROKER_DEFAULT,
                  configs: Mapping[str, Mapping[str, str]] | None = None) -> None:
    """Make every topic in `topics` (name -> partitions) exist with that partition count;
    a new one gets `configs[name]`, by default its registry configuration (topic_configs)."""
    for name, partitions in topics.items():
        if not isinstance(partitions, int) or isinstance(partitions, bool) or partitions < 1:
            raise ValueError(f"topics[{name!r}]: partition count must be an int >= 1, "
                             f"not {partitions!r}")
    deadline = time.monotonic() + timeout
    while True:
        try:
            wait_ms = int(1000 * min(5.0, max(0.5, deadline - time.monotonic())))
            return _ensure_once(bootstrap, topics, replication_factor, wait_ms,
                                topic_configs(topics) if configs is None else configs)
        except (KafkaError, OSError) as error:   # not ready yet, or a creation race: retry
            if time.monotonic() > deadline:
                raise TopicSetupError(f"could not create topics {sorted(topics)} on "
                                      f"{bootstrap} in {timeout:.0f} s: {error!r}") from error
            time.sleep(0.2)


def topic_configs(names: Iterable[str]) -> dict[str, dict[str, str]]:
    """The registry's configuration of each of `names` that the registry knows."""
    return {n: TOPICS[n].broker_config for n in names if n in TOPICS}


def _ensure_once(bootstrap: str, topics: Mapping[str, int], replication_factor: int,
                 wait_ms: int, configs: Mapping[str, Mapping[str, str]]) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="casino-admin",
                             request_timeout_ms=wait_ms, bootstrap_timeout_ms=wait_ms,
                             **kafka_config().security_options())  # TLS/SASL (issue 12)
    try:
        existing = set(admin.list_topics())
        missing = [name for name in topics if name not in existing]
        if missing:
            # Someone else may create one meanwhile; the check below decides.
            with contextlib.suppress(TopicAlreadyExistsError):
                admin.create_topics([NewTopic(n, topics[n], replication_factor,
                                              topic_configs=dict(configs.get(n, {})))
                                     for n in missing])
        _check_counts(partition_counts(admin, list(topics)), topics)
    finally:
        admin.close()


def partition_counts(admin: KafkaAdminClient, names: list[str]) -> dict[str, int]:
    """Partition count of each existing topic among `names`."""
    return {t["name"]: len(t["partitions"]) for t in admin.describe_topics(names)
            if t["error_code"] == 0}


def _check_counts(actual: Mapping[str, int], wanted: Mapping[str, int]) -> None:
    wrong = {n: (wanted[n], actual.get(n)) for n in wanted if actual.get(n) != wanted[n]}
    missing = [n for n, (_, have) in wrong.items() if have is None]
    if missing:
        raise KafkaError(f"topics not visible yet: {missing}")   # retried by ensure_topics
    if wrong:
        detail = ", ".join(f"{n}: wanted {w}, has {h}" for n, (w, h) in sorted(wrong.items()))
        raise TopicSetupError(f"existing topics have other partition counts ({detail}); "
                              "delete them or change the topic registry")

"""deploy/acls.toml grants each service exactly the topics its code consumes and publishes
(derived from the services' own brokers, as the event catalogue builds them)."""
from __future__ import annotations

from typing import Any

import pytest

from contracts.topics import (
    DEAD_LETTER_TOPIC,
    DICE_EVENTS_TOPIC,
    HEALTH_TOPIC,
    TABLE_EVENTS_TOPIC,
    TABLE_SNAPSHOTS_TOPIC,
    TOPICS,
    VISION_CHECKS_TOPIC,
    WHEEL_EVENTS_TOPIC,
)
from deploy.acls import commands, load
from services.catalogue import service_brokers

# What a service reads without a consumer group: its aggregate store's log and snapshots
# (services/table/bootstrap.py, services/vision/service/bootstrap.py)
REBUILD_READS = {"table-service": {TABLE_EVENTS_TOPIC.name, TABLE_SNAPSHOTS_TOPIC.name},
                 "vision-service": {VISION_CHECKS_TOPIC.name}, "projector": set(),
                 "wheel-service": {WHEEL_EVENTS_TOPIC.name},
                 "dice-service": {DICE_EVENTS_TOPIC.name}}


def actual() -> dict[str, dict[str, set[str]]]:
    out = {}
    for broker in service_brokers():
        subs: list[Any] = list(broker.subscribers)
        consume = {t.name for s in subs for t in s.topics}
        produce = {getattr(p, "topic") for p in broker.publishers}  # noqa: B009 (untyped)
        if subs:  # every consumer may dead-letter; every service reports its health
            produce |= {DEAD_LETTER_TOPIC.name, HEALTH_TOPIC.name}
        out[broker.config.client_id] = {
            "consume": consume, "produce": produce,
            "groups": {s.group_id for s in subs if s.group_id is not None}}
    return out


def test_every_service_of_the_catalogue_has_its_acls():
    assert set(actual()) <= set(load())


@pytest.mark.parametrize("service", ["table-service", "projector", "vision-service",
                                     "floor-simulator", "wheel-service", "dice-service"])
def test_each_service_is_granted_what_it_consumes_and_publishes_no_more(service):
    grants, code = load(), actual()
    grant, used = grants[service], code[service]
    assert set(grant.consume) == used["consume"]
    assert set(grant.produce) == used["produce"]
    assert set(grant.groups) == used["groups"]
    if service in REBUILD_READS:
        assert set(grant.read) == REBUILD_READS[service]


def test_only_administrators_and_the_demo_simulator_write_the_keys_topic():
    writers = {name for name, g in load().items() if "floor.identity.keys" in g.produce}
    assert writers == {"casino-keys", "floor-simulator"}


def test_every_topic_named_exists_and_the_script_grants_each_line():
    grants = load()
    for g in grants.values():
        assert (g.consume | g.read | g.produce) <= set(TOPICS), g.principal
    script = commands(grants, "kafka:9093", "admin.properties")
    assert ("kafka-acls.sh --bootstrap-server kafka:9093 --command-config admin.properties --add "
            "--allow-principal User:table-service --operation Write --topic floor.table.events"
            ) in script
    assert any(line.endswith("User:projector --operation Read --group projector-checks")
               for line in script)
    assert not any("User:table-service --operation Write --topic floor.identity.keys" in line
                   for line in script)

"""Topic registry: every topic's name, partition count, partition key and the types it carries.

Table streams are keyed by table id, so one table's messages stay in one partition, in order.

Every topic has a message size limit chosen for what it carries (`max_message_bytes`: a
record's key and value). The clients enforce it — the runtime's publish and `casino send`
refuse a bigger message naming the topic and the limit, and the producers' request size and
the consumers' fetch sizes are derived from it — and the topics are created with it as the
broker's `max.message.bytes` (plus the record batch's own overhead). The embedded Tansu 0.6
broker accepts that setting but does not enforce it (measured: a 12 MB record was stored on a
topic created with 1,000 bytes), so on it the clients' checks are the limit.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from kafka.partitioner.default import murmur2

from contracts.audit import AUDIT_EVENTS
from contracts.deadletter import DeadLetter
from contracts.devices import (
    DICE_COMMANDS,
    DICE_EVENTS,
    WHEEL_COMMANDS,
    WHEEL_EVENTS,
)
from contracts.envelope import Command, Event, Message, type_field, type_of
from contracts.health import ServiceHealth
from contracts.identity import IDENTITY_EVENTS
from contracts.payouts import PAYOUT_EVENTS
from contracts.snapshots import AggregateSnapshot, Checkpoint
from contracts.table import TABLE_COMMANDS, TABLE_EVENTS
from contracts.vision import CHECK_COMMANDS, CHECK_EVENTS, FRAME_EVENTS

# The messages published by key (`.key`): to that key's partition of their topic. A dead letter
# is published to the dead-letter topic by its source topic instead.
Keyed = Event | Command | AggregateSnapshot | Checkpoint

KiB = 1024
MiB = 1024 * KiB
# What a Kafka record batch adds around one record (batch header, record header, varints):
# the broker's max.message.bytes limits the batch, the clients' check limits key + value.
BATCH_OVERHEAD = 1 * KiB
DAY_MS = 24 * 60 * 60 * 1000


@dataclass(frozen=True, eq=False)
class TopicSpec:
    name: str
    partitions: int
    key: str                          # what the partition key is
    carries: tuple[type[Message], ...]
    description: str
    max_message_bytes: int = 64 * KiB  # key + value of one record; see the module docstring
    # How long the broker keeps a record; None keeps the broker's default. Logs that are a
    # source of truth (commands, events, keys, audit) are never given one.
    retention_ms: int | None = None

    @cached_property
    def type_names(self) -> tuple[str, ...]:
        return tuple(_name(m) for m in self.carries)

    @property
    def broker_config(self) -> dict[str, str]:
        """The topic configuration this topic is created with."""
        config = {"max.message.bytes": str(self.max_message_bytes + BATCH_OVERHEAD)}
        if self.retention_ms is not None:
            config["retention.ms"] = str(self.retention_ms)
        return config


def _name(model: type[Message]) -> str:
    return str(model.model_fields[type_field(model)].default)


TABLE_COMMANDS_TOPIC = TopicSpec(
    "floor.table.commands", 3, "table id", TABLE_COMMANDS,
    "Requests from dealer terminals and the simulator to table sessions.",
    # a command is an actor, ids and a small payload (about 500 bytes): 64 KiB is far above
    # any real one and refuses a runaway field where it enters
    max_message_bytes=64 * KiB)
TABLE_EVENTS_TOPIC = TopicSpec(
    "floor.table.events", 3, "table id", TABLE_EVENTS + PAYOUT_EVENTS,
    "What happened at each table: rounds, bets, results, settlements, payout holds and "
    "corrections. The table's log.",
    # one event per bet, round or hold (a PayoutsHeld lists the round's payouts): room to spare
    max_message_bytes=256 * KiB)
VISION_FRAMES_TOPIC = TopicSpec(
    "floor.vision.frames", 3, "camera id", FRAME_EVENTS,
    "Frames stored by the camera gateways, and camera status changes.",
    # a frame event names where the image is (the evidence store), never the pixels
    max_message_bytes=16 * KiB)
VISION_CHECKS_TOPIC = TopicSpec(
    "floor.vision.checks", 3, "table id (partition_key; the aggregate is the round check)",
    CHECK_EVENTS,
    "What the readers saw and the check of each dealer result against it (payout holds). "
    "Keyed by table id, like the table topics, so a table's owner reads its checks from the "
    "partition it owns.",
    max_message_bytes=256 * KiB)
VISION_COMMANDS_TOPIC = TopicSpec(
    "floor.vision.commands", 3, "round check id (the round's correlation id)", CHECK_COMMANDS,
    "Requests from the surveillance room about round checks: resolving a verification.",
    max_message_bytes=64 * KiB)
TABLE_SNAPSHOTS_TOPIC = TopicSpec(
    "floor.table.snapshots", 3, "table id (checkpoints: their partition)",
    (AggregateSnapshot, Checkpoint),
    "Snapshots of the table sessions, one block per partition of floor.table.events, so a "
    "table service restarts from a recent state. A cache of the log, never a source of truth.",
    # a table's snapshot keeps up to 100 rounds and 10,000 handled message ids (about 1 MB)
    max_message_bytes=8 * MiB)
WHEEL_COMMANDS_TOPIC = TopicSpec(
    "floor.wheel.commands", 3, "wheel serial", WHEEL_COMMANDS,
    "Requests about roulette wheels: registering, mounting at a table, opening, inspecting, "
    "sealing, and every spin the dealer terminal reports.")
WHEEL_EVENTS_TOPIC = TopicSpec(
    "floor.wheel.events", 3, "wheel serial", WHEEL_EVENTS,
    "Each wheel's log: its tables, sessions, seals, valid and void spins, outcome alerts and "
    "who acknowledged them.")
DICE_COMMANDS_TOPIC = TopicSpec(
    "floor.dice.commands", 3, "dice set serial", DICE_COMMANDS,
    "Requests about dice sets: issuing, inspecting, the shooter's choice, incidents, changes "
    "and every roll.")
DICE_EVENTS_TOPIC = TopicSpec(
    "floor.dice.events", 3, "dice set serial", DICE_EVENTS,
    "Each dice set's log: its table, dice in play and reserve, incidents, valid and void rolls, "
    "outcome alerts and who acknowledged them.")
IDENTITY_KEYS_TOPIC = TopicSpec(
    "floor.identity.keys", 1, "key id", IDENTITY_EVENTS,
    "Keys registered to and revoked from principals (terminals, employees, services), each "
    "signed by an administrator key. Every service folds it to check command signatures. "
    "One partition: the order of registrations and revocations is the log's.")
DEAD_LETTER_TOPIC = TopicSpec(
    "floor.deadletter", 1, "source topic", (DeadLetter,),
    "Messages a consumer could not use, with the reason and the original bytes.",
    # DeadLetter.keeping keeps at most KEEP_WHOLE original bytes (as base64, 4/3 of them), a
    # 4,000-character reason and a 200-character key: 128 KiB always fits one
    max_message_bytes=128 * KiB)

HEALTH_TOPIC = TopicSpec(
    "floor.health", 1, "service name", (ServiceHealth,),
    "Every service instance's periodic health report (stuck or lagging consumers), for the "
    "floor dashboard; only the latest per instance matters.",
    # a report every few seconds per instance would grow without end; a day covers any
    # stale-instance question the dashboard asks (it shows the latest report per instance)
    retention_ms=DAY_MS)
AUDIT_TOPIC = TopicSpec(
    "floor.audit", 1, "table id", AUDIT_EVENTS,
    "Supervisors' resolutions of forked or broken event streams (StreamForkResolved).")

TOPICS: dict[str, TopicSpec] = {t.name: t for t in (
    TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC, VISION_FRAMES_TOPIC, VISION_CHECKS_TOPIC,
    VISION_COMMANDS_TOPIC, TABLE_SNAPSHOTS_TOPIC, DEAD_LETTER_TOPIC, WHEEL_COMMANDS_TOPIC,
    WHEEL_EVENTS_TOPIC, DICE_COMMANDS_TOPIC, DICE_EVENTS_TOPIC, HEALTH_TOPIC, AUDIT_TOPIC,
    IDENTITY_KEYS_TOPIC)}


_BY_TYPE: dict[str, TopicSpec] = {name: t for t in TOPICS.values() for name in t.type_names}


def topic_for(message: Message) -> TopicSpec:
    try:
        return _BY_TYPE[type_of(message)]
    except KeyError:
        raise LookupError(f"no topic carries {type_of(message)}") from None


def partition_for(key: str, partitions: int) -> int:
    """The partition a key lands in: murmur2, as the Java client and aiokafka compute it, so a
    table's commands, events, checks and snapshots share one partition number."""
    return (murmur2(key.encode()) & 0x7FFFFFFF) % partitions


def partition_counts() -> dict[str, int]:
    return {t.name: t.partitions for t in TOPICS.values()}


def largest_message_bytes() -> int:
    """The largest message any topic takes (a producer's request size must allow it)."""
    return max(t.max_message_bytes for t in TOPICS.values())

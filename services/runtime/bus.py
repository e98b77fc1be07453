"""A service's connection to Kafka (through FastStream): publish messages to their registered
topics, consume topics in batches and hand each message to the service's handler for its type.

Consumption is at-least-once: offsets are committed after a batch is handled and its events
published, so a crash redelivers — handlers must be idempotent (aggregate.has_handled, the
projector's sequence guard). A message that cannot be used (undecodable bytes, unknown type,
invalid payload, a broken aggregate, a handler error) goes to the dead-letter topic with the
reason and its original bytes, and the consumer keeps going; a broker error fails the batch,
which is redelivered after a pause.
"""
from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, TypeVar, Union

from aiokafka import AIOKafkaConsumer, ConsumerRebalanceListener, ConsumerRecord, TopicPartition
from aiokafka.coordinator.assignors.range import RangePartitionAssignor
from aiokafka.errors import KafkaError
from aiokafka.structs import RecordMetadata
from faststream import AckPolicy
from faststream.kafka import KafkaBroker, KafkaMessage

from contracts import DecodeError, TopicSpec, decode, encode, topic_for
from contracts.deadletter import DeadLetter, DeadLetterCode
from contracts.envelope import Command, Message, type_of
from contracts.permissions import authorize
from contracts.topics import DEAD_LETTER_TOPIC, Keyed, partition_for
from services.runtime.identity import Identity, carries_commands, service_signer
from services.runtime.metrics import ServiceMetrics
from services.runtime.replay import LogReader
from services.runtime.settings import Settings
from services.runtime.store import AggregateBroken, BatchContext

if TYPE_CHECKING:
    from services.runtime.store import AggregateStore

log = logging.getLogger(__name__)
D = TypeVar("D")
RETRY_PAUSE_SECONDS = 1.0
# A batch that fails this many times from the same offset, for a reason that is not transient,
# is tried a record at a time and the records that fail alone are dead-lettered as poison.
POISON_AFTER = 3
KEY_KEPT, REASON_KEPT = 200, 4_000  # a dead letter always fits (contracts/deadletter.py)
TRANSIENT: tuple[type[BaseException], ...] = (KafkaError, OSError, asyncio.TimeoutError)
# /health turns unhealthy when a consumer's batch failed this many times in a row (it is stuck:
# nothing after that batch is handled) or a partition lags this many messages behind.
STUCK_AFTER_FAILURES = 3
LAG_LIMIT = 10_000


class MessageTooLarge(ValueError):
    """A message over its topic's size limit (contracts/topics.py): it is never sent. Raised by
    publish before anything of the call is sent; a consumer whose handler produced it
    dead-letters the message that caused it (the batch's poison path)."""

    def __init__(self, message: Keyed, topic: TopicSpec, size: int) -> None:
        super().__init__(f"{type_of(message)} for {message.key!r} is {size} bytes, over the "
                         f"{topic.max_message_bytes}-byte limit of {topic.name}")
        self.topic, self.size = topic, size


def checked_size(message: Keyed, topic: TopicSpec) -> bytes:
    """The message's bytes; MessageTooLarge when key and value are over `topic`'s limit."""
    value = encode(message)
    size = len(value) + len(message.key.encode())
    if size > topic.max_message_bytes:
        raise MessageTooLarge(message, topic, size)
    return value


class Rejected(Exception):
    """Raised by a handler for a message it must not apply; the message is dead-lettered."""

    def __init__(self, code: DeadLetterCode, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


# A handler is a plain function of the message and the batch's context (a unit of work, a
# projection transaction); it may be a coroutine function.
Handler = Callable[[Any, Any], Awaitable[None] | None]
Handlers = Mapping[type[Message], Handler]


def bind(handlers: Mapping[type[Message], Callable[[Any, Any, D], Any]], deps: D) -> Handlers:
    """A handler map whose functions also take the service's dependencies (`deps`, built by
    its bootstrap), as the bus calls them: (message, context)."""
    def bound(fn: Callable[[Any, Any, D], Any]) -> Handler:
        return lambda message, ctx: fn(message, ctx, deps)
    return {kind: bound(fn) for kind, fn in handlers.items()}


class Bus:
    def __init__(self, settings: Settings, service: str) -> None:
        self.service = service
        self.settings = settings
        self.stats: Counter[str] = Counter()
        self.metrics = ServiceMetrics(service)
        self.failing: Counter[str] = Counter()           # consumer -> batches failed in a row
        self.lags: dict[tuple[str, int], int] = {}       # (topic, partition) -> messages behind
        self.tries: Counter[tuple[str, int, int]] = Counter()  # failed batches by first offset
        self.consumers: dict[str, list[str]] = {}         # consumer -> its topics
        self.metrics.before_render.append(self._health_gauges)
        # Checks every command's signature before its handler (services/runtime/identity.py);
        # made by the first consumer of commands.
        self.identity: Identity | None = None
        # A service that issues commands signs them with its own key, when it has one.
        self.signer = service_signer(settings, service)
        self.broker = KafkaBroker(settings.bootstrap, client_id=service,
                                  logger=logging.getLogger("faststream"),
                                  **settings.producer_options(), **settings.broker_options())

    async def stop(self) -> None:
        """Stop the broker's consumers and producer, and the key ring's probe."""
        await self.broker.stop()
        if self.identity is not None:
            await self.identity.close()

    # -- publishing -------------------------------------------------------------------------
    async def publish(self, messages: Sequence[Keyed]) -> list[RecordMetadata]:
        """Publish in order to each message's topic and to the partition of its key, and wait
        for every acknowledgement."""
        send = self._send()
        signed = [self.signer.sign(m) if self.signer is not None and isinstance(m, Command)
                  and m.signature is None else m for m in messages]
        sized = [(m, topic, checked_size(m, topic)) for m in signed
                 for topic in (topic_for(m),)]   # all checked before any is sent
        pending = []
        for m, topic, value in sized:
            pending.append(await send(topic.name, value, m.key.encode(),
                                      partition_for(m.key, topic.partitions)))
        metas = list(await asyncio.gather(*pending))
        self.stats["published"] += len(messages)
        for topic_name, n in Counter(meta.topic for meta in metas).items():
            self.metrics.published(topic_name, n)
        return metas

    async def publish_records(self, records: Sequence[Keyed], topic: TopicSpec,
                              partition: int) -> list[RecordMetadata]:
        """Publish records (snapshots) to one chosen partition, in order."""
        send = self._send()
        values = [checked_size(r, topic) for r in records]
        pending = [await send(topic.name, value, r.key.encode(), partition)
                   for r, value in zip(records, values)]
        return list(await asyncio.gather(*pending))

    def reader(self) -> LogReader:
        """A reader of this broker's log (how stores rebuild)."""
        return LogReader(self.settings.bootstrap)

    def _send(self) -> Callable[[str, bytes, bytes, int], Awaitable[asyncio.Future[Any]]]:
        """How to hand one record to the producer; it returns the future of its acknowledgement.

        Straight to the aiokafka producer FastStream connected: its accumulator keeps each
        partition's records in the order given and groups them into a few produce requests.
        FastStream's own publish builds a command, runs its middlewares and adds headers per
        record (a correlation id, an empty content type) that no consumer here reads — a
        fifth of the table service's time in the floor benchmark. Without a connected aiokafka
        producer (another FastStream version, a test broker), FastStream's publish is used."""
        state = getattr(getattr(self.broker.config, "producer", None), "_producer", None)
        producer = getattr(state, "producer", None)
        if producer is not None and hasattr(producer, "send"):
            async def direct(topic: str, value: bytes, key: bytes,
                             partition: int) -> asyncio.Future[Any]:
                return await producer.send(topic, value, key=key, partition=partition)
            return direct

        async def through_faststream(topic: str, value: bytes, key: bytes,
                                     partition: int) -> asyncio.Future[Any]:
            return await self.broker.publish(value, topic=topic, key=key, partition=partition,
                                             no_confirm=True)
        return through_faststream

    def declare_publisher(self, topic: TopicSpec, description: str = "") -> None:
        """Declare what this service publishes on `topic` (for the AsyncAPI document)."""
        self.broker.publisher(topic.name, title=f"{self.service}:{topic.name}",
                              description=description or topic.description,
                              schema=Union[topic.carries])  # noqa: UP007  (a tuple of classes)

    # -- consuming --------------------------------------------------------------------------
    def consume(self, topics: Sequence[TopicSpec], group_id: str, handlers: Handlers, *,
                context: Callable[[], AbstractAsyncContextManager[Any]] | None = None,
                owner: AggregateStore[Any] | None = None, description: str = "",
                max_records: int = 500,
                transient: tuple[type[BaseException], ...] = ()) -> None:
        """Consume `topics` in batches, each inside `context()` (a unit of work, a database
        transaction), whose exit publishes or commits; offsets are committed after it. A batch
        failing with a `transient` error (besides the broker's and the OS's) is retried as long
        as it takes; one failing POISON_AFTER times otherwise has its poison records
        dead-lettered. With
        `owner`, the consumer group's partitions decide which aggregates this instance holds:
        the topics must be co-partitioned by the aggregate's key (same count, same key)."""
        names = [t.name for t in topics]
        consumer_name = "+".join(names)
        self.consumers[consumer_name] = names
        carried = {n for t in topics for n in t.type_names}
        ownership: dict[str, Any] = {}
        guarded = carries_commands(list(handlers))
        if guarded and self.identity is None:
            self.identity = Identity(self.settings, self.service)
            self.identity.follow(self.broker, self.settings.consumer_options())
        if owner is not None:
            ownership = {"listener": _Ownership(owner, names[0]),
                         "partition_assignment_strategy": (RangePartitionAssignor,)}

        @self.broker.subscriber(*names, batch=True, group_id=group_id,
                                auto_offset_reset="earliest", max_records=max_records,
                                ack_policy=AckPolicy.NACK_ON_ERROR,
                                title=f"{self.service}:{'+'.join(names)}",
                                description=description or f"{self.service} consumes "
                                f"{', '.join(sorted(t.__name__ for t in handlers))}",
                                # join quickly when the service restarts (broker.md): the
                                # broker waits up to these for the old members to rejoin
                                session_timeout_ms=6_000, rebalance_timeout_ms=3_000,
                                heartbeat_interval_ms=1_000, decoder=_records_only,
                                **ownership, **self.settings.consumer_options(topics))
        async def on_batch(batch: KafkaMessage) -> None:
            records = batch.raw_message
            records = records if isinstance(records, (tuple, list)) else (records,)
            started = time.perf_counter()
            try:
                if guarded and self.identity is not None:
                    await self.identity.catch_up()  # judge commands with every key event so far
                reader: AIOKafkaConsumer = batch.consumer
                assigned = {tp.partition for tp in reader.assignment()
                            if tp.topic in names} if owner is not None else set()
                await self._run(records, context, carried, handlers, owner, assigned)
            except Exception as err:
                if isinstance(err, (*TRANSIENT, *transient)) or not self._is_poison(records):
                    # Not committed, so the batch comes again; wait so a broken database or
                    # an unreachable broker is not hammered in a tight loop.
                    self.stats["batch_failures"] += 1
                    self.failing[consumer_name] += 1
                    self.metrics.batch_failed(consumer_name)
                    log.exception("batch failed; it will be redelivered",
                                  extra={"topics": names})
                    await asyncio.sleep(RETRY_PAUSE_SECONDS)
                    raise
                await self._one_by_one(records, context, carried, handlers, transient)
            self.failing[consumer_name] = 0
            self.stats["batches"] += 1
            self.metrics.batch(consumer_name, time.perf_counter() - started)
            self._note_lag(batch, records)

    async def _run(self, records: Sequence[ConsumerRecord],
                   context: Callable[[], AbstractAsyncContextManager[Any]] | None,
                   carried: set[str], handlers: Handlers,
                   owner: AggregateStore[Any] | None = None,
                   assigned: set[int] | None = None) -> None:
        async with (context() if context else _no_context()) as ctx:
            for record in await _owned_records(records, owner, assigned or set()):
                await self._handle(record, carried, handlers, ctx)

    def _is_poison(self, records: Sequence[ConsumerRecord]) -> bool:
        """True when the batch starting at this offset has now failed POISON_AFTER times for
        a reason that is not the broker or the disk being away."""
        first = records[0]
        key = (first.topic, first.partition, first.offset)
        self.tries[key] += 1
        if self.tries[key] < POISON_AFTER:
            return False
        del self.tries[key]
        return True

    async def _one_by_one(self, records: Sequence[ConsumerRecord],
                          context: Callable[[], AbstractAsyncContextManager[Any]] | None,
                          carried: set[str], handlers: Handlers,
                          transient: tuple[type[BaseException], ...]) -> None:
        """A batch that keeps failing is tried a record at a time, each in its own context: a
        record that fails alone can never succeed (it breaks a constraint, say) and goes to
        the dead-letter topic; the others are applied, and the partition moves on."""
        log.error("batch failed %d times; trying its records one at a time", POISON_AFTER,
                  extra={"topic": records[0].topic, "partition": records[0].partition,
                         "offset": records[0].offset})
        for record in records:
            try:
                await self._run([record], context, carried, handlers)
            except (*TRANSIENT, *transient):
                raise
            except Exception as err:
                self.stats["poison"] += 1
                log.error("poison message dead-lettered", extra={
                    "topic": record.topic, "partition": record.partition,
                    "offset": record.offset, "error": f"{type(err).__name__}: {err}"})
                await self.dead_letter(record, "poison", f"{type(err).__name__}: {err} (its "
                                       f"batch failed {POISON_AFTER} times, and it fails alone)")

    async def _handle(self, record: ConsumerRecord, carried: set[str], handlers: Handlers,
                      ctx: Any) -> None:
        self.stats["consumed"] += 1
        try:
            message = decode(record.value)
            kind = type_of(message)
            if kind not in carried:
                raise DecodeError("unknown_type", f"{kind} does not belong on {record.topic}")
            handler = handlers.get(type(message))
            if handler is None:
                self.stats["not_ours"] += 1  # on the topic, but for another service
                return
            if isinstance(message, Command):
                if self.identity is not None:  # the signature first, then the permission
                    message = self.identity.authenticate(record.value, message)
                self._log_if_forbidden(message)
            done = handler(message, ctx)
            if inspect.isawaitable(done):
                await done
            ctx.keep()
            self.stats["handled"] += 1
            self.metrics.handled(record.topic, kind)
        except (DecodeError, Rejected) as err:
            await ctx.discard()
            await self.dead_letter(record, err.code, err.reason)
        except AggregateBroken as err:
            await ctx.discard()
            await self.dead_letter(record, "unknown_aggregate", str(err))
        except KafkaError:
            raise  # the broker is unreachable: do not commit, the batch will be redelivered
        except Exception as err:  # a bug must not stop the floor: keep the message, go on
            log.exception("handler failed", extra={"topic": record.topic, "offset": record.offset})
            await ctx.discard()
            await self.dead_letter(record, "handler_error", f"{type(err).__name__}: {err}")

    def _log_if_forbidden(self, command: Command) -> None:
        """Say so when a command's actor may not issue it. The handler still gets it: the
        aggregate records the refusal (CommandRejected FORBIDDEN) in its log for audit."""
        forbidden = authorize(command)
        if forbidden is not None:
            self.stats["commands.forbidden"] += 1
            self.metrics.refused(type_of(command), "FORBIDDEN")
            log.warning("command refused: forbidden", extra={
                "command_type": type_of(command), "command_id": command.command_id,
                "target_id": command.target_id, "field": forbidden[0], "reason": forbidden[1]})

    async def dead_letter(self, record: ConsumerRecord, code: DeadLetterCode,
                          reason: str) -> None:
        key = record.key.decode(errors="replace")[:KEY_KEPT] if record.key else None
        letter = DeadLetter.keeping(
            record.value or b"", service=self.service, source_topic=record.topic,
            partition=record.partition, offset=record.offset, key=key, code=code,
            reason=reason[:REASON_KEPT])
        await self.broker.publish(encode(letter), topic=DEAD_LETTER_TOPIC.name,
                                  key=record.topic.encode())
        self.stats[f"dead_letter.{code}"] += 1
        self.metrics.dead_lettered(record.topic, code)
        log.warning("dead-lettered", extra={"code": code, "reason": reason,
                                             "source_topic": record.topic, "offset": record.offset})

    def _note_lag(self, batch: KafkaMessage, records: Sequence[ConsumerRecord]) -> None:
        """Messages still behind the high watermark, per partition of this batch."""
        last: dict[tuple[str, int], int] = {}
        for r in records:
            last[(r.topic, r.partition)] = max(last.get((r.topic, r.partition), -1), r.offset)
        # aiokafka's consumer; faststream's ConsumerProtocol type does not declare highwater()
        consumer: AIOKafkaConsumer = batch.consumer
        for (topic, partition), offset in last.items():
            high = consumer.highwater(TopicPartition(topic, partition))
            if high is not None:
                self.lags[(topic, partition)] = max(0, high - offset - 1)
                self.metrics.lag(topic, partition, self.lags[(topic, partition)])

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Unhealthy when a consumer is stuck (its batch keeps failing) or lags too far."""
        stuck = sorted(c for c, n in self.failing.items() if n >= STUCK_AFTER_FAILURES)
        behind = {f"{t}[{p}]": n for (t, p), n in sorted(self.lags.items()) if n > LAG_LIMIT}
        return not stuck and not behind, {"service": self.service, "stuck_consumers": stuck,
                                           "lagging_partitions": behind}

    def _health_gauges(self) -> None:
        """Per consumer, what /health judges by (set when /metrics is scraped)."""
        for consumer, topics in self.consumers.items():
            lag = max((n for (t, _p), n in self.lags.items() if t in topics), default=0)
            self.metrics.consumer_health(consumer, failing=self.failing[consumer],
                                         stuck=self.failing[consumer] >= STUCK_AFTER_FAILURES,
                                         lag=lag, lagging=lag > LAG_LIMIT)

    def status(self) -> dict[str, Any]:
        return {"service": self.service, "bootstrap": self.settings.bootstrap, **self.stats,
                "lag": {f"{t}[{p}]": n for (t, p), n in sorted(self.lags.items())},
                **({"identity": self.identity.status()} if self.identity else {})}


async def _records_only(_message: Any) -> None:
    """The subscribers' decoder. FastStream's own wraps every record of a batch in a message
    object and json-decodes its body, which the bus never reads: it decodes the raw records
    itself (`decode`), so that work is skipped."""
    return None


class _no_context:
    """The batch context of a consumer that needs none."""

    async def __aenter__(self) -> BatchContext:
        return BatchContext()

    async def __aexit__(self, *_exc: object) -> None:
        return None


async def _owned_records(records: Sequence[ConsumerRecord], owner: AggregateStore[Any] | None,
                         assigned: set[int]) -> Sequence[ConsumerRecord]:
    """The records of partitions this instance holds, decided inside the unit of work (the
    store's lock held), where a rebalance cannot move them meanwhile. Two races of a rebalance
    meet here (seen in tests/e2e/test_two_table_services after a kill -9 of the other instance,
    as commands dead-lettered for tables "never opened"):
    - records of a partition newly assigned arrive before the listener has loaded it: the
      store adopts the partition first;
    - a batch fetched before a rebalance waits for the lock while its partition is given up:
      its records are left, uncommitted, to the partition's next owner."""
    if owner is None:
        return records
    missing = {r.partition for r in records} - owner.owned
    if missing & assigned:
        log.info("records before the rebalance callback: their partitions loaded first",
                 extra={"partitions": sorted(missing & assigned)})
        await owner.adopt(missing & assigned)
    kept = [r for r in records if r.partition in owner.owned]
    if len(kept) < len(records):
        log.info("records of partitions given up during the batch left to their next owner",
                 extra={"left": len(records) - len(kept),
                        "partitions": sorted({r.partition for r in records} - owner.owned)})
    return kept


class _Ownership(ConsumerRebalanceListener):
    """Consumer-group rebalances decide which partitions' aggregates this instance holds."""

    def __init__(self, store: AggregateStore[Any], topic: str) -> None:
        self.store, self.topic = store, topic

    async def on_partitions_revoked(self, revoked: list[TopicPartition]) -> None:
        await self.store.release({tp.partition for tp in revoked if tp.topic == self.topic})

    async def on_partitions_assigned(self, assigned: list[TopicPartition]) -> None:
        await self.store.own({tp.partition for tp in assigned if tp.topic == self.topic})

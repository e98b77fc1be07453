"""A service's connection to Kafka (through FastStream): publish messages to their registered
topics, consume topics in batches with decoding, dead-lettering and counters.

Consumption is at-least-once: offsets are committed after a batch is handled, so a crash
redelivers — handlers must be idempotent (see aggregate.has_handled and sequence.SequenceGuard).
A message that cannot be used (undecodable bytes, unknown type, invalid payload, a sequence
gap, a handler error) goes to the dead-letter topic with the reason and its original bytes, and
the consumer keeps going.
"""
from __future__ import annotations

import asyncio
import logging
from collections import Counter
import contextlib
from typing import Any, AsyncContextManager, Awaitable, Callable, Sequence, Union

from aiokafka import ConsumerRecord
from aiokafka.errors import KafkaError
from faststream import AckPolicy
from faststream.kafka import KafkaBroker, KafkaMessage

from contracts import DecodeError, TopicSpec, decode, encode, topic_for
from contracts.deadletter import DeadLetter
from contracts.envelope import Message, type_of
from contracts.topics import DEAD_LETTER_TOPIC
from services.runtime.settings import Settings

log = logging.getLogger(__name__)
RETRY_PAUSE_SECONDS = 1.0


class Rejected(Exception):
    """Raised by a handler for a message it must not apply; the message is dead-lettered."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


Handler = Callable[[Message], Awaitable[None]]


class Bus:
    def __init__(self, settings: Settings, service: str) -> None:
        self.service = service
        self.settings = settings
        self.stats: Counter[str] = Counter()
        self.broker = KafkaBroker(settings.bootstrap, client_id=service,
                                  logger=logging.getLogger("faststream"),
                                  **settings.producer_options())

    # -- publishing -------------------------------------------------------------------------
    async def publish(self, messages: Sequence[Message]) -> None:
        """Publish in order, keyed by aggregate/target id, and wait for every acknowledgement."""
        pending = [await self.broker.publish(encode(m), topic=topic_for(m).name,
                                             key=m.key.encode(), no_confirm=True)
                   for m in messages]
        await asyncio.gather(*pending)
        self.stats["published"] += len(messages)

    def declare_publisher(self, topic: TopicSpec, description: str = "") -> None:
        """Declare what this service publishes on `topic` (for the AsyncAPI document)."""
        self.broker.publisher(topic.name, title=f"{self.service}:{topic.name}",
                              description=description or topic.description,
                              schema=Union[topic.carries])

    # -- consuming --------------------------------------------------------------------------
    def consume(self, topic: TopicSpec, group_id: str, handler: Handler, *,
                description: str = "", max_records: int = 500,
                around_batch: Callable[[], AsyncContextManager[Any]] | None = None) -> None:
        """Consume `topic` in batches; `around_batch` wraps each batch (e.g. one database
        transaction per batch), and the offsets are committed only after it exits cleanly."""
        wrap = around_batch or contextlib.nullcontext

        @self.broker.subscriber(topic.name, batch=True, group_id=group_id,
                                auto_offset_reset="earliest", max_records=max_records,
                                ack_policy=AckPolicy.NACK_ON_ERROR, title=f"{self.service}:{topic.name}",
                                description=description or f"{self.service} consumes "
                                f"{', '.join(topic.type_names)}",
                                # join quickly when the service restarts (broker.md): the
                                # broker waits up to these for the old members to rejoin
                                session_timeout_ms=6_000, rebalance_timeout_ms=3_000,
                                heartbeat_interval_ms=1_000,
                                **self.settings.consumer_options())
        async def on_batch(batch: KafkaMessage) -> None:
            records = batch.raw_message
            try:
                async with wrap():
                    for record in records if isinstance(records, (tuple, list)) else (records,):
                        await self._handle(topic, record, handler)
            except Exception:
                # Not committed, so the batch comes again; wait so a broken database or an
                # unreachable broker is not hammered in a tight loop.
                self.stats["batch_failures"] += 1
                log.exception("batch failed; it will be redelivered", extra={"topic": topic.name})
                await asyncio.sleep(RETRY_PAUSE_SECONDS)
                raise

    async def _handle(self, topic: TopicSpec, record: ConsumerRecord, handler: Handler) -> None:
        self.stats["consumed"] += 1
        try:
            message = decode(record.value)
            if type_of(message) not in topic.type_names:
                raise DecodeError("unknown_type", f"{type_of(message)} does not belong on {topic.name}")
            await handler(message)
            self.stats["handled"] += 1
        except (DecodeError, Rejected) as err:
            await self.dead_letter(record, err.code, err.reason)
        except KafkaError:
            raise  # the broker is unreachable: do not commit, the batch will be redelivered
        except Exception as err:  # a bug must not stop the floor: keep the message, go on
            log.exception("handler failed", extra={"topic": record.topic, "offset": record.offset})
            await self.dead_letter(record, "handler_error", f"{type(err).__name__}: {err}")

    async def dead_letter(self, record: ConsumerRecord, code: str, reason: str) -> None:
        letter = DeadLetter(
            service=self.service, source_topic=record.topic, partition=record.partition,
            offset=record.offset, key=record.key.decode(errors="replace") if record.key else None,
            code=code, reason=reason, original_b64=DeadLetter.encode_original(record.value or b""))
        await self.broker.publish(encode(letter), topic=DEAD_LETTER_TOPIC.name,
                                  key=record.topic.encode())
        self.stats[f"dead_letter.{code}"] += 1
        log.warning("dead-lettered", extra={"code": code, "reason": reason,
                                             "source_topic": record.topic, "offset": record.offset})

    def status(self) -> dict[str, Any]:
        return {"service": self.service, "bootstrap": self.settings.bootstrap, **self.stats}

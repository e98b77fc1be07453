"""`casino events dump|tail --topic NAME`: read a floor topic as typed JSON Lines, like kcat
but through the contracts.

Every record is decoded and validated by the same code the services use, so what this prints
is what a consumer would see. A record that does not decode (or carries a type its topic does
not) is printed as an error object and counted instead of stopping the reader: the point of
looking at a topic is often to find exactly that record.

Reading uses a kafka-python consumer with assign() (no consumer group: nothing is committed,
and Tansu's slow group join is avoided). The end of a partition is the fetch high watermark,
not end_offsets(), which Tansu 0.6 answers wrongly (deploy/local/README.md).
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import click

POLL_MS = 500
SUMMARY_WIDTH = 100
PROBE_SECONDS = 15.0     # how long to wait for a first fetch of every partition
BOOTSTRAP_MS = 10_000    # an unreachable broker must fail the command soon, not after 30 s


# ----- one record ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shown:
    """A record as printed: its place in the log and either the message or the error."""

    partition: int
    offset: int
    key: str | None
    message: Any = None                  # a contracts Message
    error: dict[str, str] | None = None  # {"code", "reason"} when it did not decode

    def to_dict(self) -> dict[str, Any]:
        from contracts.envelope import as_dict

        out: dict[str, Any] = {"partition": self.partition, "offset": self.offset,
                               "key": self.key}
        if self.error is not None:
            out["error"] = self.error
        else:
            out["message"] = as_dict(self.message)
        return out

    def text(self) -> str:
        place = f"p{self.partition}@{self.offset}"
        if self.error is not None:
            return f"{place:<9} ERROR {self.error['code']}: {self.error['reason']}"
        return f"{place:<9} {human_line(self.message)}"


def read_record(topic, record) -> Shown:
    """Decode one consumer record against the contracts and the topic's registered types."""
    from contracts.codec import DecodeError, decode
    from contracts.envelope import type_of

    key = record.key.decode("utf-8", "replace") if record.key is not None else None
    try:
        message = decode(record.value)
    except DecodeError as err:
        return Shown(record.partition, record.offset, key, error={"code": err.code,
                                                                  "reason": err.reason})
    if type(message) not in topic.carries:
        return Shown(record.partition, record.offset, key, error={
            "code": "wrong_topic", "reason": f"{type_of(message)} is not carried by "
            f"{topic.name} (it carries {', '.join(topic.type_names)})"})
    return Shown(record.partition, record.offset, key, message=message)


# ----- the human line --------------------------------------------------------------------------

def human_line(message) -> str:
    """time, type, aggregate/target id, sequence, short payload summary."""
    from contracts.envelope import type_of

    data = message.model_dump(mode="json")
    when = _short_time(data.get("occurred_at") or data.get("issued_at") or data.get("failed_at"))
    target = data.get("aggregate_id") or data.get("target_id") or data.get("source_topic") or "-"
    sequence = f"#{data['sequence']}" if "sequence" in data else "-"
    body = data.get("payload", {k: v for k, v in data.items() if k in DEAD_LETTER_FIELDS})
    return f"{when} {type_of(message):<22} {target:<14} {sequence:<6} {summary(body)}".rstrip()


DEAD_LETTER_FIELDS = ("service", "partition", "offset", "key", "code", "reason")


def _short_time(text: str | None) -> str:
    if not text:
        return "-" * 19
    return datetime.fromisoformat(text).strftime("%Y-%m-%d %H:%M:%S")


def summary(payload: Any, width: int = SUMMARY_WIDTH) -> str:
    """`key=value` pairs of the payload's scalars (money as "10.00 BOB"), cut to `width`."""
    if not isinstance(payload, dict):
        return ""
    parts = [f"{k}={_scalar(v)}" for k, v in payload.items() if _scalar(v) is not None]
    text = " ".join(parts)
    return text if len(text) <= width else text[:width - 1] + "…"


def _scalar(value: Any) -> str | None:
    from contracts.money import format_money

    if isinstance(value, dict) and set(value) == {"amount", "currency"}:   # minor units
        return format_money(value["amount"], value["currency"])
    if isinstance(value, dict) and "kind" in value:   # a bet: kind[numbers] stake
        numbers = ",".join(value.get("numbers") or ())
        stake = _scalar(value.get("stake"))
        return value["kind"] + (f"[{numbers}]" if numbers else "") + (f" {stake}" if stake else "")
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value) if all(not isinstance(v, (dict, list))
                                                      for v in value) else None
    if isinstance(value, dict) or value is None or value == "":
        return None
    return str(value)


# ----- the consumer ----------------------------------------------------------------------------

class TopicReader:
    """All partitions of one topic, assigned (no group), read from a chosen start."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        from kafka import KafkaConsumer, TopicPartition
        from kafka.errors import KafkaError

        from services.runtime.kafka_config import kafka_config
        try:
            self.consumer = KafkaConsumer(bootstrap_servers=bootstrap.split(","),
                                          enable_auto_commit=False, group_id=None,
                                          client_id="casino-events",
                                          bootstrap_timeout_ms=BOOTSTRAP_MS,
                                          **kafka_config().consumer_options())
        except KafkaError as err:
            raise click.ClickException(f"no Kafka at {bootstrap}: {err}") from None
        numbers = self.consumer.partitions_for_topic(topic)
        if not numbers:
            self.consumer.close()
            raise click.ClickException(f"topic {topic} does not exist on {bootstrap} "
                                       "(`casino run` creates the floor's topics)")
        self.partitions = [TopicPartition(topic, p) for p in sorted(numbers)]
        self.consumer.assign(self.partitions)

    def from_beginning(self) -> None:
        self.consumer.seek_to_beginning()

    def from_end(self) -> None:
        """Start after the last record. end_offsets() may point inside the last batch on
        Tansu, so seek there, fetch once, and move on to the high watermark that fetch saw."""
        for tp, offset in self.consumer.end_offsets(self.partitions).items():
            self.consumer.seek(tp, offset)
        for tp, high in self.high_watermarks().items():
            self.consumer.seek(tp, high)

    def high_watermarks(self) -> dict[Any, int]:
        """Fetch until every partition has reported its high watermark (records read on the
        way are dropped: use only before reading)."""
        deadline = time.monotonic() + PROBE_SECONDS
        while True:
            self.consumer.poll(timeout_ms=POLL_MS)
            highs = {tp: self.consumer.highwater(tp) for tp in self.partitions}
            if all(h is not None for h in highs.values()):
                return highs
            if time.monotonic() > deadline:
                raise click.ClickException("the broker did not report the end of every "
                                           f"partition within {PROBE_SECONDS:g} s")

    def records(self, *, until_end: bool) -> Iterator[Any]:
        """Records in arrival order; with until_end, stop at each partition's high watermark
        as first seen (records arriving meanwhile are left for the next dump)."""
        ends: dict[Any, int] = {}
        while True:
            batches = self.consumer.poll(timeout_ms=POLL_MS)
            for tp in self.partitions:
                if tp not in ends and self.consumer.highwater(tp) is not None:
                    ends[tp] = self.consumer.highwater(tp)
            for tp, batch in batches.items():
                end = ends.get(tp, float("inf")) if until_end else float("inf")
                yield from (r for r in batch if r.offset < end)
            if until_end and len(ends) == len(self.partitions) and all(
                    self.consumer.position(tp) >= ends[tp] for tp in self.partitions):
                return

    def close(self) -> None:
        self.consumer.close()


# ----- commands --------------------------------------------------------------------------------

def _topic(_ctx: click.Context, _param: click.Parameter, name: str):
    from contracts.topics import TOPICS
    if name not in TOPICS:
        raise click.BadParameter(f"{name!r} is not a floor topic; known: "
                                 f"{', '.join(sorted(TOPICS))}")
    return TOPICS[name]


def _options(fn: Callable) -> Callable:
    """The options dump and tail share."""
    for option in reversed([
        click.option("--topic", "topic", required=True, callback=_topic, metavar="NAME",
                     help="A registered topic, e.g. floor.table.events."),
        click.option("--key", default=None, metavar="ID",
                     help="Only records with this key (a table id, camera id, ...)."),
        click.option("--json", "as_json", is_flag=True,
                     help="One JSON object per record: partition, offset, key and message "
                          "(or error)."),
        click.option("--limit", type=click.IntRange(1), default=None, metavar="N",
                     help="Stop after N records (after --key)."),
        click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", default=None,
                     metavar="HOST:PORT", help="Kafka bootstrap servers (or "
                     "KAFKA_BOOTSTRAP_SERVERS; default 127.0.0.1:9092)."),
    ]):
        fn = option(fn)
    return fn


@click.group()
def events() -> None:
    """Read a floor topic as JSON Lines, decoded and validated by the contracts.

    \b
    Without --json each record is one line: partition@offset, time, type, aggregate or
    target id, sequence and a short payload summary. A record that does not decode is
    shown as an error (code and reason) and counted: the exit status is then 1.
    """


@events.command()
@_options
@click.option("--from-beginning", is_flag=True,
              help="Accepted for symmetry with tail: a dump always starts at the beginning.")
def dump(topic, key: str | None, as_json: bool, limit: int | None, bootstrap: str | None,
         from_beginning: bool) -> None:
    """Print every record of the topic up to its current end, then exit.

    Exit status: 0, or 1 if a record did not decode (or a Kafka error); 2 usage error.
    """
    reader = _reader(bootstrap, topic.name)
    reader.from_beginning()
    _print(reader, topic, reader.records(until_end=True), key, as_json, limit)


@events.command()
@_options
@click.option("--from-beginning", is_flag=True,
              help="Start at the topic's first record (default: only new records).")
def tail(topic, key: str | None, as_json: bool, limit: int | None, bootstrap: str | None,
         from_beginning: bool) -> None:
    """Follow the topic and print new records until Ctrl-C (or --limit records).

    Exit status: 0, or 1 if a record did not decode; 2 usage error.
    """
    reader = _reader(bootstrap, topic.name)
    try:
        reader.from_beginning() if from_beginning else reader.from_end()
    except KeyboardInterrupt:   # Ctrl-C before the first record: nothing to report
        reader.close()
        return
    click.echo(f"following {topic.name} from the "
               f"{'beginning' if from_beginning else 'end'} (Ctrl-C stops)", err=True)
    _print(reader, topic, reader.records(until_end=False), key, as_json, limit)


def _reader(bootstrap: str | None, name: str) -> TopicReader:
    from services.runtime.settings import Settings
    return TopicReader(Settings.from_env(bootstrap).bootstrap, name)


def _print(reader: TopicReader, topic, records: Iterator[Any], key: str | None, as_json: bool,
           limit: int | None) -> None:
    """Print the records; exit 1 if any did not decode. Ctrl-C ends quietly."""
    shown = failed = 0
    try:
        for record in records:
            if key is not None and (record.key or b"").decode("utf-8", "replace") != key:
                continue
            item = read_record(topic, record)
            failed += item.error is not None
            click.echo(json.dumps(item.to_dict()) if as_json else item.text())
            shown += 1
            if limit is not None and shown >= limit:
                break
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
    if failed:
        click.echo(f"{failed} of {shown} record(s) did not decode", err=True)
        sys.exit(1)

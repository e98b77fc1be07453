"""`casino send FILE|-`: publish commands from JSON Lines, the dealer-terminal interface for
scripts and tests.

Every line is checked against the contracts before anything is sent, and answered on stdout
(one answer per command line, in input order): accepted, with the topic, partition and offset
the broker acknowledged, or refused, with the line number, the field and the reason. A refused
line does not stop the others; it makes the exit status 1. Validation is the services' own
(`contracts`), so a line `casino send` accepts is one the table service can decode. A command
over its topic's message size limit (contracts/topics.py) is refused here, where it enters,
naming its biggest field and the limit; --max-bytes only bounds how much of a line is read.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import click
from pydantic import ValidationError

if TYPE_CHECKING:
    from contracts.envelope import Command

DEFAULT_MAX_BYTES = 1 << 20          # 1 MiB: far above any command, far below a runaway line
ISSUED_BY = "casino-send"
ACK_TIMEOUT_SECONDS = 15.0           # an unreachable broker must fail the line, not hang it
WHOLE_LINE = "(line)"                # the "field" of a refusal that concerns the whole line


@dataclass
class Answer:
    """What `casino send` says about one input line."""

    line: int
    status: str                      # "accepted" or "refused"
    command_type: str | None = None
    command_id: str | None = None
    target_id: str | None = None
    topic: str | None = None
    partition: int | None = None
    offset: int | None = None
    field: str | None = None
    reason: str | None = None
    errors: list[dict[str, str]] = dataclasses.field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, [])}

    def text(self) -> str:
        if self.status == "accepted":
            return (f"line {self.line}: accepted {self.command_type} {self.command_id} "
                    f"(target {self.target_id}) -> {self.topic} partition {self.partition} "
                    f"offset {self.offset}")
        more = "".join(f"; {e['field']}: {e['reason']}" for e in self.errors[1:])
        return f"line {self.line}: refused {self.field}: {self.reason}{more}"


def refused(line: int, field_: str, reason: str,
            errors: list[dict[str, str]] | None = None) -> Answer:
    return Answer(line, "refused", field=field_, reason=reason, errors=errors or [])


# ----- reading ---------------------------------------------------------------------------------

def numbered_lines(stream: BinaryIO, max_bytes: int) -> Iterator[tuple[int, bytes | None, int]]:
    """(line number, content without the newline or None when over max_bytes, size in bytes).
    Reads at most max_bytes + 1 bytes of a line at a time, so a huge line is never held whole."""
    number = 0
    while True:
        chunk = stream.readline(max_bytes + 2)   # + newline, + 1 to notice an overlong line
        if not chunk:
            return
        number += 1
        content = chunk.rstrip(b"\r\n")
        if len(content) <= max_bytes:
            yield number, content, len(content)
            continue
        size = len(chunk.rstrip(b"\n"))
        while not chunk.endswith(b"\n"):         # skip (but count) the rest of the line
            chunk = stream.readline(1 << 16)
            if not chunk:
                break
            size += len(chunk.rstrip(b"\n"))
        yield number, None, size


def is_skipped(content: bytes) -> bool:
    """Blank lines and `#` comments carry no command."""
    stripped = content.strip()
    return not stripped or stripped.startswith(b"#")


# ----- validating ------------------------------------------------------------------------------

def current_versions() -> dict[str, int]:
    """command_type -> the newest schema_version the contracts know."""
    import contracts  # noqa: F401  (registers every message type)
    from contracts.envelope import REGISTRY, Command

    versions: dict[str, int] = {}
    for (name, version), model in REGISTRY.items():
        if issubclass(model, Command):
            versions[name] = max(version, versions.get(name, version))
    return versions


def with_defaults(obj: dict[str, Any], versions: dict[str, int]) -> dict[str, Any]:
    """Fill what a script may leave out: command_id, issued_at, correlation_id (fresh),
    schema_version (the model's current one) and issued_by ("casino-send")."""
    from contracts.envelope import new_id, utcnow

    filled = dict(obj)
    filled.setdefault("command_id", new_id())
    filled.setdefault("issued_at", utcnow().isoformat())
    filled.setdefault("correlation_id", new_id())
    filled.setdefault("issued_by", ISSUED_BY)
    if "schema_version" not in filled and obj.get("command_type") in versions:
        filled["schema_version"] = versions[obj["command_type"]]
    return filled


def validate(number: int, content: bytes, versions: dict[str, int]) -> Command | Answer:
    """The line as a Command, or the refusal Answer saying which field is wrong and why.

    The model lookup and validation are those of contracts.codec.decode (what the table
    service will run), done here so that each pydantic error keeps its own field."""
    from contracts.envelope import REGISTRY, Command

    try:
        obj = json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return refused(number, WHOLE_LINE, f"not JSON: {exc}")
    if not isinstance(obj, dict):
        return refused(number, WHOLE_LINE, "not a JSON object")
    for other in ("event_type", "record_type"):
        if other in obj:
            return refused(number, other, f"{obj[other]!r} is not a command: casino send "
                           "publishes commands (a line needs command_type)")
    name = obj.get("command_type")
    if name is None:
        return refused(number, "command_type", "missing: every line must be a command")
    if not isinstance(name, str) or name not in versions:
        return refused(number, "command_type", f"{name!r} is not a known command; known: "
                       f"{', '.join(sorted(versions))}")
    filled = with_defaults(obj, versions)
    version = filled["schema_version"]
    model = REGISTRY.get((name, version)) if isinstance(version, int) else None
    if model is None or not issubclass(model, Command):
        return refused(number, "schema_version", f"{filled['schema_version']!r} is not a "
                       f"version of {name}; current: {versions[name]}")
    try:
        return model.model_validate(filled)
    except ValidationError as exc:
        errors = [{"field": ".".join(str(p) for p in e["loc"]) or WHOLE_LINE, "reason": e["msg"]}
                  for e in exc.errors()]
        return refused(number, errors[0]["field"], errors[0]["reason"], errors)


def over_size_limit(number: int, command: Command) -> Answer | None:
    """The refusal of a command over its topic's message size limit, naming the biggest field
    (what to shorten) and the limit; None when it fits."""
    from contracts.codec import encode
    from contracts.topics import topic_for

    topic = topic_for(command)
    size = len(encode(command)) + len(command.key.encode("utf-8"))
    if size <= topic.max_message_bytes:
        return None
    path, field_size = biggest_field(json.loads(encode(command)))
    return refused(number, path, f"the command is {size} bytes, over the "
                   f"{topic.max_message_bytes}-byte message limit of {topic.name}; its "
                   f"biggest field {path} is {field_size} bytes")


def biggest_field(value: Any, path: str = "") -> tuple[str, int]:
    """(dotted path, size in bytes as JSON) of the largest single value inside `value`."""
    children: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        children = [(f"{path}.{k}" if path else str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        children = [(f"{path}.{i}" if path else str(i), v) for i, v in enumerate(value)]
    if not children:
        return path or WHOLE_LINE, len(json.dumps(value).encode("utf-8"))
    return max((biggest_field(v, p) for p, v in children), key=lambda found: found[1])


# ----- sending ---------------------------------------------------------------------------------

class Sender:
    """A kafka-python producer made on first use, so a file of refused lines needs no broker."""

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap
        self._producer = None
        self._unreachable: str | None = None   # why the producer could not be made

    def send(self, number: int, command: Command) -> Answer:
        from contracts.codec import encode
        from contracts.topics import topic_for

        topic = topic_for(command).name
        if self._unreachable:
            return refused(number, WHOLE_LINE, self._unreachable)
        try:
            future = self.producer().send(topic, key=command.key.encode("utf-8"),
                                          value=encode(command))
            meta = future.get(timeout=ACK_TIMEOUT_SECONDS)   # wait for the broker's ack
        except Exception as err:  # noqa: BLE001 — the broker's refusal is this line's answer
            reason = f"not sent to {topic} at {self.bootstrap}: {_explain(err)}"
            if self._producer is None:     # no broker at all: refuse the rest without waiting
                self._unreachable = reason
            return refused(number, WHOLE_LINE, reason)
        return Answer(number, "accepted", command.command_type, command.command_id,
                      command.target_id, topic, meta.partition, meta.offset)

    def producer(self):
        if self._producer is None:
            from kafka import KafkaProducer

            from services.runtime.kafka_config import kafka_config
            wait_ms = int(ACK_TIMEOUT_SECONDS * 1000)
            self._producer = KafkaProducer(bootstrap_servers=self.bootstrap.split(","),
                                           client_id=ISSUED_BY, bootstrap_timeout_ms=wait_ms,
                                           max_block_ms=wait_ms,
                                           **kafka_config().producer_options(),
                                           **kafka_config().security_options())
        return self._producer

    def close(self) -> None:
        if self._producer is not None:
            self._producer.close(timeout=5)


def _explain(err: Exception) -> str:
    text = str(err)
    return text if text.startswith(type(err).__name__) else f"{type(err).__name__}: {text}"


# ----- command ---------------------------------------------------------------------------------

@click.command()
@click.argument("source", type=click.File("rb"), metavar="FILE|-")
@click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", default=None, metavar="HOST:PORT",
              help="Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS; default "
                   "127.0.0.1:9092).")
@click.option("--json", "as_json", is_flag=True,
              help="Answer each line with one JSON object (line, status, command_id, topic, "
                   "partition, offset; or field, reason and errors).")
@click.option("--max-bytes", type=click.IntRange(1), default=DEFAULT_MAX_BYTES, show_default=True,
              help="Refuse a line longer than this many bytes.")
@click.option("--key", "key_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              envvar="CASINO_KEY", default=None,
              help="Sign every command with this private key file (or CASINO_KEY): the actor "
                   "is then the key's registered principal and role (casino keys).")
def send(source: BinaryIO, bootstrap: str | None, as_json: bool, max_bytes: int,
         key_file: Path | None) -> None:
    """Publish the commands in FILE (JSON Lines; - for stdin) and answer every line.

    \b
    Each line is one command as in docs/contracts (command_type, target_id, payload, ...),
    validated by the contracts and sent, keyed by its target id, to the topic that carries
    it; the broker's acknowledgement is awaited. Filled in when a line leaves them out:
      command_id      a new UUID
      issued_at       now (UTC)
      correlation_id  a new UUID
      schema_version  the command's current version
      issued_by       "casino-send"
    Blank lines and lines starting with # are skipped. Events are refused: only commands.
    With --key each command is signed (key_id, signature; `actor` may then be left out: the
    services use the key's registered one); without it a line is sent as written, so a floor
    that requires signatures refuses it (FORBIDDEN) unless it carries its own.

    \b
    Example:
      echo '{"command_type":"OpenRound","target_id":"RUL-01",
             "actor":{"employee_id":"D1","role":"dealer"}}' | casino send -

    Exit status: 0 all lines accepted, 1 a line was refused or not acknowledged (the valid
    lines are still sent), 2 usage error.
    """
    from services.runtime.identity import Signer
    from services.runtime.settings import Settings

    try:
        signer = Signer.from_file(key_file) if key_file is not None else None
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--key") from None
    sender = Sender(Settings.from_env(bootstrap).bootstrap)
    versions, failures = current_versions(), 0
    try:
        for number, content, size in numbered_lines(source, max_bytes):
            if content is None:
                answer = refused(number, WHOLE_LINE, f"{size} bytes, over --max-bytes "
                                 f"{max_bytes}")
            elif is_skipped(content):
                continue
            else:
                checked = validate(number, content, versions)
                if not isinstance(checked, Answer) and signer is not None:
                    checked = signer.sign(checked)
                answer = checked if isinstance(checked, Answer) else (
                    over_size_limit(number, checked) or sender.send(number, checked))
            failures += answer.status != "accepted"
            click.echo(json.dumps(answer.to_dict()) if as_json else answer.text())
    finally:
        sender.close()
    if failures:
        click.echo(f"{failures} line(s) refused", err=True)
        sys.exit(1)

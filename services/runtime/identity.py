"""Authenticated actors, the runtime's side (issue 12): key files, signing commands, and the one
place every service checks a command's signature before its permission check.

`Identity` folds `floor.identity.keys` (contracts/identity.py `KeyRing`) through a subscriber of
its own on the service's broker (no consumer group: every instance reads every key event, from
the start). Before a batch of commands is handled, `catch_up` waits until the fold has reached
the end the broker reports for that topic at that moment (asked on a connection of its own,
not behind the follower's long poll), so a command published after a registration or a
revocation was acknowledged is always judged with it. `authenticate` then
gives the handler the command with the key's registered actor and the outcome recorded on it
(`Command._authentication`); `contracts.permissions.authorize`, which the aggregates call,
refuses a failed one as FORBIDDEN with the reason.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiokafka import AIOKafkaConsumer, TopicPartition
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from faststream import AckPolicy
from faststream.kafka import KafkaMessage

from contracts import DecodeError, decode
from contracts.envelope import Command, new_id, utcnow
from contracts.identity import (
    KeyRegistered,
    KeyRegisteredData,
    KeyRevoked,
    KeyRevokedData,
    KeyRing,
    key_id_of,
    public_text,
    sign_command,
    sign_key_event,
)
from contracts.topics import IDENTITY_KEYS_TOPIC
from services.runtime.settings import Settings

if TYPE_CHECKING:
    from faststream.kafka import KafkaBroker

    from services.runtime.replay import LogReader

log = logging.getLogger(__name__)
CATCH_UP_SECONDS = 10.0      # longer and the batch fails (and is redelivered) as transient
KEYS = TopicPartition(IDENTITY_KEYS_TOPIC.name, 0)
PRODUCER = "casino-keys"


# ----- key files -------------------------------------------------------------------------------

def generate_key(path: Path, *, overwrite: bool = False) -> Ed25519PrivateKey:
    """A new Ed25519 key in `path` (PKCS#8 PEM, mode 0600) and its public half in `path`.pub."""
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path}: a key file is already there")
    key = Ed25519PrivateKey.generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
    public_path(path).write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return key


def public_path(path: Path) -> Path:
    return path.with_suffix(".pub")


def load_private(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as err:
        raise ValueError(f"{path}: not an Ed25519 private key file ({err})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: not an Ed25519 private key")
    return key


def load_public(path: Path) -> Ed25519PublicKey:
    """The public key in a public (.pub) or private key file."""
    data = path.read_bytes()
    if b"PRIVATE KEY" in data:
        return load_private(path).public_key()
    try:
        key = serialization.load_pem_public_key(data)
    except ValueError as err:
        raise ValueError(f"{path}: not an Ed25519 public key file ({err})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError(f"{path}: not an Ed25519 public key")
    return key


def root_public(settings: Settings) -> Ed25519PublicKey | None:
    path = settings.root_public_key
    return load_public(path) if path.exists() else None


def init_root(settings: Settings) -> Ed25519PrivateKey:
    """The deployment's root administrator key: <var>/identity/root.key (created when missing,
    with root.pub beside it, which every service trusts)."""
    path = settings.identity_dir / "root.key"
    return load_private(path) if path.exists() else generate_key(path)


# ----- signing ---------------------------------------------------------------------------------

class Signer:
    """Signs commands with one key (a terminal's, an employee's)."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self.key = key
        self.key_id = key_id_of(key.public_key())

    @classmethod
    def from_file(cls, path: Path) -> Signer:
        return cls(load_private(path))

    def sign(self, command: Command) -> Command:
        return sign_command(command, self.key)


def service_key_path(settings: Settings, service: str) -> Path:
    """Where a service that issues commands (the wheel and dice services forward spins and
    rolls to the tables) keeps its own key: <var>/identity/services/<service>.key."""
    return settings.identity_dir / "services" / f"{service}.key"


def service_signer(settings: Settings, service: str) -> Signer | None:
    path = service_key_path(settings, service)
    return Signer.from_file(path) if path.exists() else None


def registration(admin: Ed25519PrivateKey, public: Ed25519PublicKey, role: str,
                 principal_id: str, note: str = "") -> KeyRegistered:
    kid = key_id_of(public)
    event = KeyRegistered(aggregate_id=kid, sequence=1, occurred_at=utcnow(), producer=PRODUCER,
                          correlation_id=new_id(), partition_key=kid,
                          payload=KeyRegisteredData.model_validate(
                              {"key_id": kid, "public_key": public_text(public), "role": role,
                               "principal_id": principal_id, "note": note}))
    signed = sign_key_event(event, admin)
    assert isinstance(signed, KeyRegistered)
    return signed


def revocation(admin: Ed25519PrivateKey, key_id: str, reason: str) -> KeyRevoked:
    event = KeyRevoked(aggregate_id=key_id, sequence=2, occurred_at=utcnow(), producer=PRODUCER,
                       correlation_id=new_id(), partition_key=key_id,
                       payload=KeyRevokedData(key_id=key_id, reason=reason))
    signed = sign_key_event(event, admin)
    assert isinstance(signed, KeyRevoked)
    return signed


async def read_ring(settings: Settings, reader: LogReader | None = None) -> KeyRing:
    """The key ring as the log has it now (what `casino keys list` shows)."""
    from services.runtime.replay import LogReader

    ring = KeyRing(root_public(settings))
    async with reader or LogReader(settings.bootstrap) as r:
        async for record in r.records(IDENTITY_KEYS_TOPIC.name, 0):
            fold(ring, record.value)
    return ring


def fold(ring: KeyRing, value: bytes | None) -> str | None:
    """Fold one record of the keys topic; the reason when it was not taken."""
    try:
        event = decode(value)
        obj = json.loads(value or b"")
    except (DecodeError, ValueError) as err:
        ring.ignored.append(f"undecodable key event: {err}")
        return ring.ignored[-1]
    if not isinstance(event, (KeyRegistered, KeyRevoked)):
        ring.ignored.append(f"{type(event).__name__} does not belong on the keys topic")
        return ring.ignored[-1]
    return ring.apply(obj, event)


# ----- checking (the services) -----------------------------------------------------------------

class Identity:
    """One service's key ring, kept current from the keys topic, and its check of commands."""

    def __init__(self, settings: Settings, service: str) -> None:
        self.required = settings.require_signatures
        self.service = service
        self.settings = settings
        self._probe: asyncio.Future[AIOKafkaConsumer] | None = None
        root = root_public(settings)
        self.ring = KeyRing(root)
        self.next_offset = 0           # of the keys topic: how far the fold has read
        self._subscriber: Any = None
        self.refused: dict[str, int] = {}
        if root is None and self.required:
            log.error("no root administrator key", extra={
                "path": str(settings.root_public_key), "service": service,
                "consequence": "no key can be registered: every signed command is refused"})

    def follow(self, broker: KafkaBroker, consumer_options: dict[str, Any]) -> None:
        """Fold the keys topic from its start, on `broker`, for as long as it runs."""
        subscriber = broker.subscriber(
            IDENTITY_KEYS_TOPIC.name, batch=True, group_id=None, auto_offset_reset="earliest",
            ack_policy=AckPolicy.MANUAL, decoder=_no_decoding, max_records=500,
            title=f"{self.service}:{IDENTITY_KEYS_TOPIC.name}",
            description="Every instance folds the registered and revoked keys, to check the "
                        "signature of each command before its permission check.",
            **consumer_options)

        @subscriber
        async def on_keys(batch: KafkaMessage) -> None:
            records = batch.raw_message
            for record in records if isinstance(records, (tuple, list)) else (records,):
                self.take(record.offset, record.value)
        self._subscriber = subscriber

    def take(self, offset: int, value: bytes | None) -> None:
        if offset < self.next_offset:
            return  # already folded (a redelivery after a reconnect)
        problem = fold(self.ring, value)
        if problem is not None:
            log.warning("key event ignored", extra={"offset": offset, "reason": problem})
        self.next_offset = offset + 1

    async def catch_up(self) -> None:
        """Wait until every key event the broker holds now is folded."""
        if getattr(self._subscriber, "consumer", None) is None:
            return  # not following (a test's bus): the ring is what was given
        end = await self._end_now()
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while self.next_offset < end:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the key ring is at offset {self.next_offset} of "
                                   f"{IDENTITY_KEYS_TOPIC.name}, the broker at {end}")
            await asyncio.sleep(0.01)

    async def _end_now(self) -> int:
        """The keys topic's end as the broker has it now, asked on a connection of its own.
        The follower's connection is almost always inside a long-polling fetch of the keys
        topic (nothing comes), and a broker answers a connection's requests in order: asked
        there, the end waited for that fetch to give up, up to fetch_max_wait_ms."""
        if self._probe is None or self._probe.done() and (
                self._probe.cancelled() or self._probe.exception() is not None):
            self._probe = asyncio.ensure_future(self._start_probe())  # (again, if it failed)
        probe = await asyncio.shield(self._probe)
        return int((await probe.end_offsets([KEYS])).get(KEYS, 0))

    async def _start_probe(self) -> AIOKafkaConsumer:
        probe = AIOKafkaConsumer(bootstrap_servers=self.settings.bootstrap,
                                 enable_auto_commit=False, client_id=f"{self.service}.keys",
                                 **self.settings.kafka.aiokafka_options())  # TLS, SASL
        await probe.start()
        return probe

    async def close(self) -> None:
        """Stop the end-of-topic probe (the follower stops with the broker)."""
        probe, self._probe = self._probe, None
        if probe is None:
            return
        if not probe.done():
            probe.cancel()
        elif not probe.cancelled() and probe.exception() is None:
            await probe.result().stop()

    def authenticate(self, value: bytes, command: Command) -> Command:
        """The command as its handler must see it: a signed one with its key's registered
        actor, or without an actor and with the reason it is not authenticated (the permission
        check refuses it). An unsigned one passes as it is when signatures are not required."""
        if command.signature is None and command.key_id is None and not self.required:
            return command
        outcome = self.ring.authenticate(json.loads(value), command)
        checked = command.model_copy(update={"actor": outcome.actor})
        checked._authentication = outcome
        if not outcome.ok:
            cause = outcome.cause or "other"
            self.refused[cause] = self.refused.get(cause, 0) + 1
        return checked

    def status(self) -> dict[str, Any]:
        return {"signatures_required": self.required, "root_key": self.ring.root_id,
                "keys_active": len(self.ring.active()), "keys": len(self.ring.keys),
                "key_events_read": self.next_offset, "key_events_ignored": len(self.ring.ignored),
                "commands_not_authenticated": dict(sorted(self.refused.items()))}


def carries_commands(types: Sequence[type]) -> bool:
    return any(issubclass(t, Command) for t in types)


async def _no_decoding(_message: Any) -> None:
    return None

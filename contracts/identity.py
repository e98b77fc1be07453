"""Who sent a command: Ed25519 keys, their registration and revocation, and how a signed
message is checked (issue 12, «Authenticated actors»).

Every terminal, employee and service holds an Ed25519 key. A command carries the signer's key
id (`Command.key_id`) and a signature (`Command.signature`) over the command's canonical
encoding: its JSON object without `signature`, keys sorted, no whitespace, UTF-8 (the JSON
Canonicalization Scheme, RFC 8785, for the values the contracts use), after the domain tag
`COMMAND_TAG`. A key id names its public key: `k-` and the first 24 hex digits of the key's
SHA-256.

Keys are bound to a principal (employee id) and a role by events on `floor.identity.keys`:
`KeyRegistered` and `KeyRevoked`, each signed by an administrator's key (tag `KEY_EVENT_TAG`).
The first administrator is the deployment's root key (a file, `casino keys init`); the others
are keys registered with role `admin`. `KeyRing` folds those events, in log order, into the
bindings every service checks commands against: an event not signed by an administrator
active at that point of the log is ignored (and said so), so anyone able to write to the topic
still cannot register a key. The role a command is checked with is the registered one, never
what its `actor` says (contracts/permissions.py).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from pydantic import BaseModel, ConfigDict, Field

from contracts.envelope import Actor, Command, Event, Id, message_type
from contracts.permissions import may

COMMAND_TAG = b"casino.command.v1\n"
KEY_EVENT_TAG = b"casino.identity.keys.v1\n"
ADMIN_ROLE = "admin"
ROOT_PRINCIPAL = "root"
# The roles a key may be registered with: an Actor's, plus the administrators'.
KEY_ROLES = ("dealer", "table_supervisor", "pit_manager", "cashier", "count_team",
             "surveillance", "finance", "system", "device", ADMIN_ROLE)
Signature = Annotated[str, Field(min_length=86, max_length=88,
                                 pattern=r"^[A-Za-z0-9+/]{86}(==)?$",
                                 description="Ed25519 signature, base64 (64 bytes)")]
PublicKeyText = Annotated[str, Field(min_length=43, max_length=44,
                                     pattern=r"^[A-Za-z0-9+/]{43}=?$",
                                     description="Ed25519 public key, raw 32 bytes, base64")]


# ----- keys and signatures ---------------------------------------------------------------------

def key_id_of(public: Ed25519PublicKey) -> str:
    return "k-" + hashlib.sha256(raw_public(public)).hexdigest()[:24]


def raw_public(public: Ed25519PublicKey) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def public_text(public: Ed25519PublicKey) -> str:
    return base64.b64encode(raw_public(public)).decode()


def public_from_text(text: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(base64.b64decode(text))


def canonical(obj: dict[str, Any]) -> bytes:
    """The signed bytes of a message's JSON object: everything but `signature`."""
    body = {k: v for k, v in obj.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def wire_object(message: BaseModel) -> dict[str, Any]:
    """The message as the JSON object its bytes on the topic hold (what a verifier parses)."""
    obj: dict[str, Any] = json.loads(message.model_dump_json())
    return obj


def signature_over(private: Ed25519PrivateKey, tag: bytes, obj: dict[str, Any]) -> str:
    return base64.b64encode(private.sign(tag + canonical(obj))).decode()


def signature_valid(public: Ed25519PublicKey, tag: bytes, obj: dict[str, Any]) -> bool:
    text = obj.get("signature")
    if not isinstance(text, str):
        return False
    try:
        public.verify(base64.b64decode(text, validate=True), tag + canonical(obj))
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


def sign_command(command: Command, private: Ed25519PrivateKey) -> Command:
    """`command` with the signer's key id and its signature."""
    unsigned = command.model_copy(update={"key_id": key_id_of(private.public_key()),
                                          "signature": None})
    return unsigned.model_copy(update={"signature": signature_over(
        private, COMMAND_TAG, wire_object(unsigned))})


# ----- the key events --------------------------------------------------------------------------

class KeyRegisteredData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    key_id: Id = Field(description="k- and the first 24 hex digits of the key's SHA-256")
    public_key: PublicKeyText
    role: Literal["dealer", "table_supervisor", "pit_manager", "cashier", "count_team",
                  "surveillance", "finance", "system", "device", "admin"]
    principal_id: Id = Field(description="The employee, terminal or service holding the key")
    note: str = Field(default="", max_length=500)


class KeyRevokedData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    key_id: Id
    reason: str = Field(min_length=1, max_length=500)


class SignedKeyEvent(Event):
    """A key event, signed by an administrator's key (`key_id`, `signature`)."""

    KIND: ClassVar[str] = "event"
    aggregate_type: Literal["identity_key"] = "identity_key"
    key_id: Id | None = Field(default=None, description="The administrator key that signed it")
    signature: Signature | None = None


@message_type
class KeyRegistered(SignedKeyEvent):
    """A key is bound to a principal and a role, by an administrator (sequence 1)."""

    event_type: Literal["KeyRegistered"] = "KeyRegistered"
    schema_version: Literal[1] = 1
    payload: KeyRegisteredData


@message_type
class KeyRevoked(SignedKeyEvent):
    """A key no longer authenticates anything, from this point of the log on (sequence 2)."""

    event_type: Literal["KeyRevoked"] = "KeyRevoked"
    schema_version: Literal[1] = 1
    payload: KeyRevokedData


IDENTITY_EVENTS: tuple[type[Event], ...] = (KeyRegistered, KeyRevoked)


def sign_key_event(event: SignedKeyEvent, admin: Ed25519PrivateKey) -> SignedKeyEvent:
    unsigned = event.model_copy(update={"key_id": key_id_of(admin.public_key()),
                                        "signature": None})
    return unsigned.model_copy(update={"signature": signature_over(
        admin, KEY_EVENT_TAG, wire_object(unsigned))})


# ----- the key ring ----------------------------------------------------------------------------

@dataclass(frozen=True)
class KeyBinding:
    key_id: str
    public: Ed25519PublicKey
    role: str
    principal_id: str
    registered_by: str
    registered_at: datetime | None
    revoked_at: datetime | None = None
    revoked_by: str | None = None
    revoke_reason: str | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def describe(self) -> dict[str, Any]:
        return {"key_id": self.key_id, "role": self.role, "principal_id": self.principal_id,
                "status": "active" if self.active else "revoked",
                "registered_by": self.registered_by,
                "registered_at": self.registered_at.isoformat() if self.registered_at else None,
                "revoked_at": self.revoked_at.isoformat() if self.revoked_at else None,
                "revoked_by": self.revoked_by, "revoke_reason": self.revoke_reason}


@dataclass(frozen=True)
class Authentication:
    """What the key ring says about a command: the registered actor, or why it is refused."""

    key_id: str | None
    actor: Actor | None = None
    problem: str | None = None
    cause: str | None = None     # unsigned, unknown_key, revoked, forged, admin_key

    @property
    def ok(self) -> bool:
        return self.problem is None


class KeyRing:
    """The key bindings folded from `floor.identity.keys`, plus the deployment's root key."""

    def __init__(self, root: Ed25519PublicKey | None = None) -> None:
        self.keys: dict[str, KeyBinding] = {}
        self.ignored: list[str] = []     # why each key event not taken was ignored
        self.root_id: str | None = None
        if root is not None:
            self.root_id = key_id_of(root)
            self.keys[self.root_id] = KeyBinding(self.root_id, root, ADMIN_ROLE, ROOT_PRINCIPAL,
                                                 "deployment config", None)

    # -- folding ---------------------------------------------------------------------------
    def apply(self, obj: dict[str, Any], event: Event) -> str | None:
        """Take one key event (its wire object and decoded model); None when taken, else the
        reason it was ignored (also kept in `ignored`)."""
        problem = self._problem(obj, event)
        if problem is not None:
            self.ignored.append(problem)
            return problem
        assert isinstance(event, (KeyRegistered, KeyRevoked)) and event.key_id is not None
        admin = self.keys[event.key_id].principal_id
        if isinstance(event, KeyRegistered):
            p = event.payload
            self.keys[p.key_id] = KeyBinding(p.key_id, public_from_text(p.public_key), p.role,
                                             p.principal_id, admin, event.occurred_at)
        else:
            old = self.keys[event.payload.key_id]
            self.keys[old.key_id] = KeyBinding(
                old.key_id, old.public, old.role, old.principal_id, old.registered_by,
                old.registered_at, event.occurred_at, admin, event.payload.reason)
        return None

    def _problem(self, obj: dict[str, Any], event: Event) -> str | None:
        if not isinstance(event, (KeyRegistered, KeyRevoked)):
            return f"{event.event_type} is not a key event"
        what = f"{event.event_type} {event.payload.key_id}"
        signer = self.keys.get(event.key_id or "")
        if event.key_id is None or event.signature is None:
            return f"{what}: unsigned; key events must be signed by an administrator key"
        action = "RegisterKey" if isinstance(event, KeyRegistered) else "RevokeKey"
        if signer is None or not signer.active or not may(signer.role, action):
            return (f"{what}: signed by {event.key_id}, which is not an active administrator "
                    f"key")
        if not signature_valid(signer.public, KEY_EVENT_TAG, obj):
            return f"{what}: the signature of {event.key_id} does not match the event"
        known = self.keys.get(event.payload.key_id)
        if isinstance(event, KeyRevoked):
            if known is None:
                return f"{what}: no such key"
            if event.payload.key_id == self.root_id:
                return f"{what}: the root key is replaced in the deployment config, not revoked"
            return None if known.active else f"{what}: already revoked"
        p = event.payload
        try:
            public = public_from_text(p.public_key)
        except ValueError:
            return f"{what}: public_key is not an Ed25519 key"
        if key_id_of(public) != p.key_id:
            return f"{what}: key_id is not the id of public_key ({key_id_of(public)})"
        if known is not None:
            return f"{what}: already registered (to {known.principal_id} as {known.role})"
        return None

    # -- checking ----------------------------------------------------------------------------
    def authenticate(self, obj: dict[str, Any], command: Command) -> Authentication:
        """The registered actor of a signed command (its wire object and model), or the
        reason it is not authenticated."""
        kid = command.key_id
        if kid is None or command.signature is None:
            return Authentication(kid, cause="unsigned",
                                  problem="unsigned: this floor accepts only commands signed "
                                  "by a registered key (key_id, signature)")
        binding = self.keys.get(kid)
        if binding is None:
            return Authentication(kid, cause="unknown_key",
                                  problem=f"unknown key {kid}: no KeyRegistered for it")
        if not binding.active:
            return Authentication(kid, cause="revoked",
                                  problem=f"key {kid} of {binding.principal_id} was "
                                  f"revoked by {binding.revoked_by}: {binding.revoke_reason}")
        if not signature_valid(binding.public, COMMAND_TAG, obj):
            return Authentication(kid, cause="forged",
                                  problem=f"forged: the signature does not match the command "
                                  f"for key {kid} (altered after signing, or not signed with "
                                  f"that key)")
        if binding.role == ADMIN_ROLE:
            return Authentication(kid, cause="admin_key",
                                  problem=f"key {kid} is an administrator key: it signs "
                                  "key events, not floor commands")
        return Authentication(kid, Actor(employee_id=binding.principal_id, role=binding.role))

    def active(self) -> list[KeyBinding]:
        return [k for k in self.keys.values() if k.active]


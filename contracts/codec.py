"""Bytes <-> messages. Decoding never guesses: it returns a message or a DecodeError whose
code and reason say exactly why (the dead-letter topic records both)."""
from __future__ import annotations

import json
import re

from pydantic import ValidationError

from contracts.deadletter import DeadLetterCode
from contracts.envelope import REGISTRY, TYPE_FIELDS, Event, Message, type_field
from contracts.upcast import UPCASTERS, upcast


class DecodeError(Exception):
    def __init__(self, code: DeadLetterCode, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


def encode(message: Message) -> bytes:
    """The message's bytes; an event sealed into its hash chain (contracts/chain.py) is sent
    as the bytes its hash was computed over."""
    if isinstance(message, Event):
        wire = message.wire
        if wire is not None:
            return wire
    return message.model_dump_json().encode("utf-8")


# The type and version of a message, found in its bytes without parsing them. A match cannot
# come from inside a JSON string (its quotes would be escaped), so the only doubt is a nested
# object with these keys: `_peek` then finds more than one and leaves the message to the full
# path.
_TYPE = re.compile(rb'"(event_type|command_type|record_type)"\s*:\s*"([A-Za-z0-9_]+)"')
_VERSION = re.compile(rb'"schema_version"\s*:\s*([0-9]+)[\s,}]')


def decode(data: bytes | None) -> Message:
    """The message in `data`, or DecodeError. The usual message is validated straight from its
    bytes by its model (pydantic parses the JSON itself: about twice as fast as json.loads and
    then validating the dict); anything else — and any failure — takes the full path, which
    classifies the error."""
    if data:
        model = _peek(data)
        if model is not None:
            try:
                message = model.model_validate_json(data)
            except ValidationError:
                pass  # the full path says why, as it always has
            else:
                # the type and version the model was chosen by are really the message's own
                # (given at its top level, not defaults), as the full path would have read them
                if {type_field(model), "schema_version"} <= message.model_fields_set:
                    if isinstance(message, Event):
                        message.keep_wire(data)  # the bytes its hash is checked against
                    return message
    return _decode(data)


def _peek(data: bytes) -> type[Message] | None:
    """The model of the message's current type and version; None when in doubt, or for an
    older version that must be upcast (the full path does that)."""
    types = _TYPE.findall(data)
    if len(types) != 1:
        return None
    versions = _VERSION.findall(data)
    if len(versions) != 1:
        return None
    key = (types[0][1].decode(), int(versions[0]))
    return None if key in UPCASTERS else REGISTRY.get(key)


def _decode(data: bytes | None) -> Message:
    if not data:
        raise DecodeError("undecodable", "empty message")
    try:
        obj = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DecodeError("undecodable", f"not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise DecodeError("undecodable", "not a JSON object")
    type_field = next((f for f in TYPE_FIELDS if f in obj), None)
    if type_field is None:
        raise DecodeError("unknown_type", f"no type field (one of {', '.join(TYPE_FIELDS)})")
    key = (obj[type_field], obj.get("schema_version"))
    model = REGISTRY.get(key)  # type: ignore[arg-type]
    if model is None:
        raise DecodeError("unknown_type", f"{type_field}={obj[type_field]!r} "
                          f"schema_version={obj.get('schema_version')!r} is not a known message")
    try:
        message = model.model_validate(obj)
        if key not in UPCASTERS:
            if isinstance(message, Event):
                message.keep_wire(data)
            return message
        newest = upcast(obj[type_field], message.model_dump(mode="json"))
        return REGISTRY[(newest[type_field], newest["schema_version"])].model_validate(newest)
    except ValidationError as exc:
        raise DecodeError("invalid_payload", describe(exc)) from None


def describe(exc: ValidationError) -> str:
    """'payload.bet.stake.amount: Input should be greater than or equal to 0; ...'"""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(message)'}: {e['msg']}"
                     for e in exc.errors())

"""Bytes <-> messages. Decoding never guesses: it returns a message or a DecodeError whose
code and reason say exactly why (the dead-letter topic records both)."""
from __future__ import annotations

import json

from pydantic import ValidationError

from contracts.deadletter import DeadLetterCode
from contracts.envelope import REGISTRY, TYPE_FIELDS, Message
from contracts.upcast import UPCASTERS, upcast


class DecodeError(Exception):
    def __init__(self, code: DeadLetterCode, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


def encode(message: Message) -> bytes:
    return message.model_dump_json().encode("utf-8")


def decode(data: bytes | None) -> Message:
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
            return message
        newest = upcast(obj[type_field], message.model_dump(mode="json"))
        return REGISTRY[(newest[type_field], newest["schema_version"])].model_validate(newest)
    except ValidationError as exc:
        raise DecodeError("invalid_payload", describe(exc)) from None


def describe(exc: ValidationError) -> str:
    """'payload.bet.stake.amount: Input should be greater than or equal to 0; ...'"""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(message)'}: {e['msg']}"
                     for e in exc.errors())

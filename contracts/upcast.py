"""Upcasters: a message stored under an older schema version, as a dict, rewritten to the next
version before it is validated, so an old log rebuilds with today's models.

`decode` validates the old shape with the old (still registered) model first, so a broken old
message is reported against the schema it claims, then applies the upcasters in turn up to
the newest version.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

Upcast = Callable[[dict[str, Any]], dict[str, Any]]

# (type name, from schema version) -> function from that version's dict to the next version's
UPCASTERS: dict[tuple[str, int], Upcast] = {}


def upcaster(type_name: str, from_version: int) -> Callable[[Upcast], Upcast]:
    def register(fn: Upcast) -> Upcast:
        UPCASTERS[(type_name, from_version)] = fn
        return fn
    return register


def upcast(type_name: str, obj: dict[str, Any]) -> dict[str, Any]:
    """`obj` rewritten to the newest schema version its type has an upcaster chain to."""
    while isinstance(version := obj.get("schema_version"), int) and \
            (fn := UPCASTERS.get((type_name, version))) is not None:
        obj = fn(obj)
    return obj

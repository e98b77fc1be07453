"""Idempotent, ordered consumption of aggregate streams (pure).

Per aggregate we remember the last applied sequence number: a redelivered or replayed event
(sequence <= last) is a duplicate and a no-op; the next one (last + 1) is applied; anything
beyond is a gap — detected and reported, never silently applied.
"""
from __future__ import annotations

import enum
from collections.abc import MutableMapping


class Verdict(enum.Enum):
    APPLY = "apply"
    DUPLICATE = "duplicate"
    GAP = "gap"


class SequenceGuard:
    def __init__(self, positions: MutableMapping[str, int] | None = None) -> None:
        self.positions: MutableMapping[str, int] = positions if positions is not None else {}

    def check(self, aggregate_id: str, sequence: int) -> Verdict:
        last = self.positions.get(aggregate_id, 0)
        if sequence <= last:
            return Verdict.DUPLICATE
        if sequence == last + 1:
            return Verdict.APPLY
        return Verdict.GAP

    def advance(self, aggregate_id: str, sequence: int) -> None:
        self.positions[aggregate_id] = sequence

    def expected(self, aggregate_id: str) -> int:
        return self.positions.get(aggregate_id, 0) + 1

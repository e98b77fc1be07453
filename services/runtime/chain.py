"""Verifying hash chains over a raw log (pure): what `casino audit verify` runs.

Records are fed in log order, partition by partition, as the bytes the broker holds. Each
event's own hash is recomputed from its bytes, and its link to the aggregate's previous event,
its sequence and any earlier event at the same sequence are judged as the projector judges them
(sequence.py). The first break of each aggregate is reported — modified (its hash does not
hold), deleted (a gap, or a successor naming another predecessor), inserted or reordered (a
sequence out of place, a second event at one sequence: a fork) — and that aggregate is not
judged further (everything after a break is suspect). Identical copies (a producer's retry)
are redeliveries, not breaks.

The chain starts at an aggregate's first hashed event: events from before the chain are checked
by sequence only. When a partition's log no longer starts at offset 0 (retention), an aggregate
may start mid-stream; otherwise every aggregate must start at sequence 1.

Snapshots are the chain's periodic checkpoints: each records the hash of the last event it
covers, and `checkpoint` checks that hash against the event at that sequence.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from contracts import DecodeError, decode
from contracts.chain import link_of
from contracts.envelope import Event
from contracts.snapshots import AggregateSnapshot
from services.runtime.sequence import SequenceGuard, Verdict


@dataclass(frozen=True)
class Break:
    """The first broken link of one aggregate's chain."""

    topic: str
    partition: int
    offset: int
    aggregate_id: str
    table_id: str
    sequence: int
    kind: str             # modified | broken_link | gap | fork | checkpoint
    expected: str | None  # what the chain holds there
    found: str | None     # what the record says
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        return (f"{self.topic}[{self.partition}] offset {self.offset}: {self.aggregate_id} "
                f"(table {self.table_id}) sequence {self.sequence}: {self.kind}: {self.reason} "
                f"(expected {self.expected}, found {self.found})")


@dataclass
class ChainReport:
    events: int = 0
    hashed: int = 0
    unhashed: int = 0          # from before the chain
    redeliveries: int = 0      # identical copies
    checkpoints: int = 0
    aggregates: set[str] = field(default_factory=set)
    breaks: list[Break] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks

    def first_break(self) -> Break | None:
        return min(self.breaks, key=lambda b: (b.topic, b.partition, b.offset), default=None)

    def to_dict(self) -> dict[str, Any]:
        first = self.first_break()
        return {"ok": self.ok, "events": self.events, "aggregates": len(self.aggregates),
                "hashed": self.hashed, "unhashed": self.unhashed,
                "redeliveries": self.redeliveries, "checkpoints": self.checkpoints,
                "first_break": first.to_dict() if first else None,
                "breaks": [b.to_dict() for b in self.breaks]}


class ChainVerifier:
    """Feed it records in log order (`record`), then snapshots (`checkpoint`)."""

    def __init__(self, table_id: str | None = None) -> None:
        self.table_id = table_id
        self.guard = SequenceGuard()
        self.report = ChainReport()
        self.broken: set[str] = set()

    def record(self, topic: str, partition: int, offset: int, data: bytes | None,
               *, log_complete: bool = True) -> None:
        """One record of an event topic; bytes that are not an event are not ours to judge
        (the consumers dead-letter them)."""
        try:
            event = decode(data)
        except DecodeError:
            return
        if not isinstance(event, Event) or (self.table_id and event.key != self.table_id):
            return
        aid, seq = event.aggregate_id, event.sequence
        self.report.events += 1
        self.report.aggregates.add(aid)
        if aid in self.broken:
            return
        assert data is not None  # decoded
        link = link_of(event, data)
        if not log_complete and aid not in self.guard.positions:
            self.guard.positions[aid] = seq - 1   # the log starts mid-stream: so does the chain
        judged = self.guard.judge(link)
        if judged.verdict is Verdict.APPLY:
            self.guard.advance(aid, seq, link)
            self.report.hashed += link.hash is not None
            self.report.unhashed += link.hash is None
            return
        if judged.verdict is Verdict.DUPLICATE:
            self.report.redeliveries += 1
            return
        kind = {Verdict.GAP: "gap", Verdict.FORK: "fork"}.get(judged.verdict, "broken_link")
        if link.problem is not None and judged.verdict is Verdict.BROKEN_LINK:
            kind = "modified"
        self._break(Break(topic, partition, offset, aid, event.key, seq, kind, judged.expected,
                          judged.found, judged.reason))

    def checkpoint(self, topic: str, partition: int, offset: int,
                   snapshot: AggregateSnapshot) -> None:
        """A snapshot records its aggregate's chain head at `version`: it must be the hash of
        the event the log holds at that sequence."""
        aid = snapshot.aggregate_id
        known = self.guard.digests.get((aid, snapshot.version))
        if known is None or aid in self.broken:
            return  # not verified here (another table, from before the chain, or broken)
        head = snapshot.state().get("last_hash")
        if head is None:
            return  # a snapshot from before the chain, or of an unhashed event
        self.report.checkpoints += 1
        if head != known:
            self._break(Break(topic, partition, offset, aid, aid, snapshot.version, "checkpoint",
                              known, head, f"the snapshot at version {snapshot.version} records "
                              f"chain head {head}; the log's event there hashes to {known}"))

    def _break(self, found: Break) -> None:
        self.broken.add(found.aggregate_id)
        self.report.breaks.append(found)


def verify(records: list[tuple[int, bytes]], topic: str = "events", partition: int = 0,
           table_id: str | None = None) -> ChainReport:
    """The chains of one partition's (offset, bytes) records, from the log's start."""
    verifier = ChainVerifier(table_id)
    for offset, data in records:
        verifier.record(topic, partition, offset, data)
    return verifier.report

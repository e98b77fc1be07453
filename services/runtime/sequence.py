"""Idempotent, ordered consumption of aggregate streams, checking their hash chains (pure).

Per aggregate we remember the last applied sequence number and the hash chain's head: the next
event (last + 1) is applied when it names that head as its `prev_hash`; anything beyond is a
gap — detected and reported, never silently applied. An event at or below the last sequence is
compared with the one applied there (its digest, contracts/chain.py): the same bytes are a
redelivery and a no-op; different ones are a fork, which is never dropped silently. An event
whose own hash does not hold, or that names another predecessor than the head, is a broken link
and is treated like a fork. The chain is checked from its first hashed event on: an aggregate
whose last event has no hash (from before the chain, or a projection older than it) accepts
the next event's `prev_hash` as it is.

The same judgement serves the projector (as it consumes) and `casino audit verify` (over the
whole raw log).
"""
from __future__ import annotations

import enum
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass

from contracts.chain import Link


class Verdict(enum.Enum):
    APPLY = "apply"
    DUPLICATE = "duplicate"
    GAP = "gap"
    FORK = "fork"               # a different event at a sequence already applied
    BROKEN_LINK = "broken_link"  # the event's hash does not hold, or names another predecessor


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    expected: str | None = None   # what the chain holds there (a hash or a sequence)
    found: str | None = None      # what the event says
    reason: str = ""


APPLY = Judgement(Verdict.APPLY)
DUPLICATE = Judgement(Verdict.DUPLICATE)


class SequenceGuard:
    def __init__(self, positions: MutableMapping[str, int] | None = None,
                 heads: MutableMapping[str, str | None] | None = None,
                 earlier: Callable[[str, int], str | None] | None = None) -> None:
        """`positions`: aggregate -> last applied sequence; `heads`: aggregate -> its chain's
        head (None: no hash, or not known); `earlier(aggregate, sequence)`: the digest of the
        event applied at a sequence before the last, or None when not known (then a copy at
        that sequence is taken for a redelivery, as before the chain)."""
        self.positions: MutableMapping[str, int] = positions if positions is not None else {}
        self.heads: MutableMapping[str, str | None] = heads if heads is not None else {}
        self.digests: dict[tuple[str, int], str] = {}   # applied through this guard
        self.earlier = earlier

    def check(self, aggregate_id: str, sequence: int) -> Verdict:
        """The verdict by sequence alone (no chain)."""
        last = self.positions.get(aggregate_id, 0)
        if sequence <= last:
            return Verdict.DUPLICATE
        if sequence == last + 1:
            return Verdict.APPLY
        return Verdict.GAP

    def judge(self, link: Link) -> Judgement:
        """The verdict on one event, by its sequence and its chain link."""
        aid, seq = link.aggregate_id, link.sequence
        verdict = self.check(aid, seq)
        if verdict is Verdict.DUPLICATE:
            return self._duplicate(link)
        if verdict is Verdict.GAP:
            return Judgement(Verdict.GAP, str(self.expected(aid)), str(seq),
                             f"expected sequence {self.expected(aid)}, got {seq}")
        if link.problem is not None:
            return Judgement(Verdict.BROKEN_LINK, link.digest, link.hash, link.problem)
        head = self.heads.get(aid)
        if self.positions.get(aid, 0) == 0 and link.prev_hash is not None:
            return Judgement(Verdict.BROKEN_LINK, None, link.prev_hash,
                             "the aggregate's first event names a predecessor")
        if head is not None and link.hash is None:
            return Judgement(Verdict.BROKEN_LINK, head, None,
                             "an event without a hash in a hashed chain")
        if head is not None and link.prev_hash != head:
            return Judgement(Verdict.BROKEN_LINK, head, link.prev_hash,
                             f"it names {link.prev_hash} as its predecessor; the chain's head "
                             f"is {head}")
        return APPLY

    def _duplicate(self, link: Link) -> Judgement:
        key = (link.aggregate_id, link.sequence)
        known = self.digests.get(key)
        if known is None and self.earlier is not None:
            known = self.earlier(*key)
        if known is None or known == link.digest:
            return DUPLICATE
        return Judgement(Verdict.FORK, known, link.digest,
                         f"sequence {link.sequence} was already applied with hash {known}; this "
                         f"copy hashes to {link.digest}")

    def advance(self, aggregate_id: str, sequence: int, link: Link | None = None) -> None:
        self.positions[aggregate_id] = sequence
        if link is not None:
            self.heads[aggregate_id] = link.chain_hash
            self.digests[(aggregate_id, sequence)] = link.digest

    def expected(self, aggregate_id: str) -> int:
        return self.positions.get(aggregate_id, 0) + 1

"""CCTV payout holds: rounds sent to the surveillance room and how long their winning payouts
may still be held.

A casino may hold a winning payout while it checks the result on CCTV, never longer than 30
minutes from the dealer's declaration (seed 002 §1.3; seed 004 RG §6). A hold whose deadline
has passed must be paid now: the report says so instead of a negative time left.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import duckdb

QUERY = """
SELECT table_id, round_id, kind, dealer_result, read_result, reason, detail, confidence,
       declared_at, hold_deadline, evidence_sha256
FROM round_checks WHERE status = 'verification' ORDER BY hold_deadline, round_id
"""


@dataclass(frozen=True)
class Hold:
    table_id: str
    round_id: str
    kind: str
    dealer_result: str
    camera_read: str | None   # None: the reader could not decide
    reason: str               # MISMATCH, LOW_CONFIDENCE, NO_DECISION
    detail: str
    confidence: float
    declared_at: datetime
    hold_deadline: datetime
    evidence_sha256: str

    def seconds_left(self, now: datetime) -> int:
        return max(0, int((self.hold_deadline - now).total_seconds()))

    def expired(self, now: datetime) -> bool:
        return now >= self.hold_deadline

    def to_dict(self, now: datetime) -> dict[str, Any]:
        out = {k: (v.isoformat() if isinstance(v, datetime) else v)
               for k, v in self.__dict__.items()}
        return {**out, "seconds_left": self.seconds_left(now), "expired": self.expired(now)}


def holds_report(con: duckdb.DuckDBPyConnection) -> list[Hold]:
    """Every round under CCTV verification, the soonest deadline first."""
    return [Hold(*row) for row in con.execute(QUERY).fetchall()]


def check_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """How many round checks are confirmed by camera, under verification, or pending."""
    return dict(con.execute("SELECT status, count(*) FROM round_checks GROUP BY status").fetchall())


def time_left(hold: Hold, now: datetime) -> str:
    if hold.expired(now):
        return "30 min passed: pay now"
    left = hold.seconds_left(now)
    return f"{left // 60} min {left % 60:02d} s"


def render_holds(holds: list[Hold], counts: dict[str, int], now: datetime | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    lines = [f"CCTV checks: {counts.get('confirmed', 0)} confirmed by camera, "
             f"{counts.get('verification', 0)} sent to surveillance, "
             f"{counts.get('pending', 0)} waiting for a frame or a result",
             "Winning payouts of a round under verification may be held at most 30 minutes "
             "(seed 002 §1.3; seed 004 RG §6).", ""]
    head = f"{'table':<9}{'round':<14}{'dealer':>7}{'camera':>13}  {'why':<15}{'left':<24}evidence"
    lines.append(head)
    for h in holds:
        lines.append(f"{h.table_id:<9}{h.round_id:<14}{h.dealer_result:>7}"
                     f"{h.camera_read or 'no decision':>13}  {h.reason:<15}"
                     f"{time_left(h, now):<24}{h.evidence_sha256[:12]}")
    if not holds:
        lines.append("(no round is under verification)")
    return "\n".join(lines)

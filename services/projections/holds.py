"""CCTV payout holds: rounds sent to the surveillance room and how long their winning payouts
may still be held.

A casino may hold a winning payout while it checks the result on CCTV, never longer than 30
minutes from the dealer's declaration (seed 002 §1.3; seed 004 RG §6). A hold whose deadline
has passed must be paid now: the report says so instead of a negative time left.

A hold ends when the surveillance room resolves it (VerificationResolved): UPHELD, the
dealer's result stands; CORRECTED, the round was settled on a wrong result, so its payouts
were wrong. Corrections are listed for finance; re-settling them is not done here.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Sequence

import duckdb

QUERY = """
SELECT table_id, round_id, kind, dealer_result, read_result, reason, detail, confidence,
       declared_at, hold_deadline, evidence_sha256, check_id
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
    check_id: str             # the round's correlation id: what `casino surveillance resolve` takes

    def seconds_left(self, now: datetime) -> int:
        return max(0, int((self.hold_deadline - now).total_seconds()))

    def expired(self, now: datetime) -> bool:
        return now >= self.hold_deadline

    def to_dict(self, now: datetime) -> dict[str, Any]:
        out = {k: (v.isoformat() if isinstance(v, datetime) else v)
               for k, v in self.__dict__.items()}
        return {**out, "seconds_left": self.seconds_left(now), "expired": self.expired(now)}


@dataclass(frozen=True)
class Correction:
    """A round whose dealer result surveillance corrected: its payouts were settled wrongly."""

    table_id: str
    round_id: str
    dealer_result: str
    cctv_result: str
    resolved_by: str
    resolved_at: datetime
    within_hold: bool
    note: str


CORRECTIONS = """
SELECT table_id, round_id, dealer_result, resolved_result, resolved_by, resolved_at,
       within_hold, resolution_note
FROM round_checks WHERE status = 'resolved' AND outcome = 'CORRECTED'
ORDER BY resolved_at DESC, round_id
"""


def holds_report(con: duckdb.DuckDBPyConnection) -> list[Hold]:
    """Every round still under CCTV verification, the soonest deadline first."""
    return [Hold(*row) for row in con.execute(QUERY).fetchall()]


def corrections_report(con: duckdb.DuckDBPyConnection) -> list[Correction]:
    """Rounds surveillance corrected, the latest first."""
    return [Correction(*row) for row in con.execute(CORRECTIONS).fetchall()]


def check_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """How many round checks are confirmed by camera, under verification, pending, or
    resolved by surveillance (counted as upheld and corrected)."""
    return dict(con.execute(
        "SELECT CASE WHEN status = 'resolved' THEN lower(outcome) ELSE status END, count(*) "
        "FROM round_checks GROUP BY 1").fetchall())


def time_left(hold: Hold, now: datetime) -> str:
    if hold.expired(now):
        return "30 min passed: pay now"
    left = hold.seconds_left(now)
    return f"{left // 60} min {left % 60:02d} s"


def render_holds(holds: list[Hold], counts: dict[str, int], now: datetime | None = None,
                 corrections: Sequence[Correction] = ()) -> str:
    now = now or datetime.now(timezone.utc)
    lines = [f"CCTV checks: {counts.get('confirmed', 0)} confirmed by camera, "
             f"{counts.get('verification', 0)} sent to surveillance, "
             f"{counts.get('pending', 0)} waiting for a frame or a result; "
             f"resolved by surveillance: {counts.get('upheld', 0)} upheld, "
             f"{counts.get('corrected', 0)} corrected",
             "Winning payouts of a round under verification may be held at most 30 minutes "
             "(seed 002 §1.3; seed 004 RG §6).", ""]
    head = f"{'table':<9}{'round':<14}{'dealer':>7}{'camera':>13}  {'why':<15}{'left':<24}{'evidence':<14}check id"
    lines.append(head)
    for h in holds:
        lines.append(f"{h.table_id:<9}{h.round_id:<14}{h.dealer_result:>7}"
                     f"{h.camera_read or 'no decision':>13}  {h.reason:<15}"
                     f"{time_left(h, now):<24}{h.evidence_sha256[:12]}  {h.check_id}")
    if not holds:
        lines.append("(no round is under verification)")
    return "\n".join(lines + render_corrections(corrections))


def render_corrections(corrections: Sequence[Correction]) -> list[str]:
    if not corrections:
        return []
    lines = ["", "Corrected by surveillance: these rounds were settled on the dealer's result, "
                 "so their payouts were wrong (re-settlement is not done by the platform).",
             f"{'table':<9}{'round':<14}{'dealer':>7}{'CCTV':>7}  {'by':<12}{'when':<27}hold"]
    for c in corrections:
        lines.append(f"{c.table_id:<9}{c.round_id:<14}{c.dealer_result:>7}{c.cctv_result:>7}  "
                     f"{c.resolved_by:<12}{c.resolved_at.isoformat(timespec='seconds'):<27}"
                     f"{'within 30 min' if c.within_hold else 'after 30 min'}")
    return lines

"""CCTV payout holds: rounds sent to the surveillance room and how long their winning payouts
may still be held.

A casino may hold a winning payout while it checks the result on CCTV, never longer than 30
minutes from the dealer's declaration (seed 002 §1.3; seed 004 RG §6). A hold whose deadline
has passed must be paid now: the report says so instead of a negative time left.

A hold ends when the surveillance room resolves it (VerificationResolved): UPHELD, the
dealer's result stands; CORRECTED, the round was settled on a wrong result, so its payouts
were wrong. The table service re-settles such a round (SettlementCorrected): the report lists
what the correction changed in money, for finance. The table service also records the hold of
each round's winning payouts (PayoutsHeld): the amount held is shown with the round.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import duckdb

from contracts.money import format_money

QUERY = """
SELECT c.table_id, c.round_id, c.kind, c.dealer_result, c.read_result, c.reason, c.detail,
       c.confidence, c.declared_at, c.hold_deadline, c.evidence_sha256, c.check_id,
       h.held, h.currency, h.release
FROM round_checks c LEFT JOIN payout_holds h ON h.check_id = c.check_id
WHERE c.status = 'verification' ORDER BY c.hold_deadline, c.round_id
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
    held: int | None = None       # winning payouts held by the table service, minor units
    currency: str | None = None
    release: str | None = None    # EXPIRED once the table service paid them at 30 minutes

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
    paid_delta: int | None = None  # what the re-settlement changed; None: not re-settled
    currency: str | None = None
    bets_changed: int = 0

    def money(self) -> str:
        """What the correction means for the cage, in words."""
        if self.paid_delta is None:
            return "not re-settled (no table service runs this table)"
        if self.paid_delta == 0:
            return "no payout changes"
        amount = format_money(abs(self.paid_delta), self.currency or "")
        return (f"players owed {amount} more" if self.paid_delta > 0
                else f"players were paid {amount} too much")


CORRECTIONS = """
SELECT c.table_id, c.round_id, c.dealer_result, c.resolved_result, c.resolved_by,
       c.resolved_at, c.within_hold, c.resolution_note, r.paid_delta, t.currency,
       (SELECT count(*) FROM settlement_corrections s WHERE s.round_id = c.round_id)
FROM round_checks c LEFT JOIN rounds r ON r.round_id = c.round_id
     LEFT JOIN tables t ON t.table_id = c.table_id
WHERE c.status = 'resolved' AND c.outcome = 'CORRECTED'
ORDER BY c.resolved_at DESC, c.round_id
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
    if hold.release == "EXPIRED":
        return "30 min passed: released"
    if hold.expired(now):
        return "30 min passed: pay now"
    left = hold.seconds_left(now)
    return f"{left // 60} min {left % 60:02d} s"


def render_holds(holds: list[Hold], counts: dict[str, int], now: datetime | None = None,
                 corrections: Sequence[Correction] = ()) -> str:
    now = now or datetime.now(UTC)
    lines = [f"CCTV checks: {counts.get('confirmed', 0)} confirmed by camera, "
             f"{counts.get('verification', 0)} sent to surveillance, "
             f"{counts.get('pending', 0)} waiting for a frame or a result; "
             f"resolved by surveillance: {counts.get('upheld', 0)} upheld, "
             f"{counts.get('corrected', 0)} corrected",
             "Winning payouts of a round under verification may be held at most 30 minutes "
             "(seed 002 §1.3; seed 004 RG §6).", ""]
    head = (f"{'table':<9}{'round':<14}{'dealer':>7}{'camera':>13}  {'why':<15}{'held':>18}  "
            f"{'left':<26}{'evidence':<14}check id")
    lines.append(head)
    for h in holds:
        held = format_money(h.held, h.currency or "") if h.held is not None else "—"
        lines.append(f"{h.table_id:<9}{h.round_id:<14}{h.dealer_result:>7}"
                     f"{h.camera_read or 'no decision':>13}  {h.reason:<15}{held:>18}  "
                     f"{time_left(h, now):<26}{h.evidence_sha256[:12]}  {h.check_id}")
    if not holds:
        lines.append("(no round is under verification)")
    return "\n".join(lines + render_corrections(corrections))


def render_corrections(corrections: Sequence[Correction]) -> list[str]:
    if not corrections:
        return []
    lines = ["", "Corrected by surveillance: these rounds were settled on the dealer's result; "
                 "the table service re-settled them on the CCTV result.",
             f"{'table':<9}{'round':<14}{'dealer':>7}{'CCTV':>7}  {'by':<12}{'when':<27}"
             f"{'hold':<15}{'bets':>5}  payouts"]
    for c in corrections:
        lines.append(f"{c.table_id:<9}{c.round_id:<14}{c.dealer_result:>7}{c.cctv_result:>7}  "
                     f"{c.resolved_by:<12}{c.resolved_at.isoformat(timespec='seconds'):<27}"
                     f"{'within 30 min' if c.within_hold else 'after 30 min':<15}"
                     f"{c.bets_changed:>5}  {c.money()}")
    return lines

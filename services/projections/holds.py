"""CCTV payout holds: rounds sent to the surveillance room and how long their winning payouts
may still be held.

A casino may hold a winning payout while it checks the result on CCTV, never longer than 30
minutes from the dealer's declaration (seed 002 §1.3; seed 004 RG §6); the house may run a
shorter limit (the vision service's --hold-minutes), which the report shows. A hold whose
deadline has passed must be paid now: the report says so instead of a negative time left, and
a hold released after its deadline shows by how much (release time − deadline). A round the
table held nothing for (no winners, or asked after the deadline) is a review after payment.

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
       h.held, h.currency, h.release, h.released_at, h.within_hold, h.not_held,
       epoch(c.hold_deadline) - epoch(c.declared_at)
FROM round_checks c LEFT JOIN payout_holds h ON h.check_id = c.check_id
WHERE c.status = 'verification' ORDER BY c.hold_deadline, c.round_id
"""


def late_by(released_at: datetime | None, deadline: datetime) -> float:
    """How many seconds after its deadline a hold was released (0: on time or not yet)."""
    if released_at is None:
        return 0.0
    return max(0.0, round((released_at - deadline).total_seconds(), 3))


def limit_text(seconds: float | None) -> str:
    """A hold limit as people say it: "30 min", "1 min", "90 s" ("?" when not known)."""
    if seconds is None:
        return "?"
    whole = int(round(seconds))
    return f"{whole // 60} min" if whole % 60 == 0 else f"{whole} s"


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
    release: str | None = None    # EXPIRED once the table service paid them at the deadline;
    #                               NOT_HELD when it held nothing (see not_held)
    released_at: datetime | None = None
    within_hold: bool | None = None   # released by the deadline
    not_held: str | None = None   # DEADLINE_PASSED / NOTHING_TO_HOLD: a review after payment
    hold_limit_seconds: float | None = None  # the house's limit this check was held under

    def seconds_left(self, now: datetime) -> int:
        return max(0, int((self.hold_deadline - now).total_seconds()))

    def expired(self, now: datetime) -> bool:
        return now >= self.hold_deadline

    @property
    def late_seconds(self) -> float:
        return late_by(self.released_at, self.hold_deadline)

    def to_dict(self, now: datetime) -> dict[str, Any]:
        out = {k: (v.isoformat() if isinstance(v, datetime) else v)
               for k, v in self.__dict__.items()}
        return {**out, "seconds_left": self.seconds_left(now), "expired": self.expired(now),
                "late_seconds": self.late_seconds}


@dataclass(frozen=True)
class Release:
    """A hold the table service released (or a round it held nothing for), with when and how
    late: the regulation's limit is the deadline, not the time the release got written."""

    table_id: str
    round_id: str
    check_id: str
    release: str              # UPHELD, CORRECTED, EXPIRED
    released: int
    currency: str
    deadline: datetime
    released_at: datetime
    within_hold: bool
    released_by: str
    hold_limit_seconds: float | None = None

    @property
    def late_seconds(self) -> float:
        return late_by(self.released_at, self.deadline)

    def to_dict(self) -> dict[str, Any]:
        out = {k: (v.isoformat() if isinstance(v, datetime) else v)
               for k, v in self.__dict__.items()}
        return {**out, "late_seconds": self.late_seconds}


RELEASES = """
SELECT h.table_id, h.round_id, h.check_id, h.release, h.released, h.currency, h.deadline,
       h.released_at, h.within_hold, h.released_by,
       epoch(c.hold_deadline) - epoch(c.declared_at)
FROM payout_holds h LEFT JOIN round_checks c ON c.check_id = h.check_id
WHERE h.released_at IS NOT NULL {late}
ORDER BY h.released_at DESC, h.round_id LIMIT ?
"""


def releases_report(con: duckdb.DuckDBPyConnection, limit: int = 20, *,
                    late_only: bool = False) -> list[Release]:
    """The latest released holds (or only the ones released after their deadline)."""
    sql = RELEASES.format(late="AND h.released_at > h.deadline" if late_only else "")
    return [Release(*row) for row in con.execute(sql, [limit]).fetchall()]


def house_limit(con: duckdb.DuckDBPyConnection) -> float | None:
    """The house's hold limit in seconds, as the latest verification carries it (the vision
    service's --hold-minutes; the seeds cap it at 30 minutes). None before any verification."""
    row = con.execute("SELECT epoch(hold_deadline) - epoch(declared_at) FROM round_checks "
                      "WHERE hold_deadline IS NOT NULL AND declared_at IS NOT NULL "
                      "ORDER BY decided_at DESC NULLS LAST LIMIT 1").fetchone()
    return None if row is None else float(row[0])


@dataclass(frozen=True)
class Correction:
    """A round whose dealer result surveillance corrected: its payouts were settled wrongly."""

    table_id: str
    round_id: str
    dealer_result: str
    cctv_result: str
    resolved_by: str
    resolved_at: datetime
    within_hold: bool         # decided while the payouts were still held (not after payment)
    note: str
    paid_delta: int | None = None  # what the re-settlement changed; None: not re-settled
    currency: str | None = None
    bets_changed: int = 0
    for_pit_manager: int = 0  # bets not re-settled, left to the pit manager (craps)
    game_note: str | None = None  # what the wrong result changed in the game's state

    def money(self) -> str:
        """What the correction means for the cage, in words."""
        if self.paid_delta is None:
            return "not re-settled (no table service runs this table)"
        if self.paid_delta == 0:
            text = "no payout changes"
        else:
            amount = format_money(abs(self.paid_delta), self.currency or "")
            text = (f"players owed {amount} more" if self.paid_delta > 0
                    else f"players were paid {amount} too much")
        if self.for_pit_manager:
            text += f"; {self.for_pit_manager} bets for the pit manager to decide"
        return text


@dataclass(frozen=True)
class PitReview:
    """A bet a corrected roll could not re-settle exactly: the pit manager decides it."""

    table_id: str
    round_id: str
    bet_id: str
    seat: int
    player_id: str
    kind: str
    stake: int
    outcome_called: str | None
    paid_called: int
    outcome_true: str | None
    paid_true: int | None
    later_round: str | None
    later_paid: int | None
    reason: str
    currency: str | None = None

    def line(self) -> str:
        def did(outcome: str | None, paid: int | None) -> str:
            if outcome is None:
                return "working"
            return f"{outcome} {format_money(paid or 0, self.currency or '')}"
        later = "" if self.later_round is None else (
            f", later {self.later_round} paid {format_money(self.later_paid or 0, '')}")
        return (f"{self.table_id:<9}{self.round_id:<14}{self.bet_id:<10}{self.seat:>4}  "
                f"{self.kind:<12}called: {did(self.outcome_called, self.paid_called)}; "
                f"true: {did(self.outcome_true, self.paid_true)}{later}")


CORRECTIONS = """
SELECT c.table_id, c.round_id, c.dealer_result, c.resolved_result, c.resolved_by,
       c.resolved_at, coalesce(NOT r.corrected_after_payment, c.within_hold),
       c.resolution_note, r.paid_delta, t.currency,
       (SELECT count(*) FROM settlement_corrections s WHERE s.round_id = c.round_id),
       (SELECT count(*) FROM pit_manager_reviews v WHERE v.round_id = c.round_id),
       nullif(r.correction_note, '')
FROM round_checks c LEFT JOIN rounds r ON r.round_id = c.round_id
     LEFT JOIN tables t ON t.table_id = c.table_id
WHERE c.status = 'resolved' AND c.outcome = 'CORRECTED'
ORDER BY c.resolved_at DESC, c.round_id
"""


REVIEWS = """
SELECT v.table_id, v.round_id, v.bet_id, v.seat, v.player_id, v.kind, v.stake,
       v.outcome_called, v.paid_called, v.outcome_true, v.paid_true, v.later_round,
       v.later_paid, v.reason, t.currency
FROM pit_manager_reviews v LEFT JOIN tables t ON t.table_id = v.table_id
ORDER BY v.corrected_at DESC, v.round_id, v.bet_id
"""


def pit_reviews_report(con: duckdb.DuckDBPyConnection) -> list[PitReview]:
    """Bets corrected rolls left to the pit manager, the latest correction first."""
    return [PitReview(*row) for row in con.execute(REVIEWS).fetchall()]


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


NOT_HELD_TEXT = {"DEADLINE_PASSED": "not held: asked after the deadline; review after payment",
                 "NOTHING_TO_HOLD": "not held: no winning payouts"}


def release_text(released_at: datetime, late_seconds: float) -> str:
    when = released_at.astimezone(UTC).strftime("%H:%M:%S")
    return f"released {when}, {late_seconds:g} s LATE" if late_seconds > 0 else \
        f"released {when}, on time"


def time_left(hold: Hold, now: datetime) -> str:
    if hold.not_held is not None:
        return NOT_HELD_TEXT.get(hold.not_held, f"not held: {hold.not_held}")
    if hold.released_at is not None:
        return release_text(hold.released_at, hold.late_seconds)
    if hold.expired(now):
        return "limit passed: pay now"
    left = hold.seconds_left(now)
    return f"{left // 60} min {left % 60:02d} s"


def limit_line(limit_seconds: float | None) -> str:
    house = ("no verification yet" if limit_seconds is None
             else f"the house holds {limit_text(limit_seconds)}")
    return (f"Winning payouts of a round under verification are held until the deadline: "
            f"{house}; the seeds allow at most 30 min (seed 002 §1.3; seed 004 RG §6).")


def render_holds(holds: list[Hold], counts: dict[str, int], now: datetime | None = None,
                 corrections: Sequence[Correction] = (), *, limit_seconds: float | None = None,
                 releases: Sequence[Release] = (), reviews: Sequence[PitReview] = ()) -> str:
    now = now or datetime.now(UTC)
    lines = [f"CCTV checks: {counts.get('confirmed', 0)} confirmed by camera, "
             f"{counts.get('verification', 0)} sent to surveillance, "
             f"{counts.get('pending', 0)} waiting for a frame or a result; "
             f"resolved by surveillance: {counts.get('upheld', 0)} upheld, "
             f"{counts.get('corrected', 0)} corrected",
             limit_line(limit_seconds), ""]
    head = (f"{'table':<9}{'round':<14}{'dealer':>7}{'camera':>13}  {'why':<15}{'held':>18}  "
            f"{'left':<58}{'evidence':<14}check id")
    lines.append(head)
    for h in holds:
        held = format_money(h.held, h.currency or "") if h.held is not None else "—"
        lines.append(f"{h.table_id:<9}{h.round_id:<14}{h.dealer_result:>7}"
                     f"{h.camera_read or 'no decision':>13}  {h.reason:<15}{held:>18}  "
                     f"{time_left(h, now):<58}{h.evidence_sha256[:12]}  {h.check_id}")
    if not holds:
        lines.append("(no round is under verification)")
    return "\n".join(lines + render_releases(releases) + render_corrections(corrections)
                     + render_reviews(reviews))


def render_releases(releases: Sequence[Release]) -> list[str]:
    """The latest released holds, each with its deadline, release time and any lateness."""
    if not releases:
        return []
    late = sum(r.late_seconds > 0 for r in releases)
    lines = ["", f"Released holds (latest {len(releases)}; {late} released after the deadline):",
             f"{'table':<9}{'round':<14}{'how':<10}{'released':>18}  {'limit':<7}"
             f"{'deadline':<27}{'released at':<27}{'within':<7}{'late':>12}  by"]
    for r in releases:
        lines.append(
            f"{r.table_id:<9}{r.round_id:<14}{r.release:<10}"
            f"{format_money(r.released, r.currency):>18}  {limit_text(r.hold_limit_seconds):<7}"
            f"{r.deadline.isoformat(timespec='seconds'):<27}"
            f"{r.released_at.isoformat(timespec='seconds'):<27}"
            f"{'yes' if r.within_hold else 'NO':<7}"
            f"{(f'{r.late_seconds:g} s LATE' if r.late_seconds else '—'):>12}  {r.released_by}")
    return lines


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
                     f"{'within hold' if c.within_hold else 'after payment':<15}"
                     f"{c.bets_changed:>5}  {c.money()}")
        if c.game_note:
            lines.append(f"{'':<9}{c.game_note}")
    return lines


def render_reviews(reviews: Sequence[PitReview]) -> list[str]:
    """The bets corrected rolls could not re-settle (the state the wrong call left for later
    rolls): nothing was paid or recovered for them; the pit manager decides each."""
    if not reviews:
        return []
    return ["", "For the pit manager: bets a corrected roll could not re-settle (later rolls "
                "were played on the wrong call); nothing paid or recovered for them.",
            *(r.line() for r in reviews)]

"""Fold table events into the reporting tables. Idempotent: an event already applied (same
aggregate sequence) is skipped, so replaying the log gives the same tables; a gap in an
aggregate's sequence is refused, never silently applied."""
from __future__ import annotations

import json
from collections.abc import Iterable
from functools import singledispatch

import duckdb

from contracts.deadletter import DeadLetter
from contracts.envelope import Event
from contracts.payouts import PayoutsHeld, PayoutsReleased, SettlementCorrected
from contracts.table import (
    BetPlaced,
    BetRejected,
    BetsClosed,
    BetSettled,
    CommandRejected,
    LimitsChanged,
    PlayerLeft,
    PlayerSeated,
    RoundOpened,
    RoundSettled,
    SpinResulted,
    TableClosed,
    TableOpened,
)
from contracts.vision import (
    DealerResultNoted,
    ResolutionRefused,
    ResultConfirmed,
    ResultRead,
    VerificationRequested,
    VerificationResolved,
)
from services.runtime.sequence import SequenceGuard, Verdict


class SequenceGap(Exception):
    def __init__(self, aggregate_id: str, expected: int, got: int) -> None:
        super().__init__(f"aggregate {aggregate_id}: expected sequence {expected}, got {got}")
        self.expected, self.got = expected, got


class ProjectionBatch:
    """Applies events inside one transaction. Per-row round trips to DuckDB were what limited
    the projector (about 5 ms per event), so the high-volume rows — raw events, bets placed and
    settled, aggregate positions — are buffered and written in a few multi-row statements at
    `flush`; the rest (tables, rounds) are written as their events come."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.guard = SequenceGuard(dict(con.execute("SELECT * FROM positions").fetchall()))
        self._events: list[list[object]] = []
        self.bets_placed: list[list[object]] = []
        # by bet id: a stake «en prisión» is settled twice (prison, then the next spin's
        # decision), possibly in one batch, and only its last state may reach the row
        self.bets_settled: dict[str, list[object]] = {}
        self._moved: set[str] = set()

    def apply(self, event: Event) -> bool:
        """Apply one event; False when it was a duplicate. Raises SequenceGap on a gap."""
        verdict = self.guard.check(event.aggregate_id, event.sequence)
        if verdict is Verdict.DUPLICATE:
            return False
        if verdict is Verdict.GAP:
            raise SequenceGap(event.aggregate_id, self.guard.expected(event.aggregate_id),
                              event.sequence)
        project(event, self)
        self._events.append([event.event_id, event.event_type, event.aggregate_id,
                             event.sequence, event.occurred_at, event.recorded_at,
                             event.producer, event.model_dump_json()])
        self.guard.advance(event.aggregate_id, event.sequence)
        self._moved.add(event.aggregate_id)
        return True

    def flush(self) -> None:
        """Write the buffered rows: inserts before the updates that may target them."""
        _many(self.con, "INSERT INTO events VALUES {}", self._events)
        _many(self.con, "INSERT INTO bets (bet_id, round_id, table_id, seat, player_id, kind, "
                        "selection, stake, currency, placed_at, excess_returned, limit_rule) "
                        "VALUES {}", self.bets_placed)
        _many(self.con, "UPDATE bets SET paid = v.paid, net = v.net, outcome = v.outcome, "
                        "rule = v.rule, "
                        "settled_at = coalesce(v.settled_at::TIMESTAMPTZ, bets.settled_at) "
                        "FROM (VALUES {}) "
                        "AS v(bet_id, paid, net, outcome, rule, settled_at) "
                        "WHERE bets.bet_id = v.bet_id", list(self.bets_settled.values()))
        _many(self.con, "INSERT OR REPLACE INTO positions VALUES {}",
              [[a, self.guard.positions[a]] for a in sorted(self._moved)])
        self._events, self.bets_placed, self.bets_settled, self._moved = [], [], {}, set()


def _many(con: duckdb.DuckDBPyConnection, sql: str, rows: list[list[object]],
          chunk: int = 200) -> None:
    """Run `sql` with its VALUES list ({}) filled by `rows`, `chunk` rows per statement."""
    for i in range(0, len(rows), chunk):
        part = rows[i:i + chunk]
        marks = ", ".join(["(" + ", ".join(["?"] * len(part[0])) + ")"] * len(part))
        con.execute(sql.format(marks), [value for row in part for value in row])


def apply_events(con: duckdb.DuckDBPyConnection, events: Iterable[Event]) -> int:
    """Apply events in one batch (caller's transaction); returns how many were new."""
    batch = ProjectionBatch(con)
    applied = sum(batch.apply(e) for e in events)
    batch.flush()
    return applied


def apply_dead_letter(con: duckdb.DuckDBPyConnection, letter: DeadLetter) -> None:
    con.execute("INSERT OR IGNORE INTO dead_letters VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [letter.dead_letter_id, letter.failed_at, letter.service, letter.source_topic,
                 letter.partition, letter.offset, letter.code, letter.reason])


@singledispatch
def project(event: Event, batch: ProjectionBatch) -> None:
    """Events with no reporting table of their own are kept in `events` only."""


def _bet_limits(bet_limits: dict) -> str:
    return json.dumps({k: v.model_dump() for k, v in bet_limits.items()}, sort_keys=True)


@project.register
def _(e: TableOpened, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute(
        "INSERT INTO tables (table_id, game, wheel, profile, currency, min_bet, max_bet, "
        "opened_at, variant, seats, seating, bet_limits) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [e.aggregate_id, p.game, p.variant if p.game == "roulette" else None, p.profile,
         p.currency, p.min_bet, p.max_bet, e.occurred_at, p.variant, p.seats, p.seating,
         _bet_limits(p.bet_limits)])


@project.register
def _(e: LimitsChanged, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("UPDATE tables SET min_bet = ?, max_bet = ?, bet_limits = ? "
                      "WHERE table_id = ?",
                      [p.min_bet, p.max_bet, _bet_limits(p.bet_limits), e.aggregate_id])


@project.register
def _(e: PlayerSeated, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("INSERT INTO seatings (table_id, seat, player_id, seated_at) "
                      "VALUES (?, ?, ?, ?)", [e.aggregate_id, p.seat, p.player_id, e.occurred_at])


@project.register
def _(e: PlayerLeft, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("UPDATE seatings SET left_at = ?, left_reason = ?, rounds_not_played = ?, "
                      "rule = ? WHERE table_id = ? AND seat = ? AND player_id = ? "
                      "AND left_at IS NULL",
                      [e.occurred_at, p.reason, p.rounds_not_played, p.rule, e.aggregate_id,
                       p.seat, p.player_id])


@project.register
def _(e: TableClosed, batch: ProjectionBatch) -> None:
    con = batch.con
    con.execute("UPDATE tables SET closed_at = ? WHERE table_id = ?",
                [e.occurred_at, e.aggregate_id])


@project.register
def _(e: RoundOpened, batch: ProjectionBatch) -> None:
    con = batch.con
    con.execute("INSERT INTO rounds (round_id, table_id, round_number, opened_at) "
                "VALUES (?, ?, ?, ?)",
                [e.payload.round_id, e.aggregate_id, e.payload.round_number, e.occurred_at])


@project.register
def _(e: BetsClosed, batch: ProjectionBatch) -> None:
    con = batch.con
    con.execute("UPDATE rounds SET closed_at = ? WHERE round_id = ?",
                [e.occurred_at, e.payload.round_id])


@project.register
def _(e: SpinResulted, batch: ProjectionBatch) -> None:
    con = batch.con
    con.execute("UPDATE rounds SET pocket = ? WHERE round_id = ?",
                [e.payload.pocket, e.payload.round_id])


@project.register
def _(e: BetPlaced, batch: ProjectionBatch) -> None:
    p, bet = e.payload, e.payload.bet
    selection = ",".join(bet.numbers) if bet.numbers else (str(bet.index) if bet.index else "")
    excess = p.excess_returned.amount if p.excess_returned is not None else None
    batch.bets_placed.append([p.bet_id, p.round_id, e.aggregate_id, p.seat, p.player_id, bet.kind,
                              selection, bet.stake.amount, bet.stake.currency, e.occurred_at,
                              excess, p.limit_rule or None])


@project.register
def _(e: BetSettled, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.bets_settled[p.bet_id] = [p.bet_id, p.paid.amount, p.net, p.outcome, p.rule,
                                    e.occurred_at]


@project.register
def _(e: RoundSettled, batch: ProjectionBatch) -> None:
    con = batch.con
    p = e.payload
    con.execute("UPDATE rounds SET settled_at = ?, bet_count = ?, wagered = ?, paid = ?, "
                "house_win = ? WHERE round_id = ?",
                [e.occurred_at, p.bet_count, p.wagered.amount, p.paid.amount, p.house_win,
                 p.round_id])


@project.register
def _(e: BetRejected, batch: ProjectionBatch) -> None:
    con = batch.con
    p = e.payload
    con.execute("INSERT INTO rejections VALUES (?, ?, ?, ?, 'PlaceBet', ?, ?, ?, ?, ?)",
                [e.event_id, e.aggregate_id, p.round_id, p.bet_id, p.code, p.field, p.reason,
                 p.rule, e.occurred_at])


@project.register
def _(e: CommandRejected, batch: ProjectionBatch) -> None:
    """Code COMMAND_REJECTED for a plain refusal (wrong state or value), as before; FORBIDDEN,
    NO_TABLE_ADAPTER or a seat code otherwise."""
    p = e.payload
    code = "COMMAND_REJECTED" if p.code == "REFUSED" else p.code
    batch.con.execute("INSERT INTO rejections VALUES (?, ?, NULL, NULL, ?, ?, ?, ?, '', ?)",
                      [e.event_id, e.aggregate_id, p.command_type, code, p.field, p.reason,
                       e.occurred_at])


# ----- payout holds and corrections (table service) ------------------------------------------

@project.register
def _(e: PayoutsHeld, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("INSERT OR IGNORE INTO payout_holds (round_id, table_id, check_id, reason, "
                      "held_bets, held, currency, held_at, deadline) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      [p.round_id, e.aggregate_id, p.check_id, p.reason, len(p.bet_ids),
                       p.held.amount, p.held.currency, e.occurred_at, p.deadline])


@project.register
def _(e: PayoutsReleased, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("UPDATE payout_holds SET released_at = ?, release = ?, released = ?, "
                      "within_hold = ?, released_by = ? WHERE round_id = ?",
                      [e.occurred_at, p.outcome, p.released.amount, p.within_hold,
                       p.released_by, p.round_id])


@project.register
def _(e: SettlementCorrected, batch: ProjectionBatch) -> None:
    """The round's totals and each changed bet take the corrected amounts; the corrections
    are kept bet by bet for finance, with what had been paid."""
    p = e.payload
    batch.con.execute("UPDATE rounds SET corrected_pocket = ?, paid = paid + ?, "
                      "house_win = house_win + ?, paid_delta = ? WHERE round_id = ?",
                      [p.pocket_after, p.paid_delta, p.house_win_delta, p.paid_delta, p.round_id])
    for c in p.corrections:
        batch.con.execute("INSERT OR IGNORE INTO settlement_corrections VALUES "
                          "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          [p.round_id, c.bet_id, e.aggregate_id, c.seat, c.player_id, c.kind,
                           c.stake.amount, c.paid_before.amount, c.paid_after.amount,
                           c.outcome_before, c.outcome_after, c.rule, c.decided_in,
                           p.corrected_by, e.occurred_at])
        # Through the same buffer as BetSettled, so the later of the two reaches the row. The
        # bet keeps its settlement time (None here: the row's own), so a correction made the
        # next day does not move the bet into that day's report.
        earlier = batch.bets_settled.get(c.bet_id)
        batch.bets_settled[c.bet_id] = [c.bet_id, c.paid_after.amount,
                                        c.paid_after.amount - c.stake.amount, c.outcome_after,
                                        c.rule, earlier[5] if earlier else None]


# ----- CCTV round checks (floor.vision.checks) ------------------------------------------------

def _check_row(con: duckdb.DuckDBPyConnection, check_id: str) -> None:
    con.execute("INSERT OR IGNORE INTO round_checks (check_id, status) VALUES (?, 'pending')",
                [check_id])


@project.register
def _(e: ResultRead, batch: ProjectionBatch) -> None:
    p, r = e.payload, e.payload.reading
    _check_row(batch.con, e.aggregate_id)
    read = None if r.no_decision else (r.pocket or "-".join(map(str, sorted(r.values or ()))))
    batch.con.execute("UPDATE round_checks SET table_id = coalesce(table_id, ?), kind = ?, "
                      "read_result = ?, no_decision = ?, confidence = ?, evidence_sha256 = ?, "
                      "frame_uri = ? WHERE check_id = ?",
                      [p.table_id, r.kind, read, r.no_decision, r.confidence, p.evidence_sha256,
                       p.frame_uri, e.aggregate_id])


@project.register
def _(e: DealerResultNoted, batch: ProjectionBatch) -> None:
    p = e.payload
    _check_row(batch.con, e.aggregate_id)
    batch.con.execute("UPDATE round_checks SET table_id = ?, round_id = ?, kind = ?, "
                      "dealer_result = ?, declared_at = ? WHERE check_id = ?",
                      [p.table_id, p.round_id, p.kind, p.result, p.declared_at, e.aggregate_id])


@project.register
def _(e: ResultConfirmed, batch: ProjectionBatch) -> None:
    batch.con.execute("UPDATE round_checks SET status = 'confirmed', decided_at = ? "
                      "WHERE check_id = ?", [e.occurred_at, e.aggregate_id])


@project.register
def _(e: VerificationRequested, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("UPDATE round_checks SET status = 'verification', reason = ?, detail = ?, "
                      "hold_deadline = ?, decided_at = ? WHERE check_id = ?",
                      [p.reason, p.detail, p.hold_deadline, e.occurred_at, e.aggregate_id])


@project.register
def _(e: VerificationResolved, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("UPDATE round_checks SET status = 'resolved', outcome = ?, "
                      "resolved_result = ?, resolved_by = ?, resolved_at = ?, within_hold = ?, "
                      "resolution_note = ? WHERE check_id = ?",
                      [p.outcome, p.result, p.resolved_by, p.resolved_at, p.within_hold, p.note,
                       e.aggregate_id])


@project.register
def _(e: ResolutionRefused, batch: ProjectionBatch) -> None:
    # With the table's refusals, so the dashboard's "recent refusals" shows it too.
    p = e.payload
    batch.con.execute("INSERT INTO rejections SELECT ?, table_id, round_id, NULL, ?, "
                      "'RESOLUTION_REFUSED', ?, ?, '', ? FROM round_checks WHERE check_id = ?",
                      [e.event_id, p.command_type, p.field, p.reason, e.occurred_at,
                       e.aggregate_id])

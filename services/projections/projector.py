"""Fold table events into the reporting tables. Idempotent: an event already applied (same
aggregate sequence) is skipped, so replaying the log gives the same tables; a gap in an
aggregate's sequence is refused, never silently applied."""
from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from functools import singledispatch

import duckdb
import numpy as np

from contracts.deadletter import DeadLetter
from contracts.envelope import Event
from contracts.payouts import PayoutsHeld, PayoutsNotHeld, PayoutsReleased, SettlementCorrected
from contracts.table import (
    BetChanged,
    BetPlaced,
    BetRejected,
    BetsClosed,
    BetSettled,
    CommandRejected,
    DiceRolled,
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
    the projector (a few ms per statement), so the high-volume rows — raw events, rounds, bets
    placed and settled, aggregate positions — are buffered and written at `flush`, each kind in
    one statement over the batch's rows handed to DuckDB as numpy columns (binding thousands of
    `?` parameters cost about 0.2 ms a row; a column scan about 0.05 ms); the rare rest (tables,
    holds, checks, corrections) is written as its events come."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.guard = SequenceGuard(dict(con.execute("SELECT * FROM positions").fetchall()))
        self._events: list[list[object]] = []
        self.bets_placed: list[list[object]] = []
        # by bet id: a stake «en prisión» is settled twice (prison, then the next spin's
        # decision), possibly in one batch, and only its last state may reach the row
        self.bets_settled: dict[str, list[object]] = {}
        # by round id: the round's columns this batch set (ROUND_COLUMNS); `opened` rounds are
        # inserted, the others updated (a NULL leaves the row's value)
        self.rounds: dict[str, dict[str, object]] = {}
        self.opened: set[str] = set()
        self.rejections: list[list[object]] = []
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

    def round(self, round_id: str) -> dict[str, object]:
        """The buffered columns of a round (to set at flush)."""
        row = self.rounds.get(round_id)
        if row is None:
            row = self.rounds[round_id] = dict.fromkeys(ROUND_COLUMNS)
            row["round_id"] = round_id
        return row

    def flush_rounds(self) -> None:
        """Write the buffered rounds now (before a statement that reads or adds to them)."""
        opened = [[r[c] for c in ROUND_COLUMNS] for rid, r in self.rounds.items()
                  if rid in self.opened]
        changed = [[r[c] for c in ROUND_COLUMNS] for rid, r in self.rounds.items()
                   if rid not in self.opened]
        _write(self.con, "INSERT INTO rounds (" + ", ".join(ROUND_COLUMNS) + ") SELECT " +
               ", ".join(f"v.{c}::{t}" for c, t in ROUND_COLUMNS.items()) + " FROM v",
               ROUND_COLUMNS, opened)
        _write(self.con, "UPDATE rounds SET " + ", ".join(
            f"{c} = coalesce(v.{c}::{t}, rounds.{c})" for c, t in ROUND_COLUMNS.items()
            if c not in ("round_id", "table_id", "round_number", "opened_at")) +
            " FROM v WHERE rounds.round_id = v.round_id", ROUND_COLUMNS, changed)
        self.rounds, self.opened = {}, set()

    def flush(self) -> None:
        """Write the buffered rows: inserts before the updates that may target them."""
        _write(self.con, "INSERT INTO events SELECT event_id, event_type, aggregate_id, "
                         "sequence::BIGINT, occurred_at::TIMESTAMPTZ, recorded_at::TIMESTAMPTZ, "
                         "producer, body FROM v",
               ("event_id", "event_type", "aggregate_id", "sequence", "occurred_at",
                "recorded_at", "producer", "body"), self._events)
        _write(self.con, "INSERT INTO bets (bet_id, round_id, table_id, seat, player_id, kind, "
                         "selection, stake, currency, placed_at, excess_returned, limit_rule) "
                         "SELECT bet_id, round_id, table_id, seat::INTEGER, player_id, kind, "
                         "selection, stake::BIGINT, currency, placed_at::TIMESTAMPTZ, "
                         "excess_returned::BIGINT, limit_rule::VARCHAR FROM v",
               ("bet_id", "round_id", "table_id", "seat", "player_id", "kind", "selection",
                "stake", "currency", "placed_at", "excess_returned", "limit_rule"),
               self.bets_placed)
        self.flush_rounds()
        _write(self.con, "INSERT INTO rejections SELECT event_id, table_id, round_id::VARCHAR, "
                         "bet_id::VARCHAR, command_type, code, field, reason, rule, "
                         "rejected_at::TIMESTAMPTZ FROM v", REJECTION_COLUMNS, self.rejections)
        _write(self.con, "UPDATE bets SET paid = v.paid::BIGINT, net = v.net::BIGINT, "
                         "outcome = v.outcome::VARCHAR, rule = v.rule::VARCHAR, "
                         "settled_at = coalesce(v.settled_at::TIMESTAMPTZ, bets.settled_at) "
                         "FROM v WHERE bets.bet_id = v.bet_id",
               ("bet_id", "paid", "net", "outcome", "rule", "settled_at"),
               list(self.bets_settled.values()))
        _write(self.con, "INSERT OR REPLACE INTO positions SELECT aggregate_id, "
                         "sequence::BIGINT FROM v", ("aggregate_id", "sequence"),
               [[a, self.guard.positions[a]] for a in sorted(self._moved)])
        self._events, self.bets_placed, self.bets_settled, self._moved = [], [], {}, set()
        self.rejections = []


REJECTION_COLUMNS = ("event_id", "table_id", "round_id", "bet_id", "command_type", "code", "field",
                     "reason", "rule", "rejected_at")
# The columns of `rounds` its buffered rows carry, with their types.
ROUND_COLUMNS = {"round_id": "VARCHAR", "table_id": "VARCHAR", "round_number": "BIGINT",
                 "opened_at": "TIMESTAMPTZ", "closed_at": "TIMESTAMPTZ", "pocket": "VARCHAR",
                 "settled_at": "TIMESTAMPTZ", "bet_count": "BIGINT", "wagered": "BIGINT",
                 "paid": "BIGINT", "house_win": "BIGINT"}


def _write(con: duckdb.DuckDBPyConnection, sql: str, names: Iterable[str],
           rows: list[list[object]]) -> None:
    """Run `sql` (one statement) over `rows`, seen by it as the relation `v` with columns
    `names`. The SQL casts each column to its type: a column of whole numbers with NULLs is
    handed over as text, so nothing is narrowed by DuckDB's guess of the type."""
    if not rows:
        return
    columns = {name: _column([row[i] for row in rows]) for i, name in enumerate(names)}
    con.register("v", columns)
    try:
        con.execute(sql)
    finally:
        # after a failed statement the transaction is aborted and unregister fails too: that
        # error must not hide the statement's own (a constraint names the duplicate key)
        with contextlib.suppress(duckdb.Error):
            con.unregister("v")


def _column(values: list[object]) -> np.ndarray:
    if all(type(v) is int for v in values):
        return np.array(values, dtype=np.int64)
    if any(type(v) is int for v in values):
        return np.array([None if v is None else str(v) for v in values], dtype=object)
    column = np.empty(len(values), dtype=object)
    column[:] = values
    return column


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
    if e.payload.round_id in batch.rounds:   # written before (or twice): as it comes
        batch.flush_rounds()
    batch.round(e.payload.round_id).update(table_id=e.aggregate_id,
                                           round_number=e.payload.round_number,
                                           opened_at=e.occurred_at)
    batch.opened.add(e.payload.round_id)


@project.register
def _(e: BetsClosed, batch: ProjectionBatch) -> None:
    batch.round(e.payload.round_id)["closed_at"] = e.occurred_at


@project.register
def _(e: SpinResulted, batch: ProjectionBatch) -> None:
    batch.round(e.payload.round_id)["pocket"] = e.payload.pocket


@project.register
def _(e: BetPlaced, batch: ProjectionBatch) -> None:
    p, bet = e.payload, e.payload.bet
    selection = ",".join(bet.numbers) if bet.numbers else (str(bet.index) if bet.index else "")
    if bet.on is not None:  # craps odds: the line bet they back
        selection = f"on {bet.on}"
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
    p = e.payload
    batch.round(p.round_id).update(settled_at=e.occurred_at, bet_count=p.bet_count,
                                   wagered=p.wagered.amount, paid=p.paid.amount,
                                   house_win=p.house_win)


@project.register
def _(e: BetRejected, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.rejections.append([e.event_id, e.aggregate_id, p.round_id, p.bet_id, "PlaceBet",
                             p.code, p.field, p.reason, p.rule, e.occurred_at])


@project.register
def _(e: CommandRejected, batch: ProjectionBatch) -> None:
    """Code COMMAND_REJECTED for a plain refusal (wrong state or value), as before; FORBIDDEN,
    NO_TABLE_ADAPTER or a seat code otherwise."""
    p = e.payload
    code = "COMMAND_REJECTED" if p.code == "REFUSED" else p.code
    batch.rejections.append([e.event_id, e.aggregate_id, None, None, p.command_type,
                             code, p.field, p.reason, p.rule, e.occurred_at])


# ----- craps: one roll a round, bets that stay on the layout across rolls --------------------

@project.register
def _(e: DiceRolled, batch: ProjectionBatch) -> None:
    """The roll's dice are the round's result ("3+4" in `rounds.pocket`)."""
    batch.round(e.payload.round_id)["pocket"] = e.payload.result


@project.register
def _(e: BetChanged, batch: ProjectionBatch) -> None:
    """A craps bet reduced or increased between rolls: its stake is what plays from now on
    (what went back to the player was never wagered). The bet may still be in this batch's
    buffer of placed bets, or written by an earlier batch."""
    p = e.payload
    for row in batch.bets_placed:
        if row[0] == p.bet_id and row[2] == e.aggregate_id:
            row[7] = p.amount
            return
    batch.con.execute("UPDATE bets SET stake = ? WHERE bet_id = ? AND table_id = ?",
                      [p.amount, p.bet_id, e.aggregate_id])


# ----- payout holds and corrections (table service) ------------------------------------------

@project.register
def _(e: PayoutsHeld, batch: ProjectionBatch) -> None:
    p = e.payload
    batch.con.execute("INSERT OR IGNORE INTO payout_holds (round_id, table_id, check_id, reason, "
                      "held_bets, held, currency, held_at, deadline, answered_at) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      [p.round_id, e.aggregate_id, p.check_id, p.reason, len(p.bet_ids),
                       p.held.amount, p.held.currency, e.occurred_at, p.deadline,
                       e.occurred_at])


@project.register
def _(e: PayoutsNotHeld, batch: ProjectionBatch) -> None:
    """Nothing held: the winners were paid as settled (`released`), the check is a review
    after payment; `not_held` says why."""
    p = e.payload
    batch.con.execute("INSERT OR IGNORE INTO payout_holds (round_id, table_id, check_id, reason, "
                      "held_bets, held, currency, deadline, answered_at, not_held, release, "
                      "released) VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, ?, 'NOT_HELD', ?)",
                      [p.round_id, e.aggregate_id, p.check_id, p.reason, p.paid.currency,
                       p.deadline, e.occurred_at, p.why, p.paid.amount])


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
    batch.flush_rounds()  # it adds to the round's paid and house_win
    batch.con.execute("UPDATE rounds SET corrected_pocket = ?, paid = paid + ?, "
                      "house_win = house_win + ?, paid_delta = ?, corrected_after_payment = ? "
                      "WHERE round_id = ?",
                      [p.pocket_after, p.paid_delta, p.house_win_delta, p.paid_delta,
                       p.after_payment, p.round_id])
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

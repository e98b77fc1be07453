"""Fold table events into the reporting tables. Idempotent: an event already applied (same
aggregate sequence, same bytes) is skipped, so replaying the log gives the same tables; a gap in
an aggregate's sequence is refused, never silently applied.

The hash chain is checked as events come (services/runtime/sequence.py): a different event at a
sequence already applied (a fork: two writers of one table), or one whose chain link does not
hold (a rewritten event), is never applied nor dropped silently. It is recorded in
`stream_forks` with both hashes (the StreamForked alarm: the dashboard, `casino report forks`,
and the table's figures marked unreliable) and refused (`StreamForked`), which the projector
dead-letters with code `fork` or `broken_chain`. A supervisor's StreamForkResolved clears it."""
from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from functools import singledispatch

import duckdb
import numpy as np

from contracts.audit import StreamForkResolved
from contracts.chain import link_of, wire_of
from contracts.deadletter import DeadLetter, DeadLetterCode
from contracts.envelope import Event
from contracts.payouts import PayoutsHeld, PayoutsNotHeld, PayoutsReleased, SettlementCorrected
from contracts.permissions import RESOLVE_FORK, may
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
from services.runtime.sequence import Judgement, SequenceGuard, Verdict


class SequenceGap(Exception):
    def __init__(self, aggregate_id: str, expected: int, got: int) -> None:
        super().__init__(f"aggregate {aggregate_id}: expected sequence {expected}, got {got}")
        self.expected, self.got = expected, got


class StreamForked(Exception):
    """An event refused because its aggregate's stream forked or its chain broke there; the
    alarm is already recorded in `stream_forks`."""

    def __init__(self, event: Event, judged: Judgement) -> None:
        self.code: DeadLetterCode = "fork" if judged.verdict is Verdict.FORK else "broken_chain"
        self.kept, self.refused = judged.expected, judged.found
        super().__init__(f"{self.code}: {event.aggregate_id} sequence {event.sequence} "
                         f"({event.event_type}, table {event.key}): {judged.reason}; kept "
                         f"hash {self.kept}, refused hash {self.refused}")


class ForbiddenResolution(Exception):
    """A StreamForkResolved from an actor whose role may not resolve forks."""


class ProjectionBatch:
    """Applies events inside one transaction. Per-row round trips to DuckDB were what limited
    the projector (a few ms per statement), so the high-volume rows — raw events, rounds, bets
    placed and settled, aggregate positions — are buffered and written at `flush`, each kind in
    one statement over the batch's rows handed to DuckDB as numpy columns (binding thousands of
    `?` parameters cost about 0.2 ms a row; a column scan about 0.05 ms); the rare rest (tables,
    holds, checks, corrections) is written as its events come."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        positions = con.execute("SELECT aggregate_id, sequence, head FROM positions").fetchall()
        self.guard = SequenceGuard({a: s for a, s, _ in positions},
                                   {a: h for a, _, h in positions}, self._digest_at)
        self._events: list[list[object]] = []
        self.bets_placed: list[list[object]] = []
        # by (round placed in, bet id) — a bet id is unique within its round: a stake «en
        # prisión» is settled twice (prison, then the next spin's decision), possibly in one
        # batch, and only its last state may reach the row
        self.bets_settled: dict[tuple[str, str], list[object]] = {}
        # by round id: the round's columns this batch set (ROUND_COLUMNS); `opened` rounds are
        # inserted, the others updated (a NULL leaves the row's value)
        self.rounds: dict[str, dict[str, object]] = {}
        self.opened: set[str] = set()
        self.rejections: list[list[object]] = []
        self._moved: set[str] = set()
        # (table, bet id) -> the round of its latest placement in this batch: the open bet
        self.open_bets: dict[tuple[str, str], str] = {}
        self._games: dict[str, str | None] = {}
        # aggregate -> (from sequence, {sequence: digest}) of events projected before
        self._earlier: dict[str, tuple[int, dict[int, str | None]]] = {}

    def apply(self, event: Event) -> bool:
        """Apply one event; False when it was a redelivery. Raises SequenceGap on a gap and
        StreamForked (after recording the alarm) on a fork or a broken chain link."""
        wire = wire_of(event)   # the bytes it came in: hashed and kept, not encoded again
        link = link_of(event, wire)
        judged = self.guard.judge(link)
        if judged.verdict is Verdict.DUPLICATE:
            return False
        if judged.verdict is Verdict.GAP:
            raise SequenceGap(event.aggregate_id, self.guard.expected(event.aggregate_id),
                              event.sequence)
        if judged.verdict is not Verdict.APPLY:
            self.stream_forked(event, judged)
            raise StreamForked(event, judged)
        project(event, self)
        self._events.append([event.event_id, event.event_type, event.aggregate_id,
                             event.sequence, event.occurred_at, event.recorded_at,
                             event.producer, wire.decode(), link.digest])
        self.guard.advance(event.aggregate_id, event.sequence, link)
        self._moved.add(event.aggregate_id)
        return True

    def placed_in(self, table_id: str, bet_id: str, decided_in: str,
                  imprisoned_from: str | None) -> str:
        """The round a bet being decided (or changed) was placed in. A bet id is unique within
        its round, and the table refuses one still open (in the round, «en prisión», on a
        craps layout), so the open bet of that id is its latest placement at the table: one
        made in this batch, a stake in prison's round, the deciding round at a game whose
        bets are decided in their round, else the latest row written (a craps bet placed rolls
        ago)."""
        if imprisoned_from is not None:
            return imprisoned_from
        known = self.open_bets.get((table_id, bet_id))
        if known is not None:
            return known
        if self._game(table_id) not in LAYOUT_GAMES:
            return decided_in
        rows = self.con.execute(
            "SELECT b.round_id FROM bets b JOIN rounds r USING (round_id) WHERE b.table_id = ? "
            "AND b.bet_id = ? ORDER BY r.round_number DESC LIMIT 1", [table_id, bet_id]).fetchall()
        return str(rows[0][0]) if rows else decided_in

    def _game(self, table_id: str) -> str | None:
        if table_id not in self._games:
            rows = self.con.execute("SELECT game FROM tables WHERE table_id = ?",
                                    [table_id]).fetchall()
            self._games[table_id] = rows[0][0] if rows else None
        return self._games[table_id]

    def _digest_at(self, aggregate_id: str, sequence: int) -> str | None:
        """The digest of the event projected at an earlier sequence (None: not known). Copies
        come in runs (a redelivered batch, a second writer), so the digests from `sequence`
        on are read at once, one scan of `events` per aggregate and run, not per copy."""
        known = self._earlier.get(aggregate_id)
        if known is None or sequence < known[0]:
            rows = self.con.execute("SELECT sequence, digest FROM events WHERE aggregate_id = ? "
                                    "AND sequence >= ?", [aggregate_id, sequence]).fetchall()
            known = self._earlier[aggregate_id] = (sequence, dict(rows))
        return known[1].get(sequence)

    def stream_forked(self, event: Event, judged: Judgement) -> None:
        """The StreamForked alarm: kept until a supervisor resolves it."""
        self.con.execute(
            "INSERT OR IGNORE INTO stream_forks (aggregate_id, sequence, table_id, kind, "
            "kept_hash, refused_hash, event_id, event_type, reason, detected_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, now())",
            [event.aggregate_id, event.sequence, event.key, judged.verdict.value,
             judged.expected, judged.found or "(none)", event.event_id, event.event_type,
             judged.reason])

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

    def flush_bets(self) -> None:
        """Write the buffered bets placed now (before a statement that reads them)."""
        _write(self.con, "INSERT INTO bets (bet_id, round_id, table_id, seat, player_id, kind, "
                         "selection, stake, currency, placed_at, excess_returned, limit_rule) "
                         "SELECT bet_id, round_id, table_id, seat::INTEGER, player_id, kind, "
                         "selection, stake::BIGINT, currency, placed_at::TIMESTAMPTZ, "
                         "excess_returned::BIGINT, limit_rule::VARCHAR FROM v",
               ("bet_id", "round_id", "table_id", "seat", "player_id", "kind", "selection",
                "stake", "currency", "placed_at", "excess_returned", "limit_rule"),
               self.bets_placed)
        self.bets_placed = []

    def flush(self) -> None:
        """Write the buffered rows: inserts before the updates that may target them."""
        _write(self.con, "INSERT INTO events (event_id, event_type, aggregate_id, sequence, "
                         "occurred_at, recorded_at, producer, body, digest) "
                         "SELECT event_id, event_type, aggregate_id, "
                         "sequence::BIGINT, occurred_at::TIMESTAMPTZ, recorded_at::TIMESTAMPTZ, "
                         "producer, body, digest FROM v",
               ("event_id", "event_type", "aggregate_id", "sequence", "occurred_at",
                "recorded_at", "producer", "body", "digest"), self._events)
        self.flush_bets()
        self.flush_rounds()
        _write(self.con, "INSERT INTO rejections SELECT event_id, table_id, round_id::VARCHAR, "
                         "bet_id::VARCHAR, command_type, code, field, reason, rule, "
                         "rejected_at::TIMESTAMPTZ FROM v", REJECTION_COLUMNS, self.rejections)
        _write(self.con, "UPDATE bets SET paid = v.paid::BIGINT, net = v.net::BIGINT, "
                         "outcome = v.outcome::VARCHAR, rule = v.rule::VARCHAR, "
                         "settled_at = coalesce(v.settled_at::TIMESTAMPTZ, bets.settled_at) "
                         "FROM v WHERE bets.round_id = v.round_id AND bets.bet_id = v.bet_id",
               ("round_id", "bet_id", "paid", "net", "outcome", "rule", "settled_at"),
               list(self.bets_settled.values()))
        _write(self.con, "INSERT OR REPLACE INTO positions (aggregate_id, sequence, head) "
                         "SELECT aggregate_id, sequence::BIGINT, head::VARCHAR FROM v",
               ("aggregate_id", "sequence", "head"),
               [[a, self.guard.positions[a], self.guard.heads.get(a)]
                for a in sorted(self._moved)])
        self._events, self.bets_placed, self.bets_settled, self._moved = [], [], {}, set()
        self.rejections = []


# Games whose bets stay on the layout across rounds (a craps roll is a round).
LAYOUT_GAMES = frozenset({"craps", "mini_craps"})
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
    batch.open_bets[(e.aggregate_id, p.bet_id)] = p.round_id
    batch.bets_placed.append([p.bet_id, p.round_id, e.aggregate_id, p.seat, p.player_id, bet.kind,
                              selection, bet.stake.amount, bet.stake.currency, e.occurred_at,
                              excess, p.limit_rule or None])


@project.register
def _(e: BetSettled, batch: ProjectionBatch) -> None:
    p = e.payload
    placed_in = batch.placed_in(e.aggregate_id, p.bet_id, p.round_id, p.imprisoned_from)
    batch.bets_settled[(placed_in, p.bet_id)] = [placed_in, p.bet_id, p.paid.amount, p.net,
                                                 p.outcome, p.rule, e.occurred_at]


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
    for row in reversed(batch.bets_placed):   # the latest placement of the id is the open one
        if row[0] == p.bet_id and row[2] == e.aggregate_id:
            row[7] = p.amount
            return
    placed_in = batch.placed_in(e.aggregate_id, p.bet_id, p.round_id, None)
    batch.con.execute("UPDATE bets SET stake = ? WHERE round_id = ? AND bet_id = ?",
                      [p.amount, placed_in, p.bet_id])


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
    are kept bet by bet for finance, with what had been paid. The bets left to the pit
    manager (a corrected craps roll) are kept apart and change no figure."""
    p = e.payload
    batch.flush_rounds()  # it adds to the round's paid and house_win
    batch.con.execute("UPDATE rounds SET corrected_pocket = ?, paid = paid + ?, "
                      "house_win = house_win + ?, paid_delta = ?, corrected_after_payment = ?, "
                      "correction_note = ? WHERE round_id = ?",
                      [p.pocket_after, p.paid_delta, p.house_win_delta, p.paid_delta,
                       p.after_payment, p.game_note, p.round_id])
    for r in p.for_pit_manager:  # not re-settled: nothing is added to the round's figures
        batch.con.execute("INSERT OR IGNORE INTO pit_manager_reviews VALUES "
                          "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          [p.round_id, r.bet_id, e.aggregate_id, r.seat, r.player_id, r.kind,
                           r.stake.amount, r.outcome_called, r.paid_called.amount,
                           r.outcome_true, r.paid_true.amount if r.paid_true else None,
                           r.later_round, r.later_paid.amount if r.later_paid else None,
                           r.rule, r.reason, p.corrected_by, e.occurred_at])
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
        key = (_placed_in(batch, e.aggregate_id, p.round_id, c.bet_id), c.bet_id)
        earlier = batch.bets_settled.get(key)
        batch.bets_settled[key] = [*key, c.paid_after.amount,
                                   c.paid_after.amount - c.stake.amount, c.outcome_after,
                                   c.rule, earlier[6] if earlier else None]


def _placed_in(batch: ProjectionBatch, table_id: str, round_id: str, bet_id: str) -> str:
    """The round a corrected bet was placed in: the corrected round, or for a stake «en
    prisión» that round decided, the table's latest earlier round with a bet of that id (the
    table refuses a bet id while a stake with it is in prison)."""
    if any(b[0] == bet_id and b[1] == round_id for b in batch.bets_placed):
        return round_id
    if batch.bets_placed:
        batch.flush_bets()
    rows = batch.con.execute(
        "SELECT b.round_id FROM bets b JOIN rounds r USING (round_id) WHERE b.table_id = ? "
        "AND b.bet_id = ? AND r.round_number <= (SELECT round_number FROM rounds "
        "WHERE round_id = ?) ORDER BY r.round_number DESC LIMIT 1",
        [table_id, bet_id, round_id]).fetchall()
    return str(rows[0][0]) if rows else round_id


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


# ----- audit: resolutions of forked streams (floor.audit) -----------------------------------

@project.register
def _(e: StreamForkResolved, batch: ProjectionBatch) -> None:
    """Every open StreamForked alarm of the table is resolved: its figures are reliable again.
    Only a role allowed to (contracts/permissions.py) may; another's is refused, not applied."""
    if e.actor is None or not may(e.actor.role, RESOLVE_FORK):
        role = e.actor.role if e.actor else "no actor"
        raise ForbiddenResolution(f"actor.role: {role} may not resolve a forked stream "
                                  f"({RESOLVE_FORK})")
    p = e.payload
    open_alarms = batch.con.execute(
        "UPDATE stream_forks SET resolved_at = ?, resolved_by = ?, resolution_id = ? "
        "WHERE table_id = ? AND resolved_at IS NULL",
        [e.occurred_at, e.actor.employee_id, e.aggregate_id, p.table_id]).fetchall()
    batch.con.execute("INSERT OR IGNORE INTO fork_resolutions VALUES (?, ?, ?, ?, ?, ?, ?)",
                      [e.aggregate_id, p.table_id, e.actor.employee_id, e.actor.role, p.note,
                       open_alarms[0][0] if open_alarms else 0, e.occurred_at])

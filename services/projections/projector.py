"""Fold table events into the reporting tables. Idempotent: an event already applied (same
aggregate sequence) is skipped, so replaying the log gives the same tables; a gap in an
aggregate's sequence is refused, never silently applied."""
from __future__ import annotations

from functools import singledispatch

import duckdb

from contracts.deadletter import DeadLetter
from contracts.envelope import Event
from contracts.table import (
    BetPlaced, BetRejected, BetSettled, BetsClosed, CommandRejected, RoundOpened,
    RoundSettled, SpinResulted, TableClosed, TableOpened,
)
from services.runtime.sequence import Verdict


class SequenceGap(Exception):
    def __init__(self, aggregate_id: str, expected: int, got: int) -> None:
        super().__init__(f"aggregate {aggregate_id}: expected sequence {expected}, got {got}")
        self.expected, self.got = expected, got


def apply_event(con: duckdb.DuckDBPyConnection, event: Event) -> bool:
    """Apply one event inside the caller's transaction. False when it was a duplicate."""
    row = con.execute("SELECT sequence FROM positions WHERE aggregate_id = ?",
                      [event.aggregate_id]).fetchone()
    last = row[0] if row else 0
    verdict = (Verdict.DUPLICATE if event.sequence <= last else
               Verdict.APPLY if event.sequence == last + 1 else Verdict.GAP)
    if verdict is Verdict.DUPLICATE:
        return False
    if verdict is Verdict.GAP:
        raise SequenceGap(event.aggregate_id, last + 1, event.sequence)
    con.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [event.event_id, event.event_type, event.aggregate_id, event.sequence,
                 event.occurred_at, event.recorded_at, event.producer, event.model_dump_json()])
    project(event, con)
    con.execute("INSERT OR REPLACE INTO positions VALUES (?, ?)",
                [event.aggregate_id, event.sequence])
    return True


def apply_dead_letter(con: duckdb.DuckDBPyConnection, letter: DeadLetter) -> None:
    con.execute("INSERT OR IGNORE INTO dead_letters VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [letter.dead_letter_id, letter.failed_at, letter.service, letter.source_topic,
                 letter.partition, letter.offset, letter.code, letter.reason])


@singledispatch
def project(event: Event, con: duckdb.DuckDBPyConnection) -> None:
    """Events with no reporting table of their own are kept in `events` only."""


@project.register
def _(e: TableOpened, con: duckdb.DuckDBPyConnection) -> None:
    p = e.payload
    con.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                [e.aggregate_id, p.game, p.wheel, p.profile, p.currency, p.min_bet, p.max_bet,
                 e.occurred_at])


@project.register
def _(e: TableClosed, con: duckdb.DuckDBPyConnection) -> None:
    con.execute("UPDATE tables SET closed_at = ? WHERE table_id = ?", [e.occurred_at, e.aggregate_id])


@project.register
def _(e: RoundOpened, con: duckdb.DuckDBPyConnection) -> None:
    con.execute("INSERT INTO rounds (round_id, table_id, round_number, opened_at) VALUES (?, ?, ?, ?)",
                [e.payload.round_id, e.aggregate_id, e.payload.round_number, e.occurred_at])


@project.register
def _(e: BetsClosed, con: duckdb.DuckDBPyConnection) -> None:
    con.execute("UPDATE rounds SET closed_at = ? WHERE round_id = ?", [e.occurred_at, e.payload.round_id])


@project.register
def _(e: SpinResulted, con: duckdb.DuckDBPyConnection) -> None:
    con.execute("UPDATE rounds SET pocket = ? WHERE round_id = ?", [e.payload.pocket, e.payload.round_id])


@project.register
def _(e: BetPlaced, con: duckdb.DuckDBPyConnection) -> None:
    p, bet = e.payload, e.payload.bet
    selection = ",".join(bet.numbers) if bet.numbers else (str(bet.index) if bet.index else "")
    con.execute("INSERT INTO bets (bet_id, round_id, table_id, seat, player_id, kind, selection, "
                "stake, currency, placed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [p.bet_id, p.round_id, e.aggregate_id, p.seat, p.player_id, bet.kind, selection,
                 bet.stake.amount, bet.stake.currency, e.occurred_at])


@project.register
def _(e: BetSettled, con: duckdb.DuckDBPyConnection) -> None:
    p = e.payload
    con.execute("UPDATE bets SET paid = ?, net = ?, outcome = ?, rule = ?, settled_at = ? "
                "WHERE bet_id = ?", [p.paid.amount, p.net, p.outcome, p.rule, e.occurred_at, p.bet_id])


@project.register
def _(e: RoundSettled, con: duckdb.DuckDBPyConnection) -> None:
    p = e.payload
    con.execute("UPDATE rounds SET settled_at = ?, bet_count = ?, wagered = ?, paid = ?, "
                "house_win = ? WHERE round_id = ?",
                [e.occurred_at, p.bet_count, p.wagered.amount, p.paid.amount, p.house_win, p.round_id])


@project.register
def _(e: BetRejected, con: duckdb.DuckDBPyConnection) -> None:
    p = e.payload
    con.execute("INSERT INTO rejections VALUES (?, ?, ?, ?, 'PlaceBet', ?, ?, ?, ?, ?)",
                [e.event_id, e.aggregate_id, p.round_id, p.bet_id, p.code, p.field, p.reason,
                 p.rule, e.occurred_at])


@project.register
def _(e: CommandRejected, con: duckdb.DuckDBPyConnection) -> None:
    p = e.payload
    con.execute("INSERT INTO rejections VALUES (?, ?, NULL, NULL, ?, 'COMMAND_REJECTED', ?, ?, '', ?)",
                [e.event_id, e.aggregate_id, p.command_type, p.field, p.reason, e.occurred_at])

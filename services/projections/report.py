"""Per-table figures for a time range: rounds, amount wagered, amount paid, house win, hold %.

Hold % = house win / amount wagered × 100, exact (Decimal), rounded half-even to 2 places.
A round and its bets count in the range when the round was settled inside it [start, end).

Beside the figures stands what the table is (its game, and its variant where the projection
records one): figures of a roulette table and a baccarat table are not comparable, so a
reader of `casino report tables --json` must be able to tell them apart.

A table whose event stream forked or whose hash chain broke (an open StreamForked alarm in
`stream_forks`, see projector.py) has `reliable: false`: its figures come from the first version
the projector saw and may be wrong until a supervisor resolves the alarm. `fork_report` lists
the alarms (`casino report forks`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

import duckdb

from contracts.money import format_money

QUERY = """
WITH r AS (
    SELECT table_id, count(*) AS rounds FROM rounds
    WHERE settled_at IS NOT NULL AND settled_at >= ? AND settled_at < ? GROUP BY table_id),
b AS (
    SELECT table_id, sum(stake) AS wagered, sum(paid) AS paid FROM bets
    WHERE settled_at IS NOT NULL AND settled_at >= ? AND settled_at < ? GROUP BY table_id)
SELECT t.table_id, t.currency, coalesce(r.rounds, 0), coalesce(b.wagered, 0), coalesce(b.paid, 0)
       {labels}
FROM tables t LEFT JOIN r USING (table_id) LEFT JOIN b USING (table_id)
WHERE coalesce(r.rounds, 0) > 0 ORDER BY t.table_id
"""

# Columns of the projection's `tables` table that say what a table is, shown beside its figures
# in this order when the projection has them (an older file may lack a newer column).
LABEL_COLUMNS = ("game", "variant")

EARLIEST = datetime.fromisoformat("1970-01-01T00:00:00+00:00")
LATEST = datetime.fromisoformat("9999-12-31T00:00:00+00:00")


@dataclass(frozen=True)
class TableFigures:
    table_id: str
    currency: str
    rounds: int
    wagered: int      # minor units
    paid: int         # minor units
    house_win: int    # minor units, negative when the house lost
    hold_pct: Decimal | None  # None when nothing was wagered
    labels: tuple[tuple[str, str | None], ...] = ()   # (column, value): game, variant, ...
    reliable: bool = True   # False while the table has an unresolved StreamForked alarm

    def to_dict(self) -> dict[str, Any]:
        """table_id, the labels (game, variant where present), then the figures."""
        figures = asdict(self)
        figures.pop("labels")
        figures["hold_pct"] = str(self.hold_pct) if self.hold_pct is not None else None
        return {"table_id": figures.pop("table_id"), **dict(self.labels), **figures}

    @property
    def game(self) -> str | None:
        return dict(self.labels).get("game")


def hold_percent(house_win: int, wagered: int) -> Decimal | None:
    if wagered == 0:
        return None
    return (Decimal(house_win) * 100 / Decimal(wagered)).quantize(Decimal("0.01"), ROUND_HALF_EVEN)


def table_report(con: duckdb.DuckDBPyConnection, start: datetime | None = None,
                 end: datetime | None = None) -> list[TableFigures]:
    lo, hi = start or EARLIEST, end or LATEST
    labels = label_columns(con)
    query = QUERY.format(labels="".join(f", t.{c}" for c in labels))
    rows = con.execute(query, [lo, hi, lo, hi]).fetchall()
    forked = unreliable_tables(con)
    return [TableFigures(tid, cur, int(n), int(w), int(p), int(w) - int(p),
                         hold_percent(int(w) - int(p), int(w)), tuple(zip(labels, rest)),
                         reliable=tid not in forked)
            for tid, cur, n, w, p, *rest in rows]


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether the projection has table `name` (a file older than it has not)."""
    return bool(con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND "
                            "database_name = current_database()", [name]).fetchall()[0][0])


def unreliable_tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    """Tables with an unresolved StreamForked alarm."""
    if not _has_table(con, "stream_forks"):
        return set()
    return {t for (t,) in con.execute("SELECT DISTINCT table_id FROM stream_forks "
                                      "WHERE resolved_at IS NULL").fetchall()}


@dataclass(frozen=True)
class StreamFork:
    """One StreamForked alarm: an event refused at a sequence of an aggregate's stream."""

    table_id: str
    aggregate_id: str
    sequence: int
    kind: str              # fork | broken_link
    kept_hash: str | None  # what the projection holds at that sequence (or the chain's head)
    refused_hash: str      # the refused event's
    event_type: str
    reason: str
    detected_at: datetime
    resolved_at: datetime | None
    resolved_by: str | None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["detected_at"] = self.detected_at.isoformat()
        d["resolved_at"] = self.resolved_at.isoformat() if self.resolved_at else None
        return d


def fork_report(con: duckdb.DuckDBPyConnection, table_id: str | None = None,
                open_only: bool = False) -> list[StreamFork]:
    """The StreamForked alarms, newest first (of one table, only the unresolved ones)."""
    if not _has_table(con, "stream_forks"):
        return []
    where = ["1 = 1"]
    params: list[object] = []
    if table_id is not None:
        where.append("table_id = ?")
        params.append(table_id)
    if open_only:
        where.append("resolved_at IS NULL")
    rows = con.execute(
        "SELECT table_id, aggregate_id, sequence, kind, kept_hash, refused_hash, event_type, "
        f"reason, detected_at, resolved_at, resolved_by FROM stream_forks WHERE "
        f"{' AND '.join(where)} ORDER BY detected_at DESC, aggregate_id, sequence",
        params).fetchall()
    return [StreamFork(*row) for row in rows]


def render_forks(forks: list[StreamFork]) -> str:
    if not forks:
        return "No StreamForked alarms: every table's stream is one chain."
    open_tables = sorted({f.table_id for f in forks if f.resolved_at is None})
    lines = [f"StreamForked alarms: {len(forks)} "
             f"({sum(f.resolved_at is None for f in forks)} unresolved)"]
    if open_tables:
        lines.append("Figures UNRELIABLE until resolved (casino audit resolve-fork): "
                     + ", ".join(open_tables))
    lines.append("")
    lines.append(f"{'table':<12}{'aggregate':<24}{'seq':>7}  {'kind':<12}{'kept':<14}"
                 f"{'refused':<14}{'state':<10}")
    for f in forks:
        state = f"resolved by {f.resolved_by}" if f.resolved_at else "OPEN"
        lines.append(f"{f.table_id:<12}{f.aggregate_id:<24}{f.sequence:>7}  {f.kind:<12}"
                     f"{(f.kept_hash or '-')[:12]:<14}{f.refused_hash[:12]:<14}{state}")
    return "\n".join(lines)


def label_columns(con: duckdb.DuckDBPyConnection) -> tuple[str, ...]:
    """The LABEL_COLUMNS the projection's `tables` table has, in LABEL_COLUMNS order."""
    present = {name for (name,) in con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'tables' "
        "AND database_name = current_database() AND schema_name = current_schema()").fetchall()}
    return tuple(c for c in LABEL_COLUMNS if c in present)


def render_text(figures: list[TableFigures], start: datetime | None, end: datetime | None) -> str:
    head = f"Tables — rounds settled from {start or 'the beginning'} to {end or 'now'}"
    lines = [head, "", f"{'table':<10}{'game':<10}{'rounds':>8}{'wagered':>20}{'paid':>20}"
                       f"{'house win':>20}{'hold':>9}"]
    for f in figures:
        hold = f"{f.hold_pct}%" if f.hold_pct is not None else "—"
        lines.append(f"{f.table_id:<10}{f.game or '—':<10}{f.rounds:>8}"
                     f"{format_money(f.wagered, f.currency):>20}"
                     f"{format_money(f.paid, f.currency):>20}"
                     f"{format_money(f.house_win, f.currency):>20}{hold:>9}"
                     + ("" if f.reliable else "  UNRELIABLE: stream forked"))
    if not all(f.reliable for f in figures):
        lines.append("")
        lines.append("UNRELIABLE: the table's event stream forked or its hash chain broke; see "
                     "casino report forks")
    if not figures:
        lines.append("(no settled rounds in this range)")
    return "\n".join(lines)

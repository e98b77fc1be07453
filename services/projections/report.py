"""Per-table figures for a time range: rounds, amount wagered, amount paid, house win, hold %.

Hold % = house win / amount wagered × 100, exact (Decimal), rounded half-even to 2 places.
A round and its bets count in the range when the round was settled inside it [start, end).
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
FROM tables t LEFT JOIN r USING (table_id) LEFT JOIN b USING (table_id)
WHERE coalesce(r.rounds, 0) > 0 ORDER BY t.table_id
"""

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

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["hold_pct"] = str(self.hold_pct) if self.hold_pct is not None else None
        return out


def hold_percent(house_win: int, wagered: int) -> Decimal | None:
    if wagered == 0:
        return None
    return (Decimal(house_win) * 100 / Decimal(wagered)).quantize(Decimal("0.01"), ROUND_HALF_EVEN)


def table_report(con: duckdb.DuckDBPyConnection, start: datetime | None = None,
                 end: datetime | None = None) -> list[TableFigures]:
    lo, hi = start or EARLIEST, end or LATEST
    rows = con.execute(QUERY, [lo, hi, lo, hi]).fetchall()
    return [TableFigures(tid, cur, int(n), int(w), int(p), int(w) - int(p),
                         hold_percent(int(w) - int(p), int(w)))
            for tid, cur, n, w, p in rows]


def render_text(figures: list[TableFigures], start: datetime | None, end: datetime | None) -> str:
    head = f"Tables — rounds settled from {start or 'the beginning'} to {end or 'now'}"
    lines = [head, "", f"{'table':<10}{'rounds':>8}{'wagered':>20}{'paid':>20}"
                       f"{'house win':>20}{'hold':>9}"]
    for f in figures:
        hold = f"{f.hold_pct}%" if f.hold_pct is not None else "—"
        lines.append(f"{f.table_id:<10}{f.rounds:>8}{format_money(f.wagered, f.currency):>20}"
                     f"{format_money(f.paid, f.currency):>20}"
                     f"{format_money(f.house_win, f.currency):>20}{hold:>9}")
    if not figures:
        lines.append("(no settled rounds in this range)")
    return "\n".join(lines)

"""`casino report tables --json` shows each table's game and variant beside its figures (the
variant column came with TableOpened schema 2)."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from contracts.envelope import Actor
from contracts.money import Money
from contracts.table import (
    BetSpec,
    CloseBets,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    RecordSpin,
    RecordSpinData,
    TableOpenedData,
)
from services.projections import store
from services.projections.projector import apply_events
from services.table.domain import TableSession
from tests.cli.tools import json_lines, run
from tests.table.unit import handle

AT = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def one_round(table_id: str) -> list:
    """The events of a table that opened and played one round: 1 000 on 17, 17 came out."""
    table = TableSession(table_id)

    def cmd(cls, role="dealer", **kw):
        return cls(target_id=table_id, issued_by="t", issued_at=AT,
                   actor=Actor(employee_id="D1", role=role), **kw)
    events = handle(table, cmd(OpenTable, role="pit_manager", payload=TableOpenedData(
        game="roulette", variant="european", seating="open", profile="BO", currency="BOB",
        min_bet=100, max_bet=50_000)))
    events += handle(table, cmd(OpenRound))
    events += handle(table, cmd(PlaceBet, payload=PlaceBetData(
        bet_id="b1", seat=1, player_id="P1",
        bet=BetSpec(kind="straight", numbers=("17",), stake=Money(amount=1000, currency="BOB")))))
    events += handle(table, cmd(CloseBets))
    return events + handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="17")))


def test_json_rows_name_the_game_and_the_variant(
        tmp_path: Path) -> None:
    db = tmp_path / "floor.duckdb"
    with store.connect(db) as con:
        apply_events(con, one_round("RUL-01"))

    result = run("report", "tables", "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    [row] = json_lines(result.stdout)
    assert list(row)[:4] == ["table_id", "game", "variant", "currency"]
    assert row == {"table_id": "RUL-01", "game": "roulette", "variant": "european",
                   "currency": "BOB", "rounds": 1, "wagered": 1000, "paid": 36_000,
                   "house_win": -35_000, "hold_pct": "-3500.00", "reliable": True}
    text = run("report", "tables", "--db", str(db)).stdout
    assert "RUL-01    roulette" in text

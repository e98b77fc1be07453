"""The floor dashboard page over a real DuckDB file: tables, house win chart, stakes in prison."""
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

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
from services.projections.dashboard import render
from services.projections.projector import apply_events
from services.table.domain import TableSession

AT = datetime(2026, 11, 24, 5, 0, tzinfo=UTC)


def command(cls, **kw):
    return cls(target_id="RUL-07", issued_by="t", issued_at=AT,
               actor=Actor(employee_id="D1", role="dealer"), **kw)


def even_chance(bet_id: str, amount: int) -> PlaceBet:
    return command(PlaceBet, payload=PlaceBetData(
        bet_id=bet_id, seat=2, player_id="P2",
        bet=BetSpec(kind="black", stake=Money(amount=amount, currency="BOB"),
                    zero_option="prison")))


def test_page_shows_each_table_its_figures_and_stakes_in_prison(tmp_path):
    table = TableSession("RUL-07")
    log = table.handle(command(OpenTable, payload=TableOpenedData(
        wheel="european", profile="BO", currency="BOB", min_bet=100, max_bet=50_000)))
    for c in (command(OpenRound), even_chance("j1", 2500), even_chance("j2", 1000),
              command(CloseBets), command(RecordSpin, payload=RecordSpinData(pocket="0"))):
        log += table.handle(c)
    db = tmp_path / "floor.duckdb"
    with store.connect(db) as con:
        apply_events(con, log)
    # render() reads only these two attributes of the service
    page = render(cast(Any, SimpleNamespace(db_path=db, evidence_dir=tmp_path))).decode()
    assert "<td>RUL-07</td><td>1</td><td>35.00 BOB</td><td>0.00 BOB</td>" in page
    assert "<td>2 (35.00 BOB)</td>" in page and "en prisión" in page
    assert "house win per table" in page

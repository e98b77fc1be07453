"""The per-table report over a real DuckDB file: time range, hold %, exact money."""
from datetime import UTC, datetime, timedelta
from decimal import Decimal

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
from services.projections.report import hold_percent, render_text, table_report
from services.table.domain import TableSession
from tests.table.unit import handle

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
PIT = Actor(employee_id="PM1", role="pit_manager")


def play(table: TableSession, at: datetime, pocket: str, stakes: list[tuple[str, int]]) -> list:
    def cmd(cls, **kw):
        return cls(target_id=table.id, issued_by="t", issued_at=at,
                   actor=Actor(employee_id="D1", role="dealer"), **kw)
    events = handle(table, cmd(OpenRound))
    for i, (number, amount) in enumerate(stakes):
        events += handle(table, cmd(PlaceBet, payload=PlaceBetData(
            bet_id=f"{table.id}-{at:%H%M}-{i}", seat=1, player_id="P1",
            bet=BetSpec(kind="straight", numbers=(number,),
                        stake=Money(amount=amount, currency="BOB")))))
    events += handle(table, cmd(CloseBets))
    return events + handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket=pocket)))


def test_report_counts_rounds_settled_in_the_range_with_exact_hold(tmp_path):
    t = TableSession("RUL-09")
    log = handle(t, OpenTable(
        target_id="RUL-09", issued_by="t", issued_at=T0, actor=PIT, payload=TableOpenedData(
            game="roulette", variant="european", seating="open", profile="BO", currency="BOB",
            min_bet=100, max_bet=50_000)))
    log += play(t, T0 + timedelta(minutes=1), "7", [("7", 1000), ("8", 2000)])    # pays 36 000
    log += play(t, T0 + timedelta(minutes=90), "0", [("7", 3000), ("9", 300)])    # house keeps all
    with store.connect(tmp_path / "r.duckdb") as con:
        apply_events(con, log)
        everything = table_report(con)
        late = table_report(con, start=T0 + timedelta(hours=1))
        none = table_report(con, end=T0)
    [f] = everything
    assert (f.rounds, f.wagered, f.paid, f.house_win) == (2, 6300, 36_000, -29_700)
    assert f.hold_pct == Decimal("-471.43")
    [g] = late
    assert (g.rounds, g.wagered, g.paid, g.hold_pct) == (1, 3300, 0, Decimal("100.00"))
    assert none == []
    text = render_text(everything, None, None)
    assert "RUL-09" in text and "-297.00 BOB" in text


def test_hold_percent_is_exact_and_half_even():
    assert hold_percent(1, 8) == Decimal("12.50")
    assert hold_percent(1, 3) == Decimal("33.33")
    assert hold_percent(0, 0) is None


def test_a_stake_in_prison_counts_once_with_its_final_payout_even_in_one_batch(tmp_path):
    t = TableSession("RUL-08")
    at = T0 + timedelta(minutes=5)

    def cmd(cls, **kw):
        return cls(target_id=t.id, issued_by="t", issued_at=at,
                   actor=Actor(employee_id="D1", role="dealer"), **kw)
    log = handle(t, OpenTable(
        target_id="RUL-08", issued_by="t", issued_at=T0, actor=PIT, payload=TableOpenedData(
            game="roulette", variant="european", seating="open", profile="BO", currency="BOB",
            min_bet=100, max_bet=50_000)))
    log += handle(t, cmd(OpenRound))
    log += handle(t, cmd(PlaceBet, payload=PlaceBetData(
        bet_id="jail", seat=1, player_id="P1", bet=BetSpec(
            kind="red", stake=Money(amount=1000, currency="BOB"), zero_option="prison"))))
    log += handle(t, cmd(CloseBets))
    log += handle(t, cmd(RecordSpin, payload=RecordSpinData(pocket="0")))
    log += play(t, at, "1", [])  # red: the imprisoned stake is freed (returned, not paid)
    with store.connect(tmp_path / "p.duckdb") as con:
        apply_events(con, log)  # prison and release in one batch: the release must win
        [f] = table_report(con)
        row = con.execute("SELECT outcome, paid, net FROM bets WHERE bet_id = 'jail'").fetchone()
    assert row == ("push", 1000, 0)
    assert (f.rounds, f.wagered, f.paid, f.house_win) == (2, 1000, 1000, 0)

"""The table row names the game and its variant; seats, returned excess and forbidden
commands are projected; a schema-1 log projects as before."""
import json

from contracts.codec import decode, encode
from contracts.envelope import Actor
from contracts.table import (
    BetLimits,
    CloseBets,
    CloseTable,
    LeaveSeat,
    OpenRound,
    OpenTable,
    RecordSpin,
    RecordSpinData,
    SeatData,
    SeatPlayer,
    TableOpened,
    TableOpenedData,
)
from services.projections import store
from services.projections.projector import apply_events
from services.projections.report import table_report
from services.table.domain import TableSession
from tests.contracts.test_table_contracts import V1_OPENED
from tests.table.test_session_rules import bet
from tests.table.unit import T, cmd, handle


def test_game_variant_seats_excess_and_forbidden_commands_reach_the_tables(tmp_path):
    t = TableSession(T)
    log = handle(t, cmd(OpenTable, payload=TableOpenedData(
        game="roulette", variant="european", profile="BO", currency="BOB", min_bet=100,
        max_bet=50_000, seats=6, bet_limits={"straight": BetLimits(min_bet=100,
                                                                   max_bet=10_000)})))
    log += handle(t, cmd(OpenRound))
    log += handle(t, cmd(SeatPlayer, payload=SeatData(seat=2, player_id="P1")))
    log += handle(t, bet(12_000, seat=2))                               # 2 000 handed back
    log += handle(t, cmd(CloseTable, actor=Actor(employee_id="D1", role="dealer")))
    log += handle(t, cmd(CloseBets))
    log += handle(t, cmd(RecordSpin, payload=RecordSpinData(pocket="17")))
    log += handle(t, cmd(LeaveSeat, payload=SeatData(seat=2, player_id="P1")))
    with store.connect(tmp_path / "t.duckdb") as con:
        apply_events(con, log)
        row = con.execute("SELECT game, wheel, variant, seats, seating, bet_limits FROM tables"
                          ).fetchone()
        assert row is not None
        bet_row = con.execute("SELECT stake, excess_returned, limit_rule, paid FROM bets"
                              ).fetchone()
        seat = con.execute("SELECT seat, player_id, left_reason FROM seatings").fetchone()
        refused = con.execute("SELECT command_type, code, field FROM rejections").fetchall()
        [figures] = table_report(con)
    assert row[:5] == ("roulette", "european", "european", 6, "enforced")
    assert json.loads(row[5]) == {"straight": {"min_bet": 100, "max_bet": 10_000}}
    assert bet_row == (10_000, 2_000, "seed 002 §1.2.1.1", 360_000)
    assert seat == (2, "P1", "left")
    assert refused == [("CloseTable", "FORBIDDEN", "actor.role")]
    assert (figures.wagered, figures.paid) == (10_000, 360_000)


def test_a_schema_1_table_projects_as_a_roulette_table_with_open_seating(tmp_path):
    event = decode(encode(decode(json.dumps(V1_OPENED).encode())))  # upcast, stored as v2
    assert isinstance(event, TableOpened)
    with store.connect(tmp_path / "v1.duckdb") as con:
        apply_events(con, [event])
        row = con.execute("SELECT game, wheel, variant, seating, min_bet FROM tables").fetchone()
    assert row == ("roulette", "american", "american", "open", 1000)

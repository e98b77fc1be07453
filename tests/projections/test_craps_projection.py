"""Craps in the projection: the dice are the round's result, a bet changed between rolls
counts at the amount that played (whether its row is still in the batch or already written),
a refusal keeps its rule, and the report shows the game and variant."""
from __future__ import annotations

from contracts.table import (
    ChangeBet,
    ChangeBetData,
    CloseBets,
    OpenRound,
    OpenTable,
    RecordRoll,
    RecordRollData,
    RemoveBet,
    RemoveBetData,
    SeatData,
    SeatPlayer,
    TableOpenedData,
)
from services.projections import store
from services.projections.projector import apply_events
from services.projections.report import table_report
from services.table.domain import TableSession
from tests.table.test_craps import bet
from tests.table.unit import T, cmd, handle


def roll(table: TableSession, n: int, dice: tuple[int, int]) -> list:
    return handle(table, cmd(CloseBets)) + handle(table, cmd(RecordRoll, payload=RecordRollData(
        round_id=f"{T}.{n}", dice=dice)))


def test_rolls_changed_bets_and_refusals_reach_the_tables(tmp_path):
    table = TableSession(T)
    log = handle(table, cmd(OpenTable, payload=TableOpenedData(
        game="craps", variant="craps", profile="BO", currency="BOB", min_bet=100,
        max_bet=50_000)))
    log += handle(table, cmd(SeatPlayer, payload=SeatData(seat=1, player_id="P1")))
    log += handle(table, cmd(OpenRound))
    log += handle(table, bet("p", "pass_line"))
    log += handle(table, bet("a", "place", 1200, number=6))
    log += handle(table, cmd(ChangeBet, payload=ChangeBetData(bet_id="a", amount=600)))
    log += roll(table, 1, (2, 2))                                  # point 4
    later = handle(table, cmd(OpenRound))
    later += handle(table, cmd(ChangeBet, payload=ChangeBetData(bet_id="a", amount=1800)))
    later += handle(table, cmd(RemoveBet, payload=RemoveBetData(bet_id="p")))   # refused
    later += roll(table, 2, (3, 3))                                # place 6 wins 7:6
    with store.connect(tmp_path / "c.duckdb") as con:
        apply_events(con, log)                    # the reduction while the row is buffered
        assert con.execute("SELECT stake FROM bets WHERE bet_id = 'a'").fetchone() == (600,)
        apply_events(con, later)                  # the increase on the row already written
        rows = {b: (s, p, o) for b, s, p, o in con.execute(
            "SELECT bet_id, stake, paid, outcome FROM bets").fetchall()}
        pockets = [p for (p,) in con.execute(
            "SELECT pocket FROM rounds ORDER BY round_number").fetchall()]
        refusal = con.execute("SELECT code, field, rule FROM rejections").fetchone()
        [figures] = table_report(con)
    assert rows == {"a": (1800, 1800 + 2100, "win"), "p": (1000, None, None)}
    assert pockets == ["2+2", "3+3"]
    assert refusal == ("BET_LOCKED", "payload.bet_id", "seed 000 §3.1.5")
    assert (figures.rounds, figures.wagered, figures.paid) == (2, 1800, 3900)
    assert dict(figures.labels) == {"game": "craps", "variant": "craps"}

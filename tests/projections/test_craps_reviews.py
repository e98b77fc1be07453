"""A corrected craps roll projected into a real DuckDB file: the exact re-settlement changes
the round's figures, the bets left to the pit manager are listed apart and change none."""
from __future__ import annotations

from contracts.table import (
    CloseBets,
    OpenRound,
    OpenTable,
    RecordRoll,
    RecordRollData,
    SeatData,
    SeatPlayer,
    TableOpenedData,
)
from services.projections import store
from services.projections.holds import pit_reviews_report, render_reviews
from services.projections.projector import apply_events
from services.table.domain import TableSession
from tests.table.test_craps import SEATS, bet
from tests.table.test_craps_corrections import requested, resolved
from tests.table.unit import T, cmd, handle, hold, resolve


def craps_floor() -> list:
    """Come-out 2+4 called (CCTV: 3+4) with a pass line and an any seven; then 6+6 and 3+3."""
    t = TableSession(T)
    log = handle(t, cmd(OpenTable, payload=TableOpenedData(
        game="craps", profile="BO", currency="BOB", min_bet=100, max_bet=50_000)))
    for seat, player in SEATS.items():
        log += handle(t, cmd(SeatPlayer, payload=SeatData(seat=seat, player_id=player)))
    for n, (dice, bets) in enumerate([((2, 4), [bet("p", "pass_line"),
                                                bet("s", "any_seven", seat=5)]),
                                      ((6, 6), []), ((3, 3), [])], start=1):
        log += handle(t, cmd(OpenRound))
        for b in bets:
            log += handle(t, b)
        log += handle(t, cmd(CloseBets))
        log += handle(t, cmd(RecordRoll, payload=RecordRollData(round_id=f"{T}.{n}",
                                                                dice=dice)))
    log += hold(t, requested("2-4"))
    return log + resolve(t, resolved("2-4", "3-4"))


def test_the_pass_line_is_listed_for_the_pit_manager_and_the_any_seven_re_settled(tmp_path):
    with store.connect(tmp_path / "c.duckdb") as con:
        apply_events(con, craps_floor())
        rnd = con.execute("SELECT pocket, corrected_pocket, paid_delta, correction_note "
                          "FROM rounds WHERE round_id = ?", [f"{T}.1"]).fetchone()
        fixes = con.execute("SELECT bet_id, paid_before, paid_after FROM "
                            "settlement_corrections").fetchall()
        [review] = pit_reviews_report(con)
    assert rnd is not None and rnd[:3] == ("2+4", "3+4", 6000) and "point ON 6" in rnd[3]
    assert fixes == [("s", 0, 6000)]
    assert (review.bet_id, review.kind, review.outcome_called, review.outcome_true) == (
        "p", "pass_line", None, "win")
    assert (review.paid_true, review.later_round, review.later_paid) == (2000, f"{T}.3", 2000)
    [_, _, line] = render_reviews([review])
    assert f"called: working; true: win 20.00 BOB, later {T}.3 paid 20.00" in line


def test_the_dashboard_lists_the_bets_for_the_pit_manager(tmp_path):
    from services.projections.dashboard import render

    db = tmp_path / "d.duckdb"
    with store.connect(db) as con:
        apply_events(con, craps_floor())
    page = render(db).decode()
    assert 'id="pit-reviews"' in page and "For the pit manager" in page
    assert "pass_line" in page and "left it working on the 6" in page

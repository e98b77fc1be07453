"""A round held and then corrected by surveillance, projected into a real DuckDB file: the
hold with its amount, the re-settled bets and the table figures finance reconciles."""
from datetime import UTC, timedelta
from typing import Any

import pytest

from contracts.table import OpenTable, TableOpenedData
from services.projections import store
from services.projections.projector import apply_events
from services.projections.report import table_report
from services.table.domain import TableSession
from tests.projections.test_report import PIT, T0, play
from tests.table.test_holds import requested, resolved
from tests.table.unit import handle, hold, resolve


def corrected_floor() -> list:
    """RUL-01: round 1 dealer entered 17 (CCTV: 18), round 2 on 5; a 30-minute hold."""
    t = TableSession("RUL-01")
    log = handle(t, OpenTable(target_id="RUL-01", issued_by="t", issued_at=T0, actor=PIT,
                             payload=TableOpenedData(
                                 game="roulette", variant="european", seating="open", profile="BO",
                                 currency="BOB", min_bet=100, max_bet=50_000)))
    log += play(t, T0 + timedelta(minutes=1), "17", [("17", 1000), ("18", 500)])
    log += hold(t, requested())
    log += play(t, T0 + timedelta(minutes=3), "5", [("5", 100)])
    return log + resolve(t, resolved("18"))


@pytest.mark.parametrize("batches", [1, 3, 40])
def test_held_and_corrected_round_in_the_tables_whatever_the_batching(tmp_path, batches):
    log = corrected_floor()
    size = -(-len(log) // batches)
    with store.connect(tmp_path / "c.duckdb") as con:
        for i in range(0, len(log), size):
            apply_events(con, log[i:i + size])
        hold = con.execute("SELECT held_bets, held, currency, release, released, within_hold, "
                           "released_by FROM payout_holds").fetchall()
        rnd = con.execute("SELECT pocket, corrected_pocket, paid, house_win, paid_delta "
                          "FROM rounds WHERE round_id = 'RUL-01.1'").fetchone()
        bets = con.execute("SELECT paid, net, outcome, settled_at FROM bets "
                           "WHERE round_id = 'RUL-01.1' ORDER BY stake DESC").fetchall()
        fixes = con.execute("SELECT bet_id, paid_before, paid_after, corrected_by FROM "
                            "settlement_corrections ORDER BY paid_before DESC").fetchall()
        [figures] = table_report(con)
    assert hold == [(1, 36_000, "BOB", "CORRECTED", 18_000, True, "S7")]
    assert rnd == ("17", "18", 18_000, 1500 - 18_000, 18_000 - 36_000)
    assert [b[:3] for b in bets] == [(0, -1000, "lose"), (18_000, 17_500, "win")]
    assert all(b[3] is not None and b[3] < T0 + timedelta(minutes=2) for b in bets)
    assert fixes == [("RUL-01-2001-0", 36_000, 0, "S7"), ("RUL-01-2001-1", 0, 18_000, "S7")]
    assert (figures.wagered, figures.paid) == (1600, 18_000 + 3600)


def test_what_a_correction_means_for_the_cage_in_words():
    from datetime import datetime

    from services.projections.holds import Correction
    base: dict[str, Any] = dict(table_id="RUL-01", round_id="RUL-01.1", dealer_result="17",
                                cctv_result="18", resolved_by="S7",
                                resolved_at=datetime.now(UTC), within_hold=True, note="",
                                currency="BOB")
    assert Correction(**base, paid_delta=18_000).money() == "players owed 180.00 BOB more"
    assert Correction(**base, paid_delta=-36_000).money() == "players were paid 360.00 BOB too much"
    assert Correction(**base, paid_delta=0).money() == "no payout changes"
    assert "not re-settled" in Correction(**{**base, "currency": None}, paid_delta=None).money()

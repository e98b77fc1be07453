"""The fixture the table tests share: a BO European table, open seating, a round open."""
import pytest

from contracts.table import OpenRound, OpenTable, TableOpenedData
from services.table.domain import TableSession
from tests.table.unit import T, cmd, handle


@pytest.fixture
def table() -> TableSession:
    t = TableSession(T)
    handle(t, cmd(OpenTable, payload=TableOpenedData(
        game="roulette", variant="european", seating="open", profile="BO",
        currency="BOB", min_bet=100, max_bet=50_000)))
    handle(t, cmd(OpenRound))
    return t

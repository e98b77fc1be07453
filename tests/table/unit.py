"""Drive a TableSession as the runtime's unit of work does: call the handler, then collect the
events it triggered (the handlers return nothing). Also the commands the table tests share."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from contracts.envelope import Actor, Command
from contracts.money import Money
from contracts.table import (
    BetSpec,
    ChangeLimits,
    CloseBets,
    CloseTable,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    RecordSpin,
    RecordSpinData,
)
from contracts.vision import VerificationRequested, VerificationResolved
from services.table.domain import TableSession
from services.table.rounds import RoundState

# The events a handler triggered, of many types: the tests read each one's own payload.
Events = list[Any]

DEALER = Actor(employee_id="D1", role="dealer")
PIT = Actor(employee_id="PM1", role="pit_manager")
T = "RUL-01"


def handle(table: TableSession, command: Command) -> Events:
    table.handle(command)
    return table.collect()


def hold(table: TableSession, request: VerificationRequested,
         now: datetime | None = None) -> Events:
    """The table gets the request at `now` (by default, as soon as it was made)."""
    table.hold_payouts(request, now or request.occurred_at)
    return table.collect()


def resolve(table: TableSession, resolution: VerificationResolved,
            now: datetime | None = None) -> Events:
    """The table gets the resolution at `now` (by default, as soon as it was decided)."""
    table.resolve(resolution, now or resolution.occurred_at)
    return table.collect()


def release(table: TableSession, now: datetime, margin: timedelta = timedelta(0)) -> Events:
    table.release_expiring(now, margin)
    return table.collect()


def cmd(cls: Any, actor: Actor | None = None, **kw: Any) -> Any:
    """A command from the dealer, or from the pit boss for what only a supervisor may do."""
    actor = actor or (PIT if cls in (OpenTable, CloseTable, ChangeLimits) else DEALER)
    return cls(target_id=T, issued_by="test", actor=actor,
               issued_at=datetime(2026, 11, 21, 20, 0, tzinfo=UTC), **kw)


def bet(kind: Any = "straight", numbers: tuple[str, ...] = ("17",), amount: int = 1000,
        index: int | None = None, bet_id: str = "b1", currency: str = "BOB",
        zero_option: Any = None) -> PlaceBet:
    return cmd(PlaceBet, payload=PlaceBetData(bet_id=bet_id, seat=1, player_id="P1", bet=BetSpec(
        kind=kind, numbers=numbers, index=index, stake=Money(amount=amount, currency=currency),
        zero_option=zero_option)))


def play(table: TableSession, *bets: Command, pocket: str) -> Events:
    """One round: open it (unless the fixture did), the bets, «no más apuestas», the spin."""
    if table.round is not None and table.round.state is RoundState.SETTLED:
        handle(table, cmd(OpenRound))
    for b in bets:
        handle(table, b)
    handle(table, cmd(CloseBets))
    return handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket=pocket)))

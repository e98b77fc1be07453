"""What the table service does with each message: plain functions of the message and the unit
of work, in one map per topic (wired by bootstrap.py). The table session (domain.py) decides;
these functions only find the table the message is for."""
from __future__ import annotations

from datetime import datetime, timedelta

from contracts.envelope import Command, Message, utcnow
from contracts.table import TABLE_COMMANDS, OpenTable
from contracts.vision import VerificationRequested, VerificationResolved
from services.runtime.bus import Handler, Rejected
from services.runtime.store import UnitOfWork
from services.table.domain import TableSession

Tables = UnitOfWork[TableSession]


def open_table(command: OpenTable, uow: Tables) -> None:
    """A table comes to exist by its OpenTable (a second one is refused by the session)."""
    table = uow.get_or_create(command.target_id)
    table.handle(command)


def table_command(command: Command, uow: Tables) -> None:
    table = uow.get(command.target_id)
    if table is None:
        raise Rejected("unknown_aggregate",
                       f"target_id: table {command.target_id!r} has never been opened")
    table.handle(command)


def hold_payouts(request: VerificationRequested, uow: Tables) -> None:
    """The surveillance room must check a round: hold its winning payouts (seed 002 §1.3).
    A check of a table this service does not run (a dice table) is not ours. The table
    decides at the time it gets the request: one that comes after the deadline holds nothing."""
    table = uow.get(request.payload.table_id)
    if table is not None:
        table.hold_payouts(request, utcnow())


def resolve_verification(resolution: VerificationResolved, uow: Tables) -> None:
    table = uow.get(resolution.payload.table_id)
    if table is not None:
        table.resolve(resolution, utcnow())


def release_expiring_holds(uow: Tables, now: datetime, margin: timedelta) -> None:
    """No payout is held past its deadline (30 minutes at most), decided or not."""
    for table in uow.each():
        table.release_expiring(now, margin=margin)


COMMAND_HANDLERS: dict[type[Message], Handler] = {kind: table_command for kind in TABLE_COMMANDS}
COMMAND_HANDLERS[OpenTable] = open_table
CHECK_HANDLERS: dict[type[Message], Handler] = {
    VerificationRequested: hold_payouts, VerificationResolved: resolve_verification}
HANDLERS = COMMAND_HANDLERS | CHECK_HANDLERS

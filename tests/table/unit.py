"""Drive a TableSession as the runtime's unit of work does: call the handler, then collect the
events it triggered (the handlers return nothing)."""
from __future__ import annotations

from datetime import datetime, timedelta

from contracts.envelope import Command, Event
from contracts.vision import VerificationRequested, VerificationResolved
from services.table.domain import TableSession


def handle(table: TableSession, command: Command) -> list[Event]:
    table.handle(command)
    return table.collect()


def hold(table: TableSession, request: VerificationRequested) -> list[Event]:
    table.hold_payouts(request)
    return table.collect()


def resolve(table: TableSession, resolution: VerificationResolved) -> list[Event]:
    table.resolve(resolution)
    return table.collect()


def release(table: TableSession, now: datetime, margin: timedelta = timedelta(0)) -> list[Event]:
    table.release_expiring(now, margin)
    return table.collect()

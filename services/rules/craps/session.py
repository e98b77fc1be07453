"""Run a request through the table aggregate: place the layout, then each step and roll.

The result keeps every settlement in the order it happened (commissions, withdrawals, roll
decisions) and the reports a supervisor reads in `explain`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.core.errors import FieldError, RulesError
from services.rules.core.limits import check_no_cascade
from services.rules.core.profiles import Profile
from services.rules.core.results import BetResult
from services.rules.craps.bets import ODDS, Bet
from services.rules.craps.paytable import PayTable
from services.rules.craps.request import CrapsRequest, Step, parse_request
from services.rules.craps.table import CrapsTable, RollReport


@dataclass(frozen=True)
class Session:
    request: CrapsRequest
    start: CrapsTable
    end: CrapsTable
    results: tuple[BetResult, ...]       # decided money, in order
    reports: tuple[RollReport, ...]
    opening: tuple[BetResult, ...]       # commissions collected on the opening layout
    before_roll: tuple[tuple[BetResult, ...], ...]  # per step: money moved before its dice


def _place_all(table: CrapsTable, bets: tuple[Bet, ...], field: str, roll_index: int | None,
               existing: bool) -> tuple[CrapsTable, list[BetResult]]:
    """Line and other bets first, odds last: odds need their line bet, whatever the order."""
    errors: list[FieldError] = []
    fees: list[BetResult] = []
    order = sorted(range(len(bets)), key=lambda i: bets[i].kind in ODDS)
    for i in order:
        try:
            table, more = table.place(bets[i], roll_index, existing=existing)
            fees += more
        except RulesError as err:
            errors += err.prefixed(f"{field}[{i}]").errors
    if errors:
        raise RulesError(errors=errors)
    return table, fees


def _changes(table: CrapsTable, step: Step, i: int) -> tuple[CrapsTable, list[BetResult]]:
    moved: list[BetResult] = []
    for j, bet_id in enumerate(step.remove):
        table, back = table.change(bet_id, 0, f"rolls[{i}].remove[{j}]", i)
        moved += back
    for bet_id, amount in step.amounts:
        table, back = table.change(bet_id, amount, f"rolls[{i}].amounts.{bet_id}", i)
        moved += back
    table, fees = _place_all(table, step.place, f"rolls[{i}].place", i, existing=False)
    return table, moved + fees


def run(request: Mapping[str, Any], profile: Profile) -> Session:
    req = parse_request(request)
    if req.limits is not None:
        check_no_cascade(profile, "craps")
    start = CrapsTable(PayTable(profile), req.point, limits=req.limits)
    table, fees = _place_all(start, req.bets, "bets", None, existing=True)
    start_layout = table
    results, reports, before = list(fees), [], []
    for i, step in enumerate(req.steps):
        table, moved = _changes(table, step, i)
        if step.roll is None:
            table, report = table.void_roll(step.void or "", i)
        else:
            table, report = table.roll(step.roll, i)
        results += moved + list(report.results)
        reports.append(report)
        before.append(tuple(moved))
    return Session(req, start_layout, table, tuple(results), tuple(reports), tuple(fees),
                   tuple(before))

"""Step-by-step reasoning for a supervisor: roll by roll, which rule decided which bet."""
from __future__ import annotations

from services.rules.core.errors import RulesError
from services.rules.core.limits import describe_limits
from services.rules.core.profiles import SWITCHES, Profile
from services.rules.core.results import BetResult
from services.rules.craps.bets import SPANISH
from services.rules.craps.paytable import MODALITY_SECTION
from services.rules.craps.request import VARIANTS, Step
from services.rules.craps.rules import Verdict
from services.rules.craps.session import Session
from services.rules.craps.table import RollReport


def _switches(profile: Profile) -> str:
    names = sorted(n for n in SWITCHES if n.startswith("craps_")) + ["rounding"]
    shown = []
    for name in names:
        try:
            shown.append(f"{name}={profile.switch(name)}")
        except RulesError:
            shown.append(f"{name}=(unset: the profile is silent)")
    return ", ".join(shown)


def _point(point: int | None) -> str:
    return "OFF" if point is None else f"ON {point}"


def _money(result: BetResult) -> str:
    line = f"paid {result.paid} (net {result.net:+d})"
    if result.extra.get("commission"):
        line += f", commission {result.extra['commission']}"
    if result.excess_returned:
        line += f", of which {result.excess_returned} over the maximum returned " \
                f"({result.extra['limit_rule']})"
    if result.extra.get("under_minimum"):
        line += f", under the minimum: settled on the actual stake with the jefe de sala's " \
                f"authorisation ({result.extra['limit_rule']}, domain.md A-2)"
    note = f"; note: {result.rule.note}" if result.rule.note else ""
    return f"{line} — {result.rule}{note}"


def _roll_lines(report: RollReport, step: Step, moved: tuple[BetResult, ...]) -> list[str]:
    n = report.index + 1
    lines = [f"  before roll {n}: {r.extra['id']} {r.kind}: {r.detail}: {_money(r)}" for r in moved]
    lines += [f"  before roll {n}: placed {b.label()}" + (f" on {b.on}" if b.on else "")
              + f" {b.amount} — {SPANISH[b.kind]}" for b in step.place]
    if report.roll is None:
        return lines + [f"Roll {n}: void ({report.void_reason}) — «tirada nula»: no bet is "
                        "decided, the shooter throws again; point stays "
                        f"{_point(report.point_before)}"]
    phase = "come-out" if report.point_before is None else f"point {report.point_before}"
    lines.append(f"Roll {n}: {report.roll} ({phase})")
    results = iter(report.results)
    for bet, decision in report.decisions:
        head = f"  {bet.label()} ({bet.amount}): {decision.why}"
        if decision.decided:
            lines.append(f"{head} -> {_money(next(results))}")
        elif decision.verdict is Verdict.TRAVEL:
            lines.append(f"{head} — {decision.rule}")
        else:
            lines.append(f"{head}: stays up")
    if report.point_after != report.point_before:
        lines.append(f"  point: {_point(report.point_before)} -> {_point(report.point_after)}")
    if report.seven_out:
        lines.append("  seven out: the shooter's turn ends (next shooter per the table's "
                     "rotation setting, domain.md A-28)")
    return lines


def explain_lines(profile: Profile, session: Session) -> list[str]:
    req = session.request
    lines = [f"Profile {profile.id}: {profile.name}",
             f"Game: craps, variant {VARIANTS[req.variant]} — {MODALITY_SECTION[profile.id]} "
             "(Craps and Mini Craps share every bet and pay; they differ in table and staff)",
             f"Switches: {_switches(profile)}",
             f"Limits: {describe_limits(req.limits)}",
             f"Point before the first roll: {_point(req.point)}", "Layout:"]
    layout = [f"  {b.label()} {b.amount} — {SPANISH[b.kind]}" for b in session.start.bets]
    lines += layout or ["  (empty)"]
    lines += [f"  {r.extra['id']} {r.kind}: {r.detail}: {_money(r)}" for r in session.opening]
    for report, step, moved in zip(session.reports, req.steps, session.before_roll):
        lines += _roll_lines(report, step, moved)
    left = session.end.bets
    lines.append("Still on the layout: " + (", ".join(f"{b.label()} {b.amount}" for b in left)
                                            if left else "nothing"))
    staked = sum(r.stake for r in session.results)
    paid = sum(r.paid for r in session.results)
    lines.append(f"Point after the last roll: {_point(session.end.point)}")
    lines.append(f"Totals: staked {staked}, paid {paid}, house {staked - paid:+d} "
                 "(bets still on the layout are not decided yet)")
    return lines

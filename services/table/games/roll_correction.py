"""Re-settling a craps roll the surveillance room corrected on CCTV. Pure: no I/O.

A payout may be held up to 30 minutes while the result is checked on CCTV, «sin necesidad de
interrumpir el desarrollo del juego en la mesa que presente la jugada analizada» (seed 002
§1.3, seed 004 RG §6), so later rolls are thrown meanwhile on the state the wrong call left.
The roll is re-decided by the rules engine (services/rules/craps `CrapsTable.roll`) in the
state it was thrown in — the point ON/OFF and its number, come bets on their numbers, working
and off bets, amounts as they were (layout.Thrown) — once with the dice called and once with
the true dice, bet by bet:

- decided by both (every one-roll bet; a multi-roll bet both rolls win, lose or push): exact,
  a BetCorrectionData when the payout changes, with what the call paid, what the true roll
  pays and the rule of the true decision;
- decided by one roll only, or moved to different numbers (a pass line the call sent to a
  point the true 7 would have paid; a place bet the call paid on a number the true roll
  missed): the wrong call's state was played on by later rolls, so it cannot be re-settled
  exactly. It is listed for the pit manager (BetReviewData; «Las irregularidades en el juego
  deben ser corregidas en forma inmediata por el croupier o jefe de sala», seed 002 §1.3)
  with both decisions and, for a bet that stayed up under the call, the later round that
  decided it; nothing is paid or recovered for it automatically (not in paid_delta). Odds
  taken on a later roll behind such a line bet are listed with it.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from contracts.money import Money
from contracts.payouts import BetCorrectionData, BetReviewData
from contracts.table import BetOutcome, BetSettledData, TableOpenedData
from services.rules.core.results import BetResult
from services.rules.craps.dice import Roll
from services.rules.craps.paytable import RULE_SECTION, PayTable
from services.rules.craps.rules import Decision
from services.rules.craps.table import CrapsTable, RollReport
from services.table.games import Correction
from services.table.games.layout import LayoutBet, Thrown
from services.table.rounds import Round


def correct(cfg: TableOpenedData, table: PayTable, thrown: Thrown, rnd: Round,
            later: Iterable[Round], true: Roll) -> Correction:
    """The roll of `rnd`, thrown as `thrown`, re-decided with the `true` dice."""
    engine = CrapsTable(table, thrown.point, tuple(b.engine() for b in thrown.bets))
    _, called = engine.roll(Roll(*thrown.dice), thrown.index)
    _, right = engine.roll(true, thrown.index)
    dc, dt = _decisions(called), _decisions(right)
    paid_true = {r.extra["id"]: r for r in right.results}
    fixes, review, later = [], [], list(later)
    for lb in thrown.bets:
        bid = lb.placed.bet_id
        c, t = dc[bid], dt[bid]
        if c.decided and t.decided:
            fix = _fix(cfg, lb, rnd, paid_true[bid])
            if fix is not None:
                fixes.append(fix)
        elif c.decided or t.decided or c.number != t.number:
            review.append(_review(cfg, lb, rnd, later, c, t, paid_true.get(bid)))
    review += _odds_taken_later(cfg, {r.bet_id for r in review}, later)
    return Correction(fixes, review, _note(called, right))


def _odds_taken_later(cfg: TableOpenedData, reviewed: set[str], later: list[Round]
                      ) -> list[BetReviewData]:
    """Odds a player took on a later roll behind a line bet the pit manager decides (on the
    wrong call's point): they stand or fall with it, so they are his too."""
    out = []
    for r in later:
        for placed in r.bets.values():
            if placed.bet.on not in reviewed:
                continue
            decided = next((d for d in later if placed.bet_id in d.settled), None)
            out.append(BetReviewData(
                bet_id=placed.bet_id, seat=placed.seat, player_id=placed.player_id,
                kind=placed.bet.kind, stake=placed.bet.stake, outcome_called=None,
                paid_called=_money(cfg, 0), outcome_true=None, paid_true=None,
                later_round=None if decided is None else decided.round_id,
                later_paid=None if decided is None else _money(cfg, decided.paid(
                    placed.bet_id)[1]),
                rule=str(RULE_SECTION[cfg.profile]),
                reason=f"odds taken in {r.round_id} behind {placed.bet.on}, which the pit "
                       "manager decides: they stand or fall with it"))
    return out


def unknown_layout(cfg: TableOpenedData, rnd: Round) -> Correction:
    """A roll older than the layouts kept (layout.KEEP_THROWN): every bet it decided goes to
    the pit manager, nothing is re-settled by itself."""
    rule = str(RULE_SECTION[cfg.profile])
    review = [BetReviewData(
        bet_id=s.bet_id, seat=s.seat, player_id=s.player_id, kind=s.kind, stake=s.stake,
        outcome_called=s.outcome, paid_called=s.paid, outcome_true=None, paid_true=None,
        rule=rule, reason="the layout this roll was thrown in is no longer kept (older than "
        "the last rolls the table remembers): re-decide it by hand")
        for s in _decided(rnd)]
    return Correction([], review, "the layout of this roll is no longer kept: nothing was "
                      "re-settled automatically")


def _decided(rnd: Round) -> list[BetSettledData]:
    """The bets the roll decided (a withdrawal in the round is no decision of the roll)."""
    return [s for s in rnd.settled.values() if s.outcome != "void"]


def _decisions(report: RollReport) -> dict[str, Decision]:
    return {b.id: d for b, d in report.decisions}


def _money(cfg: TableOpenedData, amount: int) -> Money:
    return Money(amount=amount, currency=cfg.currency)


def _called(rnd: Round, bid: str) -> tuple[BetOutcome | None, int]:
    """What the wrong call's settlement came to (after an earlier correction, if any)."""
    if bid not in rnd.settled:
        return None, 0
    return rnd.paid(bid)


def _fix(cfg: TableOpenedData, lb: LayoutBet, rnd: Round, after: BetResult
         ) -> BetCorrectionData | None:
    outcome_before, paid_before = _called(rnd, lb.placed.bet_id)
    outcome_after = cast(BetOutcome, after.outcome.value)
    if outcome_before is None or (outcome_before, paid_before) == (outcome_after, after.paid):
        return None
    p = lb.placed
    return BetCorrectionData(
        bet_id=p.bet_id, seat=p.seat, player_id=p.player_id, kind=p.bet.kind,
        stake=_money(cfg, after.stake), paid_before=_money(cfg, paid_before),
        paid_after=_money(cfg, after.paid), outcome_before=outcome_before,
        outcome_after=outcome_after, rule=str(after.rule),
        rule_note=after.rule.note or after.detail)


def _review(cfg: TableOpenedData, lb: LayoutBet, rnd: Round, later: list[Round], c: Decision,
            t: Decision, true_result: BetResult | None) -> BetReviewData:
    p, bid = lb.placed, lb.placed.bet_id
    outcome_called, paid_called = _called(rnd, bid)
    decided_later = next((r for r in later if bid in r.settled), None)
    later_paid = None
    if decided_later is not None:
        later_paid = _money(cfg, decided_later.paid(bid)[1])
    return BetReviewData(
        bet_id=bid, seat=p.seat, player_id=p.player_id, kind=p.bet.kind,
        stake=_money(cfg, lb.amount), outcome_called=outcome_called,
        paid_called=_money(cfg, paid_called),
        outcome_true=None if true_result is None else cast(BetOutcome,
                                                           true_result.outcome.value),
        paid_true=None if true_result is None else _money(cfg, true_result.paid),
        later_round=None if decided_later is None else decided_later.round_id,
        later_paid=later_paid, rule=str(t.rule), reason=_reason(c, t, decided_later))


def _state(d: Decision) -> str:
    if d.decided:
        return f"decided it ({d.verdict.value}: {d.why})"
    if d.number is not None:
        return f"left it working on the {d.number} ({d.why})"
    return f"left it working ({d.why})"


def _reason(c: Decision, t: Decision, later: Round | None) -> str:
    text = f"the call {_state(c)}; the true roll {_state(t)}"
    if not c.decided:
        text += (f"; under the call it was decided later, in {later.round_id}" if later
                 else "; under the call it is still on the layout")
    return text + ": later rolls were played on the call's state, the pit manager decides"


def _note(called: RollReport, right: RollReport) -> str:
    """What the wrong call changed in the game's state for later rolls: the point, the dice."""
    def point(p: int | None) -> str:
        return "OFF" if p is None else f"ON {p}"
    parts = []
    if called.point_after != right.point_after:
        parts.append(f"the call left the point {point(called.point_after)}; the true roll "
                     f"leaves it {point(right.point_after)}")
    if called.seven_out != right.seven_out:
        parts.append("the call sevened out and passed the dice" if called.seven_out else
                     "the true roll is a seven-out: the shooter should have passed the dice")
    if parts:
        parts.append("later rolls were thrown on the call's state")
    return "; ".join(parts)

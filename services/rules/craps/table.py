"""A craps table's bets across rolls: the pure aggregate.

`CrapsTable` is immutable. `place`, `change` and `roll` return a new table plus what was
settled, so a sequence of rolls is a fold and any intermediate state can be replayed. The
point (the ON/OFF marker) lives here; line bets carry their own point once they have one, and
odds carry the number of the line bet they back. The table's limits (craps/limits.py) decide
how much of each bet plays when it is decided, and what an upfront commission is taken on.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from services.rules.core.errors import RulesError
from services.rules.core.limits import LimitOutcome, Limits
from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult
from services.rules.craps import money
from services.rules.craps.bets import LINE, ODDS, Bet
from services.rules.craps.dice import Roll, next_point
from services.rules.craps.limits import bet_limits
from services.rules.craps.paytable import PAY_SECTION, RULE_SECTION, PayTable
from services.rules.craps.rules import Decision, Verdict, decide


@dataclass(frozen=True)
class RollReport:
    index: int
    roll: Roll | None            # None: a void roll
    void_reason: str | None
    point_before: int | None
    point_after: int | None
    decisions: tuple[tuple[Bet, Decision], ...] = ()
    results: tuple[BetResult, ...] = ()

    @property
    def seven_out(self) -> bool:
        """The point was on and a 7 came: the shooter's turn ends (rotation: domain.md A-28)."""
        return self.roll is not None and self.point_before is not None and self.roll.total == 7

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"index": self.index, "point_before": self.point_before,
                                  "point_after": self.point_after}
        if self.roll is None:
            out["void"] = self.void_reason
            return out
        out.update({"dice": [self.roll.die1, self.roll.die2], "total": self.roll.total,
                    "hard": self.roll.hard, "seven_out": self.seven_out,
                    "decided": [b.id for b, d in self.decisions if d.decided],
                    "travelled": {b.id: d.number for b, d in self.decisions
                                  if d.verdict is Verdict.TRAVEL}})
        return out


@dataclass(frozen=True)
class CrapsTable:
    table: PayTable
    point: int | None = None
    bets: tuple[Bet, ...] = field(default_factory=tuple)
    limits: Limits = None

    def limit(self, bet: Bet, amount: int | None = None, field_name: str = "amount"
              ) -> LimitOutcome:
        return bet_limits(self.table.profile, self.limits, bet, amount, field_name)

    def bet(self, bet_id: str, field_name: str) -> Bet:
        for bet in self.bets:
            if bet.id == bet_id:
                return bet
        raise RulesError(field_name, f"no bet {bet_id!r} is on the layout")

    # -- placing ---------------------------------------------------------------------------
    def place(self, bet: Bet, roll_index: int | None, *, existing: bool = False
              ) -> tuple[CrapsTable, list[BetResult]]:
        """Put a bet on the layout; returns any commission collected on placement.
        `existing`: the bet was on the layout before this request (a Pass Line with the point
        on is then the bet from the come-out, not a new one)."""
        if any(b.id == bet.id for b in self.bets):
            raise RulesError("id", f"bet id {bet.id!r} is already on the layout")
        bet = self._admit(bet, existing)
        playing = self.limit(bet).playing_stake  # under over_max=reject, refused here
        fees = [] if bet.commission_paid else money.upfront_commission(
            self.table, bet, playing, roll_index)
        if fees:
            bet = replace(bet, commission_paid=True)
        return replace(self, bets=self.bets + (bet,)), fees

    def _admit(self, bet: Bet, existing: bool) -> Bet:
        rules = RULE_SECTION[self.table.profile.id]
        if bet.kind in ("pass_line", "dont_pass"):
            bet = self._admit_line(bet, existing, rules)
        elif bet.kind in ("come", "dont_come"):
            if bet.number is None and self.point is None:
                raise RulesError("kind", f"a {bet.kind} bet is made only once the point is set "
                                 f"(domain.md A-31; {PAY_SECTION[self.table.profile.id]} "
                                 "«después de haber establecido el punto del lanzador»)")
            if bet.number is not None and not existing:
                raise RulesError("number", "a new come bet has no number: it travels on its "
                                 "first roll")
        elif bet.kind in ODDS:
            bet = self._admit_odds(bet, rules)
        elif bet.kind == "field" and self.point is None and \
                self.table.profile.switch("craps_field_timing") == "after_point":
            raise RulesError("kind", "Field bets are taken only once the point is set "
                             "(switch craps_field_timing=after_point, domain.md A-31)")
        try:  # a bet the profile does not offer (or a switch it leaves unset) fails here
            self.table.pay(bet.kind, bet.number, 2)
        except RulesError as err:
            raise RulesError("kind", err.reason) from None
        return bet

    def _admit_line(self, bet: Bet, existing: bool, rules: RuleRef) -> Bet:
        if self.point is None:
            if bet.number is not None:
                raise RulesError("number", f"the point is OFF: a {bet.kind} bet has no point yet")
            return bet
        if not existing:
            raise RulesError("kind", f"a {bet.kind} bet is made on the come-out roll, not once "
                             f"the point is set ({rules}: «Se debe jugar a la primera tirada»; "
                             "«No se aceptan apuestas ...» after the point)")
        if bet.number not in (None, self.point):
            raise RulesError("number", f"a {bet.kind} bet's point is the table's point "
                             f"{self.point}, not {bet.number}")
        return replace(bet, number=self.point)

    def _admit_odds(self, bet: Bet, rules: RuleRef) -> Bet:
        assert bet.on is not None
        base = self.bet(bet.on, "on")
        if base.kind not in LINE:
            raise RulesError("on", f"odds back a line bet (pass, don't pass, come, don't come); "
                             f"{base.id} is a {base.kind} bet")
        if base.number is None:
            raise RulesError("on", f"{base.id} has no point yet: odds are taken once its point "
                             f"is known ({rules} «Suertes asociadas»)")
        if base.wrong != bet.wrong:
            raise RulesError("kind", f"{base.id} is a {base.kind} bet: its odds are "
                             f"{'dont_odds' if base.wrong else 'odds'}")
        return replace(bet, number=base.number)

    # -- withdrawing, reducing, increasing ------------------------------------------------
    def change(self, bet_id: str, amount: int, field_name: str, roll_index: int
               ) -> tuple[CrapsTable, list[BetResult]]:
        """Set a bet's amount; 0 withdraws it (and the odds backing it). Returns the money
        that came back, or the commission on an increase (domain.md §4.6: which bets may move)."""
        bet = self.bet(bet_id, field_name)
        if amount == bet.amount:
            return self, []
        self._check_change(bet, amount, field_name)
        # under over_max=reject a new amount outside the limits is refused here
        playing = self.limit(bet, amount, field_name).playing_stake if amount else 0
        rules = RULE_SECTION[self.table.profile.id]
        if amount == 0:
            gone = [bet] + [b for b in self.bets if b.on == bet.id]
            # words count throws from 1 like explain ("Roll 2"); the `roll` field stays the
            # index into `rolls`, so both name the same throw
            back = [money.returned(b, b.amount, rules, f"withdrawn before roll {roll_index + 1}"
                                   + (f" with {bet.id}" if b is not bet else ""), roll_index)
                    for b in gone]
            return replace(self, bets=tuple(b for b in self.bets if b not in gone)), back
        if amount < bet.amount:
            back = [money.returned(bet, bet.amount - amount, rules,
                                   f"reduced to {amount} before roll {roll_index + 1}", roll_index)]
            new = replace(bet, amount=amount)
        else:  # an increase pays the commission on the added amount that plays
            added = playing - self.limit(bet).playing_stake
            back = money.upfront_commission(self.table, bet, added, roll_index) if added else []
            new = replace(bet, amount=amount)
        return replace(self, bets=tuple(new if b is bet else b for b in self.bets)), back

    def _check_change(self, bet: Bet, amount: int, field_name: str) -> None:
        if bet.kind not in LINE or bet.number is None:
            return  # odds, place, big, hardways, one-roll: at the player's discretion
        rules = RULE_SECTION[self.table.profile.id]
        if not bet.wrong:
            if amount < bet.amount:
                raise RulesError(field_name, f"{bet.id}: a {bet.kind} bet with its point set "
                                 f"cannot be withdrawn or reduced ({rules}: «no se pueden retirar "
                                 "o reducir después que se ha establecido un punto»)")
            if self.table.profile.switch("craps_pass_line_increase") == "forbidden":
                raise RulesError(field_name, f"{bet.id}: a {bet.kind} bet cannot be changed "
                                 "until it is decided (seed 000 §3.1.7.2 «no se pueden modificar "
                                 "hasta concluir la jugada»; switch craps_pass_line_increase)")
            return
        if amount > bet.amount:
            raise RulesError(field_name, f"{bet.id}: a {bet.kind} bet cannot be increased "
                             f"({rules}: «no podrá aumentarse»)")
        try:
            removable = self.table.profile.switch("craps_dont_removable")
        except RulesError as err:
            raise RulesError(field_name, f"{bet.id}: {err.reason}") from None
        if removable == "no":
            raise RulesError(field_name, f"{bet.id}: a {bet.kind} bet with its point set cannot "
                             "be withdrawn or reduced (switch craps_dont_removable=no)")

    # -- rolling ---------------------------------------------------------------------------
    def roll(self, roll: Roll, index: int) -> tuple[CrapsTable, RollReport]:
        decisions, results, kept = [], [], []
        for bet in self.bets:
            decision = decide(bet, self.point, roll, self.table)
            decisions.append((bet, decision))
            if decision.decided:
                results.append(money.settle(bet, decision, self.table, index, self.limit(bet)))
            elif decision.verdict is Verdict.TRAVEL:
                kept.append(replace(bet, number=decision.number))
            else:
                kept.append(bet)
        after = next_point(self.point, roll)
        report = RollReport(index, roll, None, self.point, after, tuple(decisions), tuple(results))
        return replace(self, point=after, bets=tuple(kept)), report

    def void_roll(self, reason: str, index: int) -> tuple[CrapsTable, RollReport]:
        """«Tirada nula» or an invalid throw: nothing is decided, the shooter throws again."""
        return self, RollReport(index, None, reason, self.point, self.point)

    def pending(self) -> list[BetResult]:
        return [money.pending(b, self.table, "still on the layout: not decided yet",
                              self.limit(b)) for b in self.bets]

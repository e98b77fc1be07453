"""What one roll does to one bet: win, lose, push, stay up, or travel to a number.

Pure and table-free: the same function settles real bets (table.py) and drives the exact
edge computation (edges.py), so a published edge is the edge of the code that pays.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from services.rules.core.refs import RuleRef
from services.rules.craps.bets import LINE, ONE_ROLL, SPANISH, Bet
from services.rules.craps.dice import Roll
from services.rules.craps.paytable import RULE_SECTION, Pay, PayTable


class Verdict(str, enum.Enum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    STAY = "stay"       # undecided: the bet stays on the layout
    TRAVEL = "travel"   # a line bet's first roll set its point: it moves to that number


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    rule: RuleRef
    why: str
    pay: Pay | None = None     # WIN only
    number: int | None = None  # TRAVEL only

    @property
    def decided(self) -> bool:
        return self.verdict in (Verdict.WIN, Verdict.LOSE, Verdict.PUSH)


def decide(bet: Bet, point: int | None, roll: Roll, table: PayTable) -> Decision:
    if bet.kind in LINE:
        return _line(bet, roll, table)
    if bet.kind in ONE_ROLL:
        return _one_roll(bet, roll, table)
    if bet.kind == "hardway":
        return _hardway(bet, point, roll, table)
    return _against_seven(bet, roll, table)  # odds, big 6/8, place, place to lose, buy, lay


def _win(bet: Bet, roll: Roll, table: PayTable, why: str) -> Decision:
    pay = table.pay(bet.kind, bet.number, roll.total)
    return Decision(Verdict.WIN, pay.rule, f"{why}: {SPANISH[bet.kind]} wins, paid {pay}", pay)


def _other(verdict: Verdict, table: PayTable, why: str) -> Decision:
    return Decision(verdict, RULE_SECTION[table.profile.id], why)


def _line(bet: Bet, roll: Roll, table: PayTable) -> Decision:
    """Pass Line / Come and Don't Pass / Don't Come (seed 000 §3.1.5 «Suertes sencillas»)."""
    total, name = roll.total, SPANISH[bet.kind]
    if bet.number is not None:
        return _against_seven(bet, roll, table)
    if not bet.wrong:
        if total in (7, 11):
            return _win(bet, roll, table, f"{total} on its first roll")
        if total in (2, 3, 12):
            return _other(Verdict.LOSE, table, f"craps {total} on its first roll: {name} loses")
    else:
        if total in (2, 3):
            return _win(bet, roll, table, f"craps {total} on its first roll")
        if total == 12:
            return _other(Verdict.PUSH, table, f"12 on its first roll: {name} is a standoff "
                          "(«da resultado nulo en 12»)")
        if total in (7, 11):
            return _other(Verdict.LOSE, table, f"{total} on its first roll: {name} loses")
    return Decision(Verdict.TRAVEL, RULE_SECTION[table.profile.id],
                    f"{total} is its point: {name} moves to the {total}", number=total)


def _against_seven(bet: Bet, roll: Roll, table: PayTable) -> Decision:
    """A number against the 7: right bets win on the number, wrong bets on the 7."""
    total, number, name = roll.total, bet.number, SPANISH[bet.kind]
    if total == number:
        if bet.wrong:
            return _other(Verdict.LOSE, table, f"{number} came before the 7: {name} loses")
        return _win(bet, roll, table, f"{number} came before the 7")
    if total == 7:
        if bet.wrong:
            return _win(bet, roll, table, f"7 came before the {number}")
        return _other(Verdict.LOSE, table, f"7 came before the {number}: {name} loses")
    return _other(Verdict.STAY, table, f"{total} does not decide {name} on {number}")


def _one_roll(bet: Bet, roll: Roll, table: PayTable) -> Decision:
    if roll.total in ONE_ROLL[bet.kind]:
        return _win(bet, roll, table, f"{roll.total} rolled")
    return _other(Verdict.LOSE, table, f"{roll.total} rolled: {SPANISH[bet.kind]} loses "
                  "(one-roll bet)")


def _hardway(bet: Bet, point: int | None, roll: Roll, table: PayTable) -> Decision:
    number, total = bet.number, roll.total
    if point is None and not bet.working and \
            table.profile.switch("craps_hardways_on_come_out") == "off_unless_called":
        return _other(Verdict.STAY, table, f"hard {number} is off while no point is set "
                      "(switch craps_hardways_on_come_out)")
    if total == number and roll.hard:
        return _win(bet, roll, table, f"hard {number} ({roll.die1}-{roll.die2}) rolled")
    if total == 7:
        return _other(Verdict.LOSE, table, f"7 rolled: hard {number} loses")
    if total == number:
        return _other(Verdict.LOSE, table, f"soft {number} ({roll.die1}-{roll.die2}) rolled: "
                      f"hard {number} loses")
    return _other(Verdict.STAY, table, f"{total} does not decide hard {number}")


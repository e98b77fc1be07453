"""The chemin-de-fer bank (BO «Baccarat o Chemin de Fer o Ferrocarril», seed 002 §2.2.3.2).

A player holds the bank and covers the Punto bets («debiendo colocar la cantidad de fichas de
dinero necesaria para cubrir las apuestas»). Rules from seed 002 §2.2.5.1:
- bank between the table minimum and 100 × the minimum («Máxima cantidad del banco»);
- a player's maximum bet is the amount in the bank; betting all of it «hace banco»;
- the banker always bets on Banca, so the banker places no Punto bet;
- the Punto decider at 5 is the player with the largest Punto bet;
- garage obligatorio: anything above 100 × minimum leaves the bank; garage voluntario: at most
  «Valor ganancias obtenidas por el banquero, menos 50 veces el mínimo»;
- if Banca loses, the banker loses the bank and the shoe («sabot pasa»).
Other players' Banca bets («a favor de la banca», §2.2.3.2) are read as association with the
bank: they are paid from the Punto stakes, so they may not exceed them, and the banker covers
the rest. Every Banca win bears the house deduction (§2.2.4.2; rate: switch baccarat_commission).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.rules.baccarat.coup import BANKER, TIE, Coup
from services.rules.baccarat.request import Round
from services.rules.baccarat.settle import winnings
from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.core.results import BetResult, Outcome

BANK_RULE = RuleRef("002", "§2.2.5.1", quote="Cantidad de dinero ... que debe tener el banco")
MAX_BET_RULE = RuleRef("002", "§2.2.5.1", quote="hace banco")
GARAGE_RULE = RuleRef("002", "§2.2.5.1", quote="Garage")
DEDUCTION_RULE = RuleRef("002", "§2.2.4.2", note="deduction rate: switch baccarat_commission "
                         "([gap] §2.2.7 is in no seed)")
CHOICE_RULE = RuleRef("002", "§2.2.5.1", quote="el jugador que haya efectuado la mayor apuesta "
                      "al punto decide")


def punto_stakes(rnd: Round) -> dict[int, int]:
    stakes: dict[int, int] = {}
    for bet in rnd.bets:
        if bet.kind == "player":
            assert bet.seat is not None  # required in chemin de fer (request.py, _bet)
            stakes[bet.seat] = stakes.get(bet.seat, 0) + bet.amount
    return stakes


def check_bank(rnd: Round) -> int:
    """Validate the bank against the bets; return what the banker has at risk."""
    bank, minimum = rnd.bank, rnd.table_minimum
    assert bank is not None and minimum is not None
    if not minimum <= bank.amount <= 100 * minimum:
        raise RulesError("bank.amount", f"{bank.amount} is outside the bank limits {minimum}–"
                         f"{100 * minimum} (table minimum to 100 × minimum, {BANK_RULE})")
    for bet in rnd.bets:
        if bet.kind == "player" and bet.seat == bank.seat:
            raise RulesError(bet.field, f"the banker (seat {bank.seat}) always bets on Banca "
                             "(seed 002 §2.2.5.1 «está obligado a apostar siempre a la Banca»)")
        if bet.kind == "player" and bet.amount > bank.amount:
            raise RulesError(f"{bet.field}.amount", f"{bet.amount} exceeds the bank "
                             f"{bank.amount}: a player's maximum bet is the amount in the bank "
                             f"({MAX_BET_RULE})")
    fading = sum(punto_stakes(rnd).values())
    associated = sum(b.amount for b in rnd.bets if b.kind == BANKER)
    if associated > fading:
        raise RulesError("bets", f"Banca bets by other players ({associated}) exceed the Punto "
                         f"stakes ({fading}) that would pay them; they join the bank, which "
                         "only wins what Punto loses (seed 002 §2.2.3.2)")
    if fading - associated > bank.amount:
        raise RulesError("bets", f"the Punto stakes ({fading}) exceed what the bank "
                         f"({bank.amount}) and its associates ({associated}) can cover "
                         "(seed 002 §2.2.3.2 «cubrir las apuestas»)")
    return fading - associated


def check_choice(rnd: Round) -> str:
    """The decider at Punto 5 must hold the largest Punto bet; returns a note for explain()."""
    choice = rnd.choice
    if choice is None:
        return ""
    stakes = punto_stakes(rnd)
    if not stakes:
        raise RulesError("punto_choice", "nobody bet on Punto, so nobody can decide for it")
    top = max(stakes.values())
    leaders = sorted(seat for seat, amount in stakes.items() if amount == top)
    if choice.seat not in leaders:
        raise RulesError("punto_choice.seat", f"seat {choice.seat} does not hold the largest "
                         f"Punto bet ({top}, seat(s) {leaders}) ({CHOICE_RULE})")
    if len(leaders) > 1:
        return (f"seats {leaders} tie for the largest Punto bet: the first to the croupier's "
                "left decides (seed 002 §2.2.5.1); the table layout is not in the request, so "
                f"the croupier's designation of seat {choice.seat} is recorded, not verified")
    return f"seat {choice.seat} holds the largest Punto bet ({top}) and decides ({CHOICE_RULE})"


@dataclass(frozen=True)
class BankResult:
    position: BetResult   # the banker's own stake in this round, as a bet on Banca
    before: int
    after_round: int      # bank after the round, before any garage
    garage_mandatory: int
    garage_voluntary: int
    remaining: int        # in the bank after the garages (returned to the banker if it passes)
    winnings_in_bank: int
    passes: bool          # Banca lost: the bank and the shoe pass («sabot pasa»)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.position.extra.get("seat"), "before": self.before,
                "at_risk": self.position.stake, "after_round": self.after_round,
                "garage_mandatory": self.garage_mandatory,
                "garage_voluntary": self.garage_voluntary, "remaining": self.remaining,
                "winnings_in_bank": self.winnings_in_bank, "passes": self.passes,
                "max_bet_next_round": 0 if self.passes else self.remaining}


def settle_bank(rnd: Round, coup: Coup, at_risk: int, profile: Profile) -> BankResult:
    bank, minimum = rnd.bank, rnd.table_minimum
    assert bank is not None and minimum is not None
    seat = {"seat": bank.seat}
    if coup.winner == TIE:
        position = BetResult("bank", at_risk, at_risk, Outcome.VOID, rnd.variant.tie_rule,
                             "tie: the round is void", extra=seat)
        return _garage(rnd, position, bank.amount, bank.winnings, False, minimum)
    if coup.winner != BANKER:
        position = BetResult("bank", at_risk, 0, Outcome.LOSE, rnd.variant.win_rule,
                             f"Banca lost: the bank pays {at_risk} to Punto and passes with the "
                             "shoe («sabot pasa»)", extra=seat)
        if bank.garage:
            raise RulesError("bank.garage", "no garage: Banca lost, so the bank passes")
        return BankResult(position, bank.amount, bank.amount - at_risk, 0, 0,
                          bank.amount - at_risk, 0, True)
    won, deduction = winnings(at_risk, BANKER, profile)
    position = BetResult("bank", at_risk, at_risk + won, Outcome.WIN, DEDUCTION_RULE,
                         f"Banca won: the bank wins {at_risk} from Punto less a house deduction "
                         f"of {deduction} ({profile.switch('baccarat_commission')})",
                         extra={**seat, "commission": deduction})
    return _garage(rnd, position, bank.amount + won, bank.winnings + won, False, minimum)


def _garage(rnd: Round, position: BetResult, after: int, won_in_bank: int, passes: bool,
            minimum: int) -> BankResult:
    bank = rnd.bank
    assert bank is not None
    mandatory = max(0, after - 100 * minimum)
    won_in_bank = max(0, won_in_bank - mandatory)
    allowed = won_in_bank - 50 * minimum
    if bank.garage and bank.garage > allowed:
        raise RulesError("bank.garage", f"{bank.garage} exceeds the voluntary garage allowed: "
                         f"winnings in the bank ({won_in_bank}) minus 50 × minimum "
                         f"({50 * minimum}) = {max(0, allowed)} ({GARAGE_RULE})")
    remaining = after - mandatory - bank.garage
    return BankResult(position, bank.amount, after, mandatory, bank.garage, remaining,
                      won_in_bank - bank.garage, passes)

"""Settle Punto, Banca and Tie bets on a played round, in exact integer minor units.

Winnings are `stake × ratio` rounded once by the profile's rounding switch (core.money). The
Banca commission is taken from the winnings, never the stake («1 a 1 deducido el porcentaje
de comisión», seed 004 III §2.7; «menos el 5% de Comisión sobre la cantidad ganada», seed 003
Bac §2.1.8): the player receives round(stake × (1 − c)) and the commission is the rest, so
a truncating profile never pays a fraction of a minor unit. On a tie Punto and Banca bets are
void (returned, «nulas»); in chemin de fer the whole round is void.
"""
from __future__ import annotations

from fractions import Fraction

from services.rules.baccarat import variants
from services.rules.baccarat.coup import HAND_NAME, PLAYER, TIE, Coup
from services.rules.baccarat.request import Bet
from services.rules.baccarat.variants import Variant
from services.rules.core.limits import LimitOutcome, TableLimits, apply_limits
from services.rules.core.money import apply_fraction
from services.rules.core.profiles import Profile
from services.rules.core.results import BetResult, Outcome


def winnings(stake: int, kind: str, profile: Profile) -> tuple[int, int]:
    """(winnings, commission) of a winning bet of `kind` on `stake`."""
    if kind == "tie":
        return apply_fraction(stake, variants.tie_ratio(profile), profile.rounding), 0
    if kind == PLAYER:
        return apply_fraction(stake, variants.player_ratio(profile), profile.rounding), 0
    rate = variants.commission(profile)
    won = apply_fraction(stake, 1 - rate, profile.rounding)
    return won, stake - won


def _ratio_text(kind: str, profile: Profile) -> str:
    if kind == "tie":
        return f"Empate pays {profile.switch('baccarat_tie_pays')}"
    if kind == PLAYER:
        return f"Punto pays {profile.switch('baccarat_player_pays')}"
    return f"Banca pays 1:1 less {profile.switch('baccarat_commission')} commission on the winnings"


def settle_bet(bet: Bet, coup: Coup, variant: Variant, profile: Profile,
               limits: TableLimits | None) -> BetResult:
    lim = apply_limits(bet.amount, limits, profile, f"{bet.field}.amount", "baccarat")
    if coup.winner == TIE and bet.kind != "tie":
        outcome = Outcome.PUSH if variant.tie_bet else Outcome.VOID
        detail = (f"tie {coup.punto_total} a {coup.banca_total}: "
                  + ("Punto and Banca bets are void and returned" if variant.tie_bet
                     else "no tie bet in chemin de fer, the round is void"))
        return _result(bet, lim, lim.playing_stake, outcome, variant.tie_rule, detail)
    if bet.kind != coup.winner:
        winner = "tie" if coup.winner == TIE else HAND_NAME[coup.winner]
        return _result(bet, lim, 0, Outcome.LOSE, variant.win_rule,
                       f"{winner} won (Punto {coup.punto_total}, Banca {coup.banca_total}); "
                       "the bet loses")
    won, commission = winnings(lim.playing_stake, bet.kind, profile)
    detail = f"{_ratio_text(bet.kind, profile)}: winnings {won}"
    if commission:
        detail += f" after a commission of {commission}"
    return _result(bet, lim, lim.playing_stake + won, Outcome.WIN, variant.pay_rule, detail,
                   commission)


def _result(bet: Bet, lim: LimitOutcome, paid_on_stake: int, outcome: Outcome, rule, detail: str,
            commission: int = 0) -> BetResult:
    """`paid_on_stake` is what the playing stake earns; any excess over the maximum is returned
    on top whatever the outcome (seed 002 §1.2.1.1, seed 004 RG §4.2)."""
    extra: dict[str, object] = {}
    if bet.seat is not None:
        extra["seat"] = bet.seat
    if commission:
        extra["commission"] = commission
    if lim.excess:
        detail += f"; {lim.excess} over the table maximum returned ({lim.rule})"
    if lim.under_minimum:
        extra["under_minimum"] = True
        detail += f"; under the table minimum: settled on the actual stake with the jefe de " \
                  f"sala's authorisation ({lim.rule}, domain.md A-2)"
    return BetResult(bet.kind, bet.amount, paid_on_stake + lim.excess, outcome, rule, detail,
                     lim.excess, extra)


def house_edge(kind: str, p_player: Fraction, p_banker: Fraction, p_tie: Fraction,
               profile: Profile) -> Fraction:
    """The exact house edge (expected loss per unit staked, ties counted) of `kind`."""
    if kind == "tie":
        return -(p_tie * variants.tie_ratio(profile) - (p_player + p_banker))
    if kind == PLAYER:
        return -(p_player * variants.player_ratio(profile) - p_banker)
    return -(p_banker * (1 - variants.commission(profile)) - p_player)

"""What one bet does on one pocket, before any money or limits: win, lose, half back, prison.

A Decision says how much of the playing stake comes back (`multiplier`: 1 + ratio on a win,
1/2 on half back, 1 on a prisoner's release, 0 on a loss or a stake left in prison) and the
rule that decided it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.core.results import Outcome
from services.rules.roulette.bets import EVEN_CHANCES, ZERO_OPTIONS, RouletteBet
from services.rules.roulette.layout import Group, Wheel
from services.rules.roulette.paytable import ZERO_RULES, Pay

PRISON_RULE = RuleRef("000", "§4.1.4.2 item 11")


@dataclass(frozen=True)
class Decision:
    outcome: Outcome
    multiplier: Fraction
    rule: RuleRef
    detail: str


def zero_option(profile: Profile, bet: RouletteBet) -> str:
    """The zero rule for this even-chance bet: the player's recorded choice, else the profile's."""
    default = profile.switch("roulette_zero_even_chance")
    if bet.zero_option is None:
        return default
    if bet.kind not in EVEN_CHANCES:
        raise RulesError("zero_option", f"only even chances have a zero option, not {bet.kind}")
    if default == "lose":
        raise RulesError("zero_option", f"profile {profile.id} offers no choice on zero: even "
                         f"chances lose ({ZERO_RULES[profile.id]})")
    if bet.zero_option not in ZERO_OPTIONS:
        raise RulesError("zero_option", f"{bet.zero_option!r} is not one of "
                         f"{', '.join(ZERO_OPTIONS)}")
    return bet.zero_option


def check_imprisoned(profile: Profile, bet: RouletteBet) -> None:
    if not bet.imprisoned:
        return
    if bet.kind not in EVEN_CHANCES:
        raise RulesError("imprisoned", f"only even chances go to prison, not {bet.kind}")
    if profile.switch("roulette_zero_even_chance") == "lose":
        raise RulesError("imprisoned", f"profile {profile.id} has no prison: even chances lose "
                         f"on zero ({ZERO_RULES[profile.id]})")
    if bet.zero_option is not None:
        raise RulesError("zero_option", "a bet already in prison has no zero option: a second "
                         "zero loses it (seed 000 §4.1.4.2 item 11)")


def _zero_rule(profile: Profile, option: str) -> RuleRef:
    """The rule behind a zero decision; a value no seed gives the profile says it is a switch."""
    if option in ZERO_OPTIONS:
        if profile.id == "BO":
            return PRISON_RULE
        return RuleRef("000", "§4.1.4.2 item 11",
                       note=f"switch roulette_zero_even_chance={option} applied to {profile.id}")
    if profile.id != "BO":
        return ZERO_RULES[profile.id]
    return RuleRef("004", "II §1.7", quote="El jugador pierde la totalidad de su apuesta",
                   note="switch roulette_zero_even_chance=lose applied to BO")


def _on_zero(profile: Profile, bet: RouletteBet, pocket: str) -> Decision:
    option = zero_option(profile, bet)
    rule = _zero_rule(profile, option)
    if option == "half_back":
        return Decision(Outcome.HALF_BACK, Fraction(1, 2), rule,
                        f"{pocket} came out on an even chance: half the stake back (option a)")
    if option == "prison":
        return Decision(Outcome.PRISON, Fraction(0), rule,
                        f"{pocket} came out on an even chance: the stake stays en prisión for "
                        f"the next spin (option b)")
    return Decision(Outcome.LOSE, Fraction(0), rule,
                    f"{pocket} came out: even chances lose the whole stake")


def _second_spin(bet: RouletteBet, group: Group, wheel: Wheel, pocket: str) -> Decision:
    """Seed 000 §4.1.4.2 item 11, «2da Jugada»."""
    if pocket in wheel.zeros:
        return Decision(Outcome.LOSE, Fraction(0), PRISON_RULE,
                        f"{pocket} came out again: the imprisoned stake is lost")
    if pocket in group:
        return Decision(Outcome.PUSH, Fraction(1), PRISON_RULE,
                        f"{pocket} wins {bet.kind}: the imprisoned stake recovers its «libertad» "
                        f"(returned, not paid)")
    return Decision(Outcome.LOSE, Fraction(0), PRISON_RULE,
                    f"{pocket} loses {bet.kind}: the imprisoned stake is lost")


def decide(profile: Profile, wheel: Wheel, bet: RouletteBet, group: Group, pay: Pay,
           pocket: str) -> Decision:
    check_imprisoned(profile, bet)
    if bet.imprisoned:
        return _second_spin(bet, group, wheel, pocket)
    if bet.zero_option is not None:
        zero_option(profile, bet)  # validate the recorded choice even when zero did not come
    if pocket in group:
        return Decision(Outcome.WIN, 1 + pay.ratio, pay.rule,
                        f"{pocket} wins {bet.kind}: paid {pay.ratio.numerator}:"
                        f"{pay.ratio.denominator}")
    if pocket in wheel.zeros and bet.kind in EVEN_CHANCES:
        return _on_zero(profile, bet, pocket)
    return Decision(Outcome.LOSE, Fraction(0), pay.rule, f"{pocket} is not covered: lost")

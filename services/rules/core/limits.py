"""Table limits and what happens to a bet outside them (domain.md §1.2).

BO (seed 002 §1.2.1.1) and CL-ARICA (seed 004 RG §4.2) share the wording: an over-maximum bet
plays the maximum and the excess is returned whether it wins or loses; an under-minimum bet
that slipped through is settled on what was actually staked (with the jefe de sala's
authorisation, ambiguity A-2). LIVE-GG (seed 003 Bac §2.1.7, BJ §2.1.4, Rul §2.1.5) rejects
the bet before the deal/spin. AR-RUL's roulette cascade is specific to roulette and lives
there; this module only reports the switch.
"""
from __future__ import annotations

from dataclasses import dataclass

from services.rules.core.errors import RulesError
from services.rules.core.profiles import Profile, declare_switch
from services.rules.core.refs import RuleRef

declare_switch(
    "over_max", ("return_excess", "ar_cascade", "reject"),
    {"BO": "return_excess", "CL-ARICA": "return_excess", "AR-RUL": "ar_cascade",
     "LIVE-GG": "reject"},
    "Over-maximum bet: BO seed 002 §1.2.1.1 / CL seed 004 RG §4.2 play the maximum and return the "
    "excess; AR seed 001 cascades a winning excess (roulette) and forfeits it on a loss; LIVE-GG "
    "seed 003 rejects it before the deal.",
)

_REFS = {
    "BO": RuleRef("002", "§1.2.1.1"),
    "CL-ARICA": RuleRef("004", "RG §4.2"),
    "AR-RUL": RuleRef("001", quote="Las apuestas para cada suerte o chance oscilarán entre un mínimo y un máximo"),
    "LIVE-GG": RuleRef("003", "Rul §2.1.5"),
}


@dataclass(frozen=True)
class TableLimits:
    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        if self.minimum < 0 or self.maximum <= 0 or self.minimum > self.maximum:
            raise RulesError("limits", f"minimum {self.minimum} and maximum {self.maximum} "
                             "must satisfy 0 <= minimum <= maximum, maximum > 0")


@dataclass(frozen=True)
class LimitOutcome:
    playing_stake: int     # the part of the stake that plays the bet
    excess: int            # stake above the maximum (returned, cascaded or forfeited per profile)
    under_minimum: bool    # settled on the actual stake; needs the jefe de sala's authorisation
    policy: str            # the profile's over_max switch value
    rule: RuleRef


def apply_limits(stake: int, limits: TableLimits | None, profile: Profile,
                 field: str = "amount") -> LimitOutcome:
    """Split a stake into what plays and what is over the limit, per the profile."""
    policy = profile.switch("over_max")
    rule = _REFS.get(profile.id, RuleRef("", "limits"))
    if limits is None:
        return LimitOutcome(stake, 0, False, policy, rule)
    if policy == "reject" and (stake > limits.maximum or stake < limits.minimum):
        raise RulesError(field, f"{stake} is outside the table limits "
                         f"{limits.minimum}–{limits.maximum}; {rule} rejects it before play")
    excess = max(0, stake - limits.maximum)
    return LimitOutcome(stake - excess, excess, stake < limits.minimum, policy, rule)

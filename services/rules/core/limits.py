"""Table limits and what happens to a bet outside them (domain.md §1.2).

BO (seed 002 §1.2.1.1) and CL-ARICA (seed 004 RG §4.2) share the wording: an over-maximum bet
plays the maximum and the excess is returned whether it wins or loses; an under-minimum bet
that slipped through is settled on what was actually staked (with the jefe de sala's
authorisation, ambiguity A-2). LIVE-GG (seed 003 Bac §2.1.7, BJ §2.1.4, Rul §2.1.5) rejects
the bet before the deal/spin. AR-RUL's roulette cascade is specific to roulette and lives
there; this module only reports the switch.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from services.rules.core.errors import FieldError, RulesError
from services.rules.core.money import parse_amount
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
    "AR-RUL": RuleRef("001", quote="Las apuestas para cada suerte o chance oscilarán entre un "
                                   "mínimo y un máximo"),
    "LIVE-GG": RuleRef("003", "Rul §2.1.5"),
}
# LIVE-GG prints the rejection once per game: «Una apuesta puede ser rechazada por el sistema
# ... por no cumplir los requisitos de apuesta mínima o máxima» (seed 003).
_LIVE_REFS = {"baccarat": RuleRef("003", "Bac §2.1.7"), "blackjack": RuleRef("003", "BJ §2.1.4"),
              "roulette": RuleRef("003", "Rul §2.1.5")}


def _rule(profile: Profile, game: str | None) -> RuleRef:
    """The limits rule of the profile, for the game's own section where it has one."""
    if profile.id == "LIVE-GG" and game in _LIVE_REFS:
        return _LIVE_REFS[game]
    return _REFS.get(profile.id, RuleRef("", "limits"))


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
                 field: str = "amount", game: str | None = None) -> LimitOutcome:
    """Split a stake into what plays and what is over the limit, per the profile; `game`
    picks the game's own section of the rule where the profile has one (LIVE-GG)."""
    policy = profile.switch("over_max")
    rule = _rule(profile, game)
    if limits is None:
        return LimitOutcome(stake, 0, False, policy, rule)
    if policy == "reject" and (stake > limits.maximum or stake < limits.minimum):
        raise RulesError(field, f"{stake} is outside the table limits "
                         f"{limits.minimum}–{limits.maximum}; {rule} rejects it before play")
    excess = max(0, stake - limits.maximum)
    return LimitOutcome(stake - excess, excess, stake < limits.minimum, policy, rule)


# -- shared by the games' requests and results ----------------------------------------------
Limits = TableLimits | Mapping[str, TableLimits] | None
DEFAULT_KEY = "default"   # per-kind limits: the limits of every kind not listed


def parse_table_limits(raw: object, field: str = "limits") -> TableLimits:
    """One {"minimum": ..., "maximum": ...} in minor units; errors name `field.<key>`."""
    if not isinstance(raw, Mapping):
        raise RulesError(field, "must be {\"minimum\": ..., \"maximum\": ...} in minor units")
    for key in raw:
        if key not in ("minimum", "maximum"):
            raise RulesError(f"{field}.{key}", "unknown field; limits are minimum and maximum")
    minimum = parse_amount(raw.get("minimum"), f"{field}.minimum", allow_zero=True)
    maximum = parse_amount(raw.get("maximum"), f"{field}.maximum")
    try:
        return TableLimits(minimum, maximum)
    except RulesError as err:
        raise RulesError(field, err.reason) from None


def parse_limits(raw: object, field: str = "limits", kinds: Iterable[str] | None = None
                 ) -> Limits:
    """None, one {minimum, maximum} for every bet, or — when `kinds` is given — one per bet
    kind, with "default" for the kinds not listed (AR: «para cada suerte o chance»)."""
    if raw is None:
        return None
    flat = isinstance(raw, Mapping) and ("minimum" in raw or "maximum" in raw)
    if kinds is None or flat or not isinstance(raw, Mapping):
        return parse_table_limits(raw, field)
    known = (*kinds, DEFAULT_KEY)
    if not raw:
        raise RulesError(field, "give {minimum, maximum}, or one {minimum, maximum} per bet kind")
    errors: list[FieldError] = []
    out: dict[str, TableLimits] = {}
    for key, value in raw.items():
        try:
            if key not in known:
                raise RulesError(f"{field}.{key}", "neither minimum/maximum nor a bet kind; kinds: "
                                 + ", ".join(known))
            out[str(key)] = parse_table_limits(value, f"{field}.{key}")
        except RulesError as err:
            errors += err.errors
    if errors:
        raise RulesError(errors=errors)
    return out


def limits_for(limits: Limits, kind: str, field: str = "limits") -> TableLimits | None:
    """The limits of one bet kind: the flat limits, or its own entry, else "default"."""
    if limits is None or isinstance(limits, TableLimits):
        return limits
    found = limits.get(kind, limits.get(DEFAULT_KEY))
    if found is None:
        raise RulesError(f"{field}.{kind}", f"no limits given for {kind} bets: give "
                         f"{field}.{kind} or {field}.{DEFAULT_KEY}")
    return found


def describe_limits(limits: Limits) -> str:
    if limits is None:
        return "none given"
    if isinstance(limits, TableLimits):
        return f"{limits.minimum}–{limits.maximum} per bet"
    return ", ".join(f"{kind} {lim.minimum}–{lim.maximum}" for kind, lim in limits.items())


def check_no_cascade(profile: Profile, game: str) -> None:
    """The AR cascade re-plays an excess on roulette's lower bets (seed 001, pleno to línea);
    no other game has such bets, so it cannot be applied there."""
    if profile.switch("over_max") == "ar_cascade":
        raise RulesError("switches.over_max", f"ar_cascade is the AR roulette cascade (seed "
                         f"001); {game} takes return_excess or reject")


def annotation(lim: LimitOutcome) -> tuple[str, dict[str, object]]:
    """What a BetResult says when a limit changed its settlement: words for `detail` and the
    fields `limit_rule` / `under_minimum` (nothing when the stake was within the limits)."""
    words: list[str] = []
    extra: dict[str, object] = {}
    if lim.excess:
        words.append(f"{lim.excess} over the table maximum returned, {lim.playing_stake} "
                     f"played ({lim.rule})")
    if lim.under_minimum:
        words.append(f"under the table minimum: settled on the actual stake, with the jefe de "
                     f"sala's authorisation ({lim.rule}, domain.md A-2)")
        extra["under_minimum"] = True
    if words:
        extra["limit_rule"] = str(lim.rule)
    return "; ".join(words), extra

"""Craps table limits: one {minimum, maximum} for every bet, or one per bet kind.

Where the limits come from: the operator's «Plan de Apuestas», posted per game (seed 002
§1.2.1.1; seed 004 RG §4.2 «en caso de haberlos»). Craps signs usually give the odds, the place
bets and the one-roll bets limits of their own, so `limits` may be per kind, with "default"
for the kinds not listed. Neither craps text (seed 000 §3.1, seed 004 IV §1) caps the odds by
the line bet («3-4-5x» is casino practice, not in the seeds): give `limits.odds` instead.

An over-maximum bet plays the maximum and its excess comes back when the bet is decided, won
or lost; an under-minimum bet is settled on its actual stake and flagged (domain.md A-2).
A bet still on the layout keeps its whole amount: the limit is applied when it is decided, so
the same `limits` must come with the next request.
"""
from __future__ import annotations

from collections.abc import Iterable

from services.rules.core.errors import FieldError, RulesError
from services.rules.core.limits import LimitOutcome, Limits, apply_limits, limits_for, parse_limits
from services.rules.core.profiles import Profile
from services.rules.craps.bets import KINDS, Bet


def parse_craps_limits(raw: object) -> Limits:
    return parse_limits(raw, "limits", KINDS)


def check_covered(limits: Limits, bets: Iterable[Bet]) -> None:
    """Per-kind limits must cover every kind the request bets (else its own entry or
    "default" is missing): one error per uncovered kind, naming `limits.<kind>`."""
    errors: list[FieldError] = []
    for kind in dict.fromkeys(b.kind for b in bets):
        try:
            limits_for(limits, kind)
        except RulesError as err:
            errors += err.errors
    if errors:
        raise RulesError(errors=errors)


def bet_limits(profile: Profile, limits: Limits, bet: Bet, amount: int | None = None,
               field: str = "amount") -> LimitOutcome:
    """How much of the bet plays (and what comes back) under the profile's over_max switch;
    raises under `reject` for a stake outside the limits."""
    return apply_limits(bet.amount if amount is None else amount, limits_for(limits, bet.kind),
                        profile, field)

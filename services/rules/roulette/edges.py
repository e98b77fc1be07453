"""Exact house edges by full enumeration: every instance of every bet against every pocket.

The edge of a bet is 1 - E[returned] / stake, computed with Fractions from the same decision
rules that settle real bets (no rounding: the edge of the pay table, not of a chip size).
A stake sent to prison is valued by enumerating the second spin too.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

from services.rules.core.profiles import Profile
from services.rules.core.results import Outcome
from services.rules.registry import EdgeRow
from services.rules.roulette.bets import (
    CALLED_KINDS,
    EVEN_CHANCES,
    INDEXED,
    RouletteBet,
    coverage,
    sort_pockets,
)
from services.rules.roulette.called import called_rule, expand
from services.rules.roulette.decide import decide
from services.rules.roulette.layout import WHEELS, Wheel
from services.rules.roulette.paytable import PAY_TABLES, PROFILE_WHEELS, pay_for

METHOD = "exact enumeration"


def instances(kind: str, wheel: Wheel) -> Iterator[RouletteBet]:
    """Every valid bet of this kind on this wheel, with a stake of its number of units."""
    groups = {"straight": [frozenset({p}) for p in wheel.pockets], "split": wheel.splits,
              "street": wheel.streets, "corner": wheel.corners,
              "five_number": wheel.five_numbers, "six_line": wheel.six_lines}
    if kind in groups:
        for g in sorted(groups[kind], key=sort_pockets):
            yield RouletteBet(kind, 1, tuple(sort_pockets(g)))
    elif kind in INDEXED:
        yield from (RouletteBet(kind, 1, (), i) for i in INDEXED[kind])
    elif kind == "neighbours":
        yield from (RouletteBet(kind, 5, (p,)) for p in wheel.pockets)
    elif kind in CALLED_KINDS:
        yield RouletteBet(kind, {"voisins": 9, "tiers": 6, "orphelins": 5}[kind])
    else:
        yield RouletteBet(kind, 1)


def _plain_return(profile: Profile, wheel: Wheel, bet: RouletteBet, pocket: str) -> Fraction:
    group = coverage(bet, wheel)
    decision = decide(profile, wheel, bet, group, pay_for(profile, bet.kind), pocket)
    if decision.outcome is not Outcome.PRISON:
        return bet.amount * decision.multiplier
    jailed = replace(bet, imprisoned=True, zero_option=None)
    second = [decide(profile, wheel, jailed, group, pay_for(profile, bet.kind), p).multiplier
              for p in wheel.pockets]
    return bet.amount * Fraction(sum(second), len(second))


def expected_return(profile: Profile, wheel: Wheel, bet: RouletteBet) -> Fraction:
    parts = expand(bet, bet.amount, wheel) if bet.kind in CALLED_KINDS else [bet]
    total = sum(_plain_return(profile, wheel, part, pocket)
                for part in parts for pocket in wheel.pockets)
    return Fraction(total, len(wheel.pockets))


def edge(profile: Profile, wheel: Wheel, bet: RouletteBet) -> Fraction:
    return 1 - expected_return(profile, wheel, bet) / bet.amount


def _variants(profile: Profile, kind: str) -> list[str | None]:
    if kind not in EVEN_CHANCES:
        return [None]
    if profile.switch("roulette_zero_even_chance") == "lose":
        return [None]
    return ["half_back", "prison"]  # the player's choice on zero (seed 000 §4.1.4.2 item 11)


def _kinds(profile: Profile, wheel: Wheel) -> list[str]:
    kinds = list(PAY_TABLES[profile.id])
    if profile.switch("roulette_called_bets") == "allowed" and wheel.name == "european":
        kinds += list(CALLED_KINDS)
    return kinds


def _rows(profile: Profile, wheel: Wheel, kind: str, option: str | None) -> list[EdgeRow]:
    by_edge: dict[Fraction, list[RouletteBet]] = {}
    for bet in instances(kind, wheel):
        by_edge.setdefault(edge(profile, wheel, replace(bet, zero_option=option)), []).append(bet)
    rule = (called_rule(profile.id, kind) if kind in CALLED_KINDS
            else pay_for(profile, kind, wheel.name).rule)
    variant = wheel.name + (f", zero: {option}" if option else "")
    rows = []
    for value, bets in sorted(by_edge.items()):
        note = f"{len(bets)} instance(s) enumerated over {len(wheel.pockets)} pockets"
        if len(by_edge) > 1:
            note += "; e.g. " + ", ".join("-".join(b.numbers) or str(b.index) for b in bets[:3])
        rows.append(EdgeRow("roulette", variant, kind, value, METHOD, rule, note))
    return rows


def edges(profile: Profile) -> list[EdgeRow]:
    rows: list[EdgeRow] = []
    for name in PROFILE_WHEELS[profile.id]:
        for kind in _kinds(profile, WHEELS[name]):
            for option in _variants(profile, kind):
                rows.extend(_rows(profile, WHEELS[name], kind, option))
    return rows

"""Roulette table limits: per table or per bet type, and the AR over-maximum cascade.

`limits` is either one TableLimits for every bet, or a mapping bet kind -> TableLimits (seed
001: «Las apuestas para cada suerte o chance oscilarán entre un mínimo y un máximo»).
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from services.rules.core.errors import RulesError
from services.rules.core.limits import DEFAULT_KEY, TableLimits
from services.rules.core.profiles import Profile
from services.rules.core.refs import RuleRef
from services.rules.roulette.paytable import pay_for

Limits = TableLimits | Mapping[str, TableLimits] | None

# Seed 001: «jugando el excedente de Pleno a Semi Pleno, el de Semi Pleno a Calle, el de Calle
# a Cuadro y el de Cuadro a Línea. Si restare aun un excedente ... será devuelto al jugador».
CASCADE = ("straight", "split", "street", "corner", "six_line")
CASCADE_RULE = RuleRef("001", quote="se distribuirá el excedente en forma descendente")
A_CABALLO_RULE = RuleRef("001", quote="se permitirá apostar el doble del máximo establecido")
A_CABALLO = {"two_dozens": "dozen", "two_columns": "column"}


def _doubled(limits: TableLimits) -> TableLimits:
    return TableLimits(limits.minimum, 2 * limits.maximum)


def limits_for(limits: Limits, kind: str, profile: Profile) -> TableLimits | None:
    """The limits of one bet kind. AR: a caballo on two chances may stake twice the chance
    maximum (seed 001, A_CABALLO_RULE)."""
    if limits is None or isinstance(limits, TableLimits):
        if limits is not None and profile.id == "AR-RUL" and kind in A_CABALLO:
            return _doubled(limits)
        return limits
    if kind in limits:
        return limits[kind]
    if profile.id == "AR-RUL" and A_CABALLO.get(kind) in limits:
        return _doubled(limits[A_CABALLO[kind]])
    if DEFAULT_KEY in limits:  # the kinds not listed, as in craps (core.limits)
        return limits[DEFAULT_KEY]
    raise RulesError(f"limits.{kind}", f"no limits given for {kind} bets: give limits.{kind} "
                     f"or limits.{DEFAULT_KEY}")


def cascade(profile: Profile, limits: Limits, kind: str, excess: int
            ) -> tuple[list[tuple[str, int, Fraction]], int]:
    """Spread a winning multiple bet's excess down the cascade: [(kind, part, ratio)], rest."""
    parts: list[tuple[str, int, Fraction]] = []
    if kind not in CASCADE:
        return parts, excess
    for lower in CASCADE[CASCADE.index(kind) + 1:]:
        if excess == 0:
            break
        level = limits_for(limits, lower, profile)
        part = excess if level is None else min(excess, level.maximum)
        parts.append((lower, part, pay_for(profile, lower).ratio))
        excess -= part
    return parts, excess

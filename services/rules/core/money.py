"""Exact money: integer minor units in, integer minor units out, never float.

Payout ratios are applied with `fractions.Fraction`, then rounded once by the profile's rule.
"""
from __future__ import annotations

import enum
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from services.rules.core.errors import RulesError


class Rounding(enum.Enum):
    """How a fractional minor unit is settled.

    DOWN: truncate toward zero — seed 003 («si gana $4.096, recibirá $4.09», domain.md A-37).
    HALF_UP: nearest minor unit, halves away from zero (used where a profile says nothing,
    recorded as an implementation decision on that profile).
    """

    DOWN = "down"
    HALF_UP = "half_up"

    def apply(self, value: Fraction) -> int:
        if value < 0:
            return -self.apply(-value)
        if self is Rounding.DOWN:
            return value.numerator // value.denominator
        return int((value + Fraction(1, 2)).__floor__())


def apply_fraction(amount: int, fraction: Fraction, rounding: Rounding) -> int:
    """`amount × fraction`, rounded once by `rounding` (e.g. a 5 % commission)."""
    return rounding.apply(Fraction(amount) * fraction)


def pay_ratio(stake: int, to: int, per: int = 1, rounding: Rounding = Rounding.DOWN) -> int:
    """Winnings for a bet paid `to`:`per` (e.g. 35:1, 6:5), excluding the returned stake."""
    return apply_fraction(stake, Fraction(to, per), rounding)


def parse_amount(value: object, field: str, *, allow_zero: bool = False) -> int:
    """An amount in integer minor units from JSON; errors name the field and the reason.

    Accepts ints and integral strings ("500"); rejects bools, floats with a fraction,
    fractional minor units ("12.5"), negatives and (unless allowed) zero.
    """
    if isinstance(value, bool) or value is None:
        raise RulesError(field, "must be an integer amount in minor units")
    if isinstance(value, int):
        amount = value
    elif isinstance(value, (float, str, Decimal)):
        try:
            dec = Decimal(str(value))
        except InvalidOperation:
            raise RulesError(field, f"not a number: {value!r}") from None
        if dec != dec.to_integral_value():
            raise RulesError(field, f"fractional minor units are not allowed: {value!r}")
        amount = int(dec)
    else:
        raise RulesError(field, "must be an integer amount in minor units")
    if amount < 0:
        raise RulesError(field, f"must not be negative: {amount}")
    if amount == 0 and not allow_zero:
        raise RulesError(field, "must be greater than zero")
    return amount

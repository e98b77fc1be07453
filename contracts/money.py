"""Money on the wire: integer minor units with an ISO 4217 currency, never a float."""
from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt

Currency = Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="ISO 4217 code, e.g. BOB, CLP")]
MinorUnits = Annotated[StrictInt, Field(ge=0, description="Integer amount in minor units (cents)")]

# Chip values in minor units (1, 5, 10, 25, 100, 500, 1 000, 5 000 currency units with 2 minor
# digits). A casino's chip set is approved by the regulator; a value outside it is not a chip.
CHIP_DENOMINATIONS: tuple[int, ...] = (100, 500, 1_000, 2_500, 10_000, 50_000, 100_000, 500_000)


def _is_chip(value: int) -> int:
    if value not in CHIP_DENOMINATIONS:
        raise ValueError(f"{value} is not a chip denomination; allowed: {CHIP_DENOMINATIONS}")
    return value


ChipDenomination = Annotated[StrictInt, AfterValidator(_is_chip)]


class Money(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    amount: MinorUnits
    currency: Currency

    def __str__(self) -> str:
        return f"{self.amount} {self.currency} (minor units)"


class ChipStack(BaseModel):
    """A stack of identical value chips ("fichas de valor", seed 002 §1.1 l)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    denomination: ChipDenomination
    count: Annotated[StrictInt, Field(gt=0)]

    @property
    def value(self) -> int:
        return self.denomination * self.count


# Digits of the minor unit per currency (ISO 4217); the Chilean peso has none in use.
MINOR_DIGITS: dict[str, int] = {"CLP": 0, "BOB": 2, "ARS": 2, "USD": 2}


def format_money(amount: int, currency: str) -> str:
    """'1,234.50 BOB' from 123450 minor units — exact, no float."""
    digits = MINOR_DIGITS.get(currency, 2)
    sign = "-" if amount < 0 else ""
    major, minor = divmod(abs(amount), 10 ** digits) if digits else (abs(amount), 0)
    text = f"{major:,}" + (f".{minor:0{digits}d}" if digits else "")
    return f"{sign}{text} {currency}"

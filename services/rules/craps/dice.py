"""Two dice: one roll, its total, whether it is a double («duro»), and the void-roll reasons.

A roll is a pair of faces 1..6; the order of the two dice never matters to any bet, but it is
kept as given so the record matches what the camera and the tallador saw.
"""
from __future__ import annotations

from dataclasses import dataclass

from services.rules.core.errors import FieldError, RulesError

POINT_NUMBERS = (4, 5, 6, 8, 9, 10)

# «tirada nula» (seed 000 §3.1.5) and the invalid throws that are repeated (§3.1.7.1,
# seed 004 IV §1.5/§1.7): none of them decides any bet (domain.md §4.4).
VOID_REASONS = {
    "dice_broken": "a die broke («se rompen»)",
    "dice_stacked": "the dice overlap or rest one on the other («se superponen»)",
    "on_chip": "a die landed on a chip («se montan sobre una ficha»)",
    "off_table": "a die left the table («caen fuera de la mesa»)",
    "on_rail": "a die stopped on the rail («encima del borde»)",
    "in_reserve_basket": "a die fell in the reserve-dice basket",
    "incorrect_throw": "the throw was not correct («el lanzamiento no ha sido correcto»)",
    "missed_far_wall": "a die did not touch the far wall (throw repeated)",
    "resting_on_object": "a die rests on an object and not on the felt",
    "handled_improperly": "the dice were taken off the table or handled improperly",
    "slid": "the dice slid instead of rolling",
}


@dataclass(frozen=True)
class Roll:
    die1: int
    die2: int

    @property
    def total(self) -> int:
        return self.die1 + self.die2

    @property
    def hard(self) -> bool:
        """A double: 2-2, 3-3, 4-4, 5-5 make the hardways («duros»)."""
        return self.die1 == self.die2

    def __str__(self) -> str:
        return f"{self.die1}-{self.die2} = {self.total}"


ALL_ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in range(1, 7) for b in range(1, 7))


def parse_dice(value: object, field: str) -> Roll:
    """`[3, 4]` -> Roll(3, 4); each face an integer 1..6."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise RulesError(field, f"must be a pair of dice such as [3, 4], got {value!r}")
    bad = [FieldError(f"{field}[{i}]", f"a die shows 1 to 6, got {face!r}")
           for i, face in enumerate(value)
           if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6]
    if bad:
        raise RulesError(errors=bad)
    return Roll(value[0], value[1])


def next_point(point: int | None, roll: Roll) -> int | None:
    """The ON/OFF marker («marcador de salida») after a roll (seed 000 §3.1.5, Pass Line):
    a come-out 4-10 sets the point; the point or a 7 ends it; anything else leaves it."""
    if point is None:
        return roll.total if roll.total in POINT_NUMBERS else None
    return None if roll.total in (point, 7) else point

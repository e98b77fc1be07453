"""Void rolls, exactly as domain.md §4.4 lists them (seed 000 §3.1.5; seed 004 IV §1.5; the two
texts are the same here): «tirada nula» when the dice break, overlap, land on a chip, fall off
the table, land on the rail or in the reserve basket, or the throw was not correct; an invalid
throw, repeated, when a die did not touch the far wall, rests on an object, was handled
improperly or slid. Either way the roll decides no bet and the same shooter throws again."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from contracts.devices import RollVoidCause

_NULA = ("seed 000 §3.1.5, seed 004 IV §1.5 «tirada nula»: «Si los dados se rompen, se "
         "superponen, se montan sobre una ficha o caen fuera de la mesa o encima del borde de la "
         "misma o en el cesto de los dados de reserva, o si el lanzamiento no ha sido correcto»")
_WALL = ("seed 000 §3.1.5, seed 004 IV §1.5: «Si uno o ambos dados no han topado el borde "
         "opuesto de la mesa, el croupier tallador debe declarar inválido el tiro»")
_ROLL = "seed 000 §3.1.5, seed 004 IV §1.5: «Los dados deben rodar y no deslizarse»"
_REST = "domain.md §4.4: dice must rest on the felt («Estos deben quedar en el paño»)"
_HANDLED = "domain.md §4.4: dice taken off the table or handled improperly (seed 000 §3.1.5)"

Kind = Literal["tirada_nula", "invalid_throw"]
CAUSES: Mapping[RollVoidCause, tuple[Kind, str]] = {
    "die_broke": ("tirada_nula", _NULA),
    "dice_overlap": ("tirada_nula", _NULA),
    "die_on_chip": ("tirada_nula", _NULA),
    "die_off_table": ("tirada_nula", _NULA),
    "die_on_rail": ("tirada_nula", _NULA),
    "die_in_reserve_basket": ("tirada_nula", _NULA),
    "incorrect_throw": ("tirada_nula", _NULA),
    "far_wall_not_touched": ("invalid_throw", _WALL),
    "die_resting_on_object": ("invalid_throw", _REST),
    "dice_handled_improperly": ("invalid_throw", _HANDLED),
    "dice_slid": ("invalid_throw", _ROLL),
}

"""Who holds the dice at a craps table (seed 000 §3.1.5, seed 004 IV §1.5). Pure.

- The dice go first to the lowest occupied seat: seat 1 is the one at the croupiers' left
  («comenzando … por aquel que se encuentre a la izquierda de los "croupiers"»).
- After a seven-out they pass to the next seated player in the table's direction, the switch
  `craps_shooter_direction` (domain.md A-28): clockwise («siguiendo el sentido de las agujas
  del reloj», up the seat numbers) or counter-clockwise («los dados deben ser entregados al
  jugador de su derecha», down the seat numbers).
- A player who declines the dice passes them to the next in the same order; a shooter who
  leaves hands them on the same way.
- The rules the adapter cites for the shooter's line-bet obligation and for a shooter who
  leaves with the point on (seed 000 §3.1.7.1 «Jugadas irregulares», seed 004 IV §1.7).
"""
from __future__ import annotations

from contracts.table import ShooterChangedData, ShooterDirection, ShooterReason

ROTATION_RULE = {
    "clockwise": {"BO": "seed 000 §3.1.5 «siguiendo el sentido de las agujas del reloj»",
                  "CL-ARICA": "seed 004 IV §1.5 «siguiendo el sentido de las agujas del reloj»"},
    "counter_clockwise": {"BO": "seed 000 §3.1.5 «los dados deben ser entregados al jugador de "
                                "su derecha»",
                          "CL-ARICA": "seed 004 IV §1.5 «los dados deben ser entregados al "
                                      "jugador de su derecha»"},
}
FIRST_SHOOTER_RULE = {"BO": "seed 000 §3.1.5 «por aquel que se encuentre a la izquierda de los "
                            "\"croupiers\"»",
                      "CL-ARICA": "seed 004 IV §1.5 «por aquel que se encuentre a la izquierda "
                                  "de los \"dealers\"»"}
PASSED_RULE = {"BO": "seed 000 §3.1.5 «Si un jugador rehúsa lanzar los dados pasan al jugador "
                     "siguiente»",
               "CL-ARICA": "seed 004 IV §1.5 «Si un jugador rehúsa lanzar los dados pasan al "
                           "jugador siguiente»"}
LINE_BET_RULE = {"BO": "seed 000 §3.1.5 «Es necesario que el jugador que lance los dados haga una "
                       "apuesta, ya sea a la Línea de Pase … o a la Línea de No Pase»; §3.1.7.1",
                 "CL-ARICA": "seed 004 IV §1.5 «Es necesario que el jugador que lance los dados "
                             "haga una apuesta»; IV §1.7"}
LEAVES_RULE = {"BO": "seed 000 §3.1.7.1", "CL-ARICA": "seed 004 IV §1.7"}
LEAVES_NOTE = "«Si el tirador decide abandonar el juego, pierde su apuesta en la línea de pase»"


def passes(profile: str, direction: ShooterDirection, seated: dict[int, str],
           current: int | None, reason: ShooterReason) -> ShooterChangedData | None:
    """The dice to the next shooter (None: nobody held them and nobody is seated), naming
    the rule."""
    seat = next_seat(sorted(seated), current, direction, reason)
    if seat is None and current is None:
        return None
    rule = (FIRST_SHOOTER_RULE if reason == "first" else PASSED_RULE if reason == "passed"
            else ROTATION_RULE[direction])[profile]
    return ShooterChangedData(seat=seat, player_id=seated.get(seat) if seat is not None else None,
                              previous_seat=current, reason=reason, direction=direction,
                              rule=rule)


def next_seat(seats: list[int], current: int | None, direction: str,
               reason: ShooterReason) -> int | None:
    """The lowest occupied seat for the first shooter; else the next occupied seat from the
    current shooter's, clockwise (up the seat numbers) or counter-clockwise (down)."""
    if not seats:
        return None
    if current is None or reason == "first":
        return seats[0]
    order = seats if direction == "clockwise" else seats[::-1]
    after = [s for s in order if (s > current if direction == "clockwise" else s < current)]
    return (after or order)[0]

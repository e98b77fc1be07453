"""When a spin is void («tirada nula», no spin, «No Va Esta Bola»): the rows of domain.md §5.5,
each a cause code, per rule profile, with the seed section that says so. A profile whose seed
does not list a cause does not apply it (its seed is silent, and no other profile's rule is
copied in).

- BO: seed 000 §4.1.4.3 (alternate the wheel, ball opposite) and §4.1.6.1 (the no-spin list).
- CL-ARICA: seed 004 II §1.5 (alternate, opposite) and II §1.7 (the no-spin list, with the
  wheel's fault and stop).
- AR-RUL: seed 001 «No Va Esta Bola», incisos a) to d).
- LIVE-GG: seed 003 Rul §3.1.1 (ball opposite to the wheel, at least three revolutions).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from contracts.devices import SpinData, SpinVoidCause
from contracts.table import Profile

MIN_REVOLUTIONS = 3  # «como mínimo tres (3) vueltas» (seed 000 §4.1.6.1; LIVE-GG Rul §3.1.1)

_BO = "seed 000 §4.1.6.1"
_CL = "seed 004 II §1.7"
_AR = "seed 001 «No Va Esta Bola»"
_LIVE = "LIVE-GG Rul §3.1.1"

# cause -> profile -> the rule that voids it; a profile missing from a cause's row does not
# apply that cause.
RULES: Mapping[SpinVoidCause, Mapping[Profile, str]] = {
    "same_direction_as_previous": {
        "BO": "seed 000 §4.1.4.3 «accionar cada vez el cilindro en un sentido opuesto al anterior»",
        "CL-ARICA": "seed 004 II §1.5 «en un sentido opuesto al anterior»"},
    "ball_with_wheel": {"BO": _BO, "CL-ARICA": _CL, "LIVE-GG": _LIVE},
    "too_few_revolutions": {"BO": _BO, "CL-ARICA": _CL, "LIVE-GG": _LIVE},
    "ball_out_of_wheel": {"BO": _BO, "CL-ARICA": _CL, "AR-RUL": f"{_AR} c) «saltare fuera del "
                                                                f"cilindro»"},
    "object_in_wheel": {"BO": _BO, "CL-ARICA": _CL, "AR-RUL": f"{_AR} b) «algun objeto extraño "
                                                              f"dentro del cilindro»"},
    "ball_stuck_on_rim": {"BO": _BO, "CL-ARICA": _CL, "AR-RUL": f"{_AR} c) «detenida sobre el "
                                                                f"aro de la cazuela»"},
    "wheel_fault": {"CL-ARICA": _CL},
    "wheel_stopped": {"CL-ARICA": _CL, "AR-RUL": f"{_AR} d) «el cilindro se frenare hasta "
                                                 f"quedar completamente detenido»"},
    "ball_slipped_from_hand": {"AR-RUL": f"{_AR} a) «la bola se escapare de las manos del "
                                         f"Tallador»"},
}

# What happens after a void spin.
PROCEDURES: Mapping[Profile, str] = {
    "BO": "The jefe de mesa announces «tirada nula», places the ball in the number of the previous "
          "spin and has the croupier relaunch once the wheel has turned at least 3 times "
          "(seed 000 §4.1.6.1).",
    "CL-ARICA": "The jefe de mesa announces «tirada nula», places the ball in the number of the "
                "previous spin and has the croupier relaunch once the wheel has turned at least "
                "3 times (seed 004 II §1.7).",
    "AR-RUL": "The Tallador announces «No Va Esta Bola»; the ball is launched again (seed 001).",
    "LIVE-GG": "Not a valid spin: the dealer launches the ball again, opposite to the wheel, for "
               "at least three revolutions (LIVE-GG Rul §3.1.1).",
}


@dataclass(frozen=True)
class Verdict:
    causes: tuple[SpinVoidCause, ...]
    unruled: tuple[str, ...]   # reported observations the profile's seed has no rule for

    @property
    def valid(self) -> bool:
        return not self.causes and not self.unruled


def judge(spin: SpinData, profile: Profile, previous_rotor: str | None) -> Verdict:
    """Every cause that voids `spin` under `profile`, in the order of domain.md §5.5."""
    found: list[SpinVoidCause] = []
    if previous_rotor is not None and spin.rotor_direction == previous_rotor:
        found.append("same_direction_as_previous")
    if spin.ball_direction == spin.rotor_direction:
        found.append("ball_with_wheel")
    if spin.revolutions < MIN_REVOLUTIONS:
        found.append("too_few_revolutions")
    found += [cause for cause in spin.observed]
    applies = tuple(dict.fromkeys(c for c in found if profile in RULES[c]))
    unruled = tuple(c for c in dict.fromkeys(spin.observed) if profile not in RULES[c])
    return Verdict(applies, unruled)


def rule_of(cause: SpinVoidCause, profile: Profile) -> str:
    return RULES[cause][profile]

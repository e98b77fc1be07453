"""What a coup does to each bet (seed 000 §2.4.3.3 and §2.4.5.2).

ROJO / NEGRO: the row closest to 31 wins, 1:1. COLOR / INVERSO: COLOR wins when the deciding
first card (switch tq_color_card, A-17) has the colour of the winning row, else INVERSO; 1:1.
A tie other than 31 («Ancar») is neutral. The 31 tie blocks every bet («quedan bloqueadas»):
the player then surrenders half, or leaves the bet in prison for the next coup, where it is
freed if its option wins and lost otherwise; insured (1 %), a second 31 tie costs only the
half (A-19).
"""
from __future__ import annotations

from dataclasses import dataclass

from services.rules.core.refs import RuleRef
from services.rules.core.results import Outcome
from services.rules.trente_quarante.coup import CoupResult

KINDS = {"rojo": "ROJO", "negro": "NEGRO", "color": "COLOR", "inverso": "INVERSO"}
GAME_RULES = RuleRef("000", "§2.4.3.3")
PAYMENTS = RuleRef("000", "§2.4.5.2")
A19 = ("A-19: at the 31 tie the player surrenders half and takes back the other half, or "
       "leaves the bet in prison; insured, a second 31 tie costs only the half")


@dataclass(frozen=True)
class Decision:
    outcome: Outcome   # WIN, LOSE, PUSH, PRISON or HALF_BACK
    rule: RuleRef
    why: str


def color_card_red(result: CoupResult, reading: str) -> bool:
    """The colour of the card that decides COLOR/INVERSO (domain.md A-17)."""
    if reading == "first_row" or result.winner == "negro":
        return result.negro_first_red
    return result.rojo_first_red


def winning_options(result: CoupResult, reading: str) -> frozenset[str]:
    """The two winning boxes, e.g. {"rojo", "inverso"}; empty on any tie."""
    if result.winner is None:
        return frozenset()
    same = color_card_red(result, reading) == (result.winner == "rojo")
    return frozenset({result.winner, "color" if same else "inverso"})


def decide(kind: str, result: CoupResult, reading: str, *, imprisoned: bool = False,
           insured: bool = False) -> Decision:
    name = KINDS[kind]
    if result.refait:
        if not imprisoned:
            return Decision(Outcome.PRISON, RuleRef("000", "§2.4.5.2", note=A19),
                            f"31 tie: {name} is blocked («las apuestas quedan bloqueadas»)")
        if insured:
            return Decision(Outcome.HALF_BACK, RuleRef("000", "§2.4.5.2", note=A19),
                            f"a second 31 tie: the insured {name} keeps its half («conservar "
                            "sólo el 50% en prenda»)")
        return Decision(Outcome.LOSE, PAYMENTS, f"a second 31 tie: the imprisoned {name} did "
                        "not win and is lost («perderán el total de lo apostado»)")
    if result.winner is None:
        if imprisoned:
            return Decision(Outcome.PRISON, RuleRef("000", "§2.4.5.2", note=(
                "the seed is silent on a neutral tie for a bet in prison; it stays in prison")),
                f"tie at {result.negro} («Ancar»), neutral: {name} stays in prison")
        return Decision(Outcome.PUSH, PAYMENTS, f"tie at {result.negro} («Ancar»): neutral, "
                        f"{name} is returned")
    if kind in winning_options(result, reading):
        if imprisoned:
            return Decision(Outcome.PUSH, PAYMENTS, f"{name} wins: the imprisoned bet is freed, "
                            "not paid («su apuesta será librada»)")
        return Decision(Outcome.WIN, PAYMENTS, f"{name} wins, paid 1:1")
    return Decision(Outcome.LOSE, PAYMENTS, f"{name} loses")

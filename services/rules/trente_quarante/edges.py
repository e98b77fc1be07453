"""House edges of Treinta y Cuarenta.

Exact over a real 6-8 deck shoe is not feasible here: the joint law of the two rows depends
on which cards the first row took, and a dynamic programme over (cards used, NEGRO total,
ROJO total) grows past 5 million states before converging (measured, see README). So:

- `edges()` is EXACT (Fractions) for the infinite-shoe model: card values drawn independently,
  P(ace..9) = 1/13 each, P(10 or figure) = 4/13, colour red or black with 1/2. Rows are then
  independent; each row's final total comes from a small DP, and every bet is settled on every
  (total, total, first-card colours) by the same `rules.decide` that pays real bets.
- `simulate_shoe()` measures the real shoe (6-8 decks dealt to a cut card) by seeded
  simulation with a 95 % confidence interval; the benchmark prints both side by side.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from services.rules.core.profiles import Profile
from services.rules.core.results import Outcome
from services.rules.registry import EdgeRow
from services.rules.trente_quarante.coup import TARGET, CoupResult, row_ends
from services.rules.trente_quarante.rules import KINDS, PAYMENTS, decide
from services.rules.trente_quarante.settle import PREMIUM

P_VALUE = {v: Fraction(4 if v == 10 else 1, 13) for v in range(1, 11)}
HALF = Fraction(1, 2)
METHOD = ("exact DP, infinite-shoe model (values drawn independently: P(10-value) = 4/13, "
          "P(A..9) = 1/13 each; colours 1/2)")
OPTIONS = {"surrender": "31 tie: surrender half",
           "prison": "31 tie: prison",
           "prison_insured": "31 tie: prison, insured 1 %"}


@cache
def _finish(total: int) -> tuple[tuple[int, Fraction], ...]:
    """Law of the final row total from a running `total` < 31."""
    law: dict[int, Fraction] = {}
    for value, p in P_VALUE.items():
        nxt = total + value
        for final, q in (((nxt, Fraction(1)),) if nxt >= TARGET else _finish(nxt)):
            law[final] = law.get(final, Fraction(0)) + p * q
    return tuple(sorted(law.items()))


def row_law() -> dict[tuple[int, bool], Fraction]:
    """P(final total, first card red) of one row in the infinite-shoe model."""
    law: dict[tuple[int, bool], Fraction] = {}
    for (total, p), red in product(_finish(0), (False, True)):
        law[(total, red)] = p * HALF
    return law


def coup_law() -> list[tuple[CoupResult, Fraction]]:
    row = row_law()
    return [(CoupResult(tn, tr, rn, rr), pn * pr)
            for ((tn, rn), pn), ((tr, rr), pr) in product(row.items(), row.items())]


def _value(law: list[tuple[CoupResult, Fraction]], kind: str, reading: str, *,
           imprisoned: bool, insured: bool) -> tuple[Fraction, Fraction]:
    """(expected return per unit excluding PRISON outcomes, probability of PRISON)."""
    back = {Outcome.WIN: Fraction(2), Outcome.PUSH: Fraction(1), Outcome.HALF_BACK: HALF,
            Outcome.LOSE: Fraction(0)}
    ret, stay = Fraction(0), Fraction(0)
    for result, p in law:
        outcome = decide(kind, result, reading, imprisoned=imprisoned, insured=insured).outcome
        if outcome is Outcome.PRISON:
            stay += p
        else:
            ret += p * back[outcome]
    return ret, stay


def prison_value(law: list[tuple[CoupResult, Fraction]], kind: str, reading: str,
                 insured: bool) -> Fraction:
    """What a unit in prison is worth: it waits through neutral ties (V = a + b·V), paying
    the premium each coup it is insured."""
    ret, stay = _value(law, kind, reading, imprisoned=True, insured=insured)
    return (ret - (PREMIUM if insured else 0)) / (1 - stay)


def edge(law: list[tuple[CoupResult, Fraction]], kind: str, reading: str, option: str
         ) -> Fraction:
    """1 - expected return per unit staked, the 31 tie handled by `option`."""
    blocked = HALF if option == "surrender" else prison_value(
        law, kind, reading, insured=option == "prison_insured")
    ret, refait = _value(law, kind, reading, imprisoned=False, insured=False)
    return 1 - (ret + refait * blocked)


def edges(profile: Profile) -> list[EdgeRow]:
    reading = profile.switch("tq_color_card")
    law = coup_law()
    return [EdgeRow("trente_quarante", "6-8 decks (infinite-shoe model)",
                    f"{kind} — {label}", edge(law, kind, reading, option), METHOD, PAYMENTS,
                    "a real shoe differs slightly: see simulate_shoe() and BENCHMARKS.md")
            for kind in KINDS for option, label in OPTIONS.items()]


@dataclass(frozen=True)
class ShoeEstimate:
    decks: int
    coups: int
    refait: float        # P(31 tie)
    refait_ci: float     # 95 % half-width
    ties: float          # P(any tie, 31 included)

    @property
    def surrender_edge(self) -> float:
        """With surrender at the 31 tie, the edge of every bet is exactly P(31 tie) / 2
        (wins and losses are symmetric); the CI halves with it."""
        return self.refait / 2


def simulate_shoe(decks: int, coups: int, seed: int = 1) -> ShoeEstimate:
    """Deal `coups` coups through shuffled shoes: burn 5 (seed 000 §2.4.3.3), cut card one
    deck from the end (the least the seed allows); a coup the cut card interrupts is finished
    and the shoe reshuffled."""
    rng = random.Random(seed)
    shoe_values = [min(rank, 10) for rank in range(1, 14)] * 4 * decks
    refaits = ties = done = 0
    while done < coups:
        rng.shuffle(shoe_values)
        pos, stop = 5, len(shoe_values) - 52
        while pos < stop and done < coups:
            ends = row_ends(shoe_values[pos:pos + 80])
            negro = sum(shoe_values[pos:pos + ends[0]])
            rojo = sum(shoe_values[pos + ends[0]:pos + ends[1]])
            ties += negro == rojo
            refaits += negro == rojo == TARGET
            pos += ends[1]
            done += 1
    p = refaits / coups
    return ShoeEstimate(decks, coups, p, 1.96 * math.sqrt(p * (1 - p) / coups), ties / coups)

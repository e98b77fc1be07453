"""Is a device fair? Pearson's chi-square goodness-of-fit test of observed outcome counts against
the game's fair probabilities (a pocket of a wheel, a face of a die, a dice total), with the
exact upper tail of the chi-square distribution for whole degrees of freedom — no tables, no
approximation, no extra library.

Pure functions; the wheel and dice services run them over a device's own history.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    dof: int
    p_value: float
    sample: int


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with `dof` (>= 1) degrees of freedom: the regularised upper
    incomplete gamma Q(dof/2, x/2) as its finite sum (even dof) or erfc plus a finite sum
    (odd dof)."""
    if dof < 1:
        raise ValueError(f"dof: must be >= 1, not {dof}")
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        terms = (math.exp(-half + i * math.log(half) - math.lgamma(i + 1))
                 for i in range(dof // 2))
        return min(1.0, math.fsum(terms))
    tail = math.erfc(math.sqrt(half))
    terms = (math.exp(-half + (i - 0.5) * math.log(half) - math.lgamma(i + 0.5))
             for i in range(1, (dof + 1) // 2))
    return min(1.0, tail + math.fsum(terms))


def chi_square(observed: Sequence[int], probabilities: Sequence[float]) -> ChiSquare:
    """Pearson's statistic of `observed` counts against fair `probabilities` (summing to 1),
    with len - 1 degrees of freedom."""
    if len(observed) != len(probabilities) or len(observed) < 2:
        raise ValueError("observed: one count per outcome, at least two outcomes")
    n = sum(observed)
    if n == 0:
        return ChiSquare(0.0, len(observed) - 1, 1.0, 0)
    stat = math.fsum((o - n * p) ** 2 / (n * p) for o, p in zip(observed, probabilities,
                                                                 strict=True))
    dof = len(observed) - 1
    return ChiSquare(stat, dof, chi2_sf(stat, dof), n)

"""Outcome statistics of one dice set, over its rolls, and the tests that raise alerts. Each test
states its minimum sample and its false-alarm rate:

- face_frequency: chi-square of the faces of both dice against 1/6 each. Minimum sample: 5 per
  face (15 rolls); evaluated every 60 valid rolls (20 per face); alarm at p < 0.001, so fair
  dice raise a false alarm at 0.1 % of evaluations.
- total_frequency: chi-square of the totals 2-12 against 1/36 … 6/36 … 1/36. Minimum sample: 5
  for the 2 and the 12 (180 rolls); evaluated every 180 valid rolls; alarm at p < 0.001 (0.1 %
  false alarms).

Faces are counted over both dice (two independent faces per roll): a loaded die shows in the
face counts even when its partner is fair. A test with an open alert raises no second one until
the first is acknowledged. tests/dice/test_stats.py measures the false-alarm rate on simulated
fair dice and the detection of a loaded die.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from services.rules.core.fairness import ChiSquare, chi_square
from services.runtime.device import Finding

ALPHA = 0.001
FACE_EVERY = 60
TOTAL_EVERY = 180
FACES = tuple(range(1, 7))
TOTALS = tuple(range(2, 13))
TOTAL_P = tuple((6 - abs(t - 7)) / 36 for t in TOTALS)


@dataclass
class DiceStats:
    faces: Counter[int] = field(default_factory=Counter)
    totals: Counter[int] = field(default_factory=Counter)
    valid: int = 0
    voided: int = 0
    void_causes: Counter[str] = field(default_factory=Counter)
    last_valid: bool = False

    def record(self, dice: tuple[int, int] | None, *, valid: bool,
               cause: str | None = None) -> None:
        self.last_valid = valid and dice is not None
        if self.last_valid and dice is not None:
            self.valid += 1
            self.faces.update(dice)
            self.totals[sum(dice)] += 1
        else:
            self.voided += 1
            if cause:
                self.void_causes[cause] += 1

    def face_test(self) -> ChiSquare:
        return chi_square([self.faces[f] for f in FACES], [1 / 6] * 6)

    def total_test(self) -> ChiSquare:
        return chi_square([self.totals[t] for t in TOTALS], TOTAL_P)

    def due(self, skip: set[str]) -> list[Finding]:
        found: list[Finding] = []
        if not self.last_valid:
            return found
        for test, every, run, unit in (("face_frequency", FACE_EVERY, self.face_test, "faces"),
                                       ("total_frequency", TOTAL_EVERY, self.total_test,
                                        "rolls")):
            if test in skip or self.valid % every:
                continue
            result = run()
            if result.p_value < ALPHA:
                found.append(Finding(test, result.sample, _fmt(result.statistic),  # type: ignore[arg-type]
                                     _fmt(result.p_value), f"p < {ALPHA}",
                                     f"chi-square {_fmt(result.statistic)} on {result.dof} "
                                     f"degrees of freedom over {result.sample} {unit}: "
                                     f"p = {_fmt(result.p_value)}"))
        return found

    def summary(self) -> dict[str, object]:
        face, total = self.face_test(), self.total_test()
        return {"rolls": self.valid + self.voided, "valid": self.valid, "voided": self.voided,
                "void_causes": dict(sorted(self.void_causes.items())),
                "faces": {str(f): self.faces[f] for f in FACES},
                "totals": {str(t): self.totals[t] for t in TOTALS},
                "face_chi_square": _fmt(face.statistic), "face_p_value": _fmt(face.p_value),
                "total_chi_square": _fmt(total.statistic), "total_p_value": _fmt(total.p_value)}


def _fmt(x: float) -> str:
    return f"{x:.4f}" if x >= 1e-4 or x == 0 else f"{x:.3e}"

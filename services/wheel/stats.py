"""Outcome statistics of one wheel, over its own history (every table it was mounted at), and
the tests that raise alerts. Each test states its minimum sample and its false-alarm rate:

- pocket_frequency: chi-square of the pockets against 1/37 (1/38) each. Minimum sample: 5 per
  pocket (185 spins; 190 double zero); evaluated every 185 (190) valid spins; alarm at
  p < 0.001, so a fair wheel raises a false alarm at 0.1 % of evaluations.
- sector_frequency: chi-square of 6 arcs of the wheel (in wheel order) against their share of
  the pockets; evaluated with the pocket test; alarm at p < 0.001 (0.1 % false alarms).
- direction_alternation: launches that turned the rotor the same way as the launch before
  (domain.md §5.5). From 50 spins on, every spin; alarm at 3 or more in the last 50. A count of
  breaches, not a test of chance: no false alarms for a dealer who alternates.
- revolutions: launches of fewer than 3 revolutions; alarm at 3 or more in the last 50 (no
  false alarms for a dealer who gives the ball 3 revolutions).

A test with an open alert raises no second one until the first is acknowledged.
tests/wheel/test_stats.py measures the false-alarm rate on simulated fair wheels and the
detection of a biased one.
"""
from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from contracts.devices import AlertTest
from services.rules.core.fairness import ChiSquare, chi_square
from services.rules.roulette.layout import WHEELS
from services.runtime.device import Finding

ALPHA = 0.001
SECTORS = 6
PER_POCKET = 5            # the minimum expected count per pocket for the chi-square
WINDOW = 50               # spins looked at by the procedure checks
BREACHES = 3              # breaches in the window that raise an alert


def sectors(variant: str) -> list[tuple[str, ...]]:
    """The wheel's pockets, in wheel order, cut into SECTORS arcs as even as can be."""
    order = WHEELS[variant].order
    size, extra = divmod(len(order), SECTORS)
    arcs, start = [], 0
    for i in range(SECTORS):
        end = start + size + (1 if i < extra else 0)
        arcs.append(tuple(order[start:end]))
        start = end
    return arcs


@dataclass
class WheelStats:
    variant: str
    pockets: Counter[str] = field(default_factory=Counter)
    valid: int = 0
    voided: int = 0
    void_causes: Counter[str] = field(default_factory=Counter)
    direction_repeats: int = 0
    revolutions: Counter[int] = field(default_factory=Counter)
    recent: deque[tuple[bool, bool]] = field(default_factory=lambda: deque(maxlen=WINDOW))
    last_valid: bool = False

    @property
    def spins(self) -> int:
        return self.valid + self.voided

    @property
    def every(self) -> int:
        """Valid spins between two evaluations of the frequency tests (the minimum sample)."""
        return PER_POCKET * len(WHEELS[self.variant].pockets)

    def record(self, *, pocket: str | None, valid: bool, repeat: bool, revolutions: int,
               cause: str | None = None) -> None:
        self.last_valid = valid and pocket is not None
        if valid and pocket is not None:
            self.valid += 1
            self.pockets[pocket] += 1
        else:
            self.voided += 1
            if cause is not None:
                self.void_causes[cause] += 1
        self.direction_repeats += repeat
        self.revolutions[revolutions] += 1
        self.recent.append((repeat, revolutions < 3))

    # ----- tests ----------------------------------------------------------------------------
    def pocket_test(self) -> ChiSquare:
        pockets = WHEELS[self.variant].pockets
        return chi_square([self.pockets[p] for p in pockets], [1 / len(pockets)] * len(pockets))

    def sector_test(self) -> ChiSquare:
        arcs, n = sectors(self.variant), len(WHEELS[self.variant].pockets)
        return chi_square([sum(self.pockets[p] for p in arc) for arc in arcs],
                          [len(arc) / n for arc in arcs])

    def due(self, skip: set[str]) -> list[Finding]:
        """The alarms the latest spin raises (tests in `skip` have an alert open)."""
        found: list[Finding] = []
        if self.last_valid and self.valid % self.every == 0:
            for test, result in (("pocket_frequency", self.pocket_test()),
                                 ("sector_frequency", self.sector_test())):
                if test not in skip and result.p_value < ALPHA:
                    found.append(_chi_finding(test, result))  # type: ignore[arg-type]
        if len(self.recent) == WINDOW:
            repeats = sum(r for r, _ in self.recent)
            short = sum(s for _, s in self.recent)
            if "direction_alternation" not in skip and repeats >= BREACHES:
                found.append(Finding("direction_alternation", WINDOW, str(repeats), None,
                                     f">= {BREACHES} in the last {WINDOW} spins",
                                     f"{repeats} of the last {WINDOW} spins turned the wheel the "
                                     "same way as the spin before (domain.md §5.5)"))
            if "revolutions" not in skip and short >= BREACHES:
                found.append(Finding("revolutions", WINDOW, str(short), None,
                                     f">= {BREACHES} in the last {WINDOW} spins",
                                     f"{short} of the last {WINDOW} spins made fewer than 3 "
                                     "revolutions (domain.md §5.5)"))
        return found

    def summary(self) -> dict[str, object]:
        pocket, sector = self.pocket_test(), self.sector_test()
        revs = sum(k * v for k, v in self.revolutions.items())
        return {
            "spins": self.spins, "valid": self.valid, "voided": self.voided,
            "void_causes": dict(sorted(self.void_causes.items())),
            "pockets": {p: self.pockets[p] for p in WHEELS[self.variant].pockets},
            "pocket_chi_square": _fmt(pocket.statistic), "pocket_p_value": _fmt(pocket.p_value),
            "sector_chi_square": _fmt(sector.statistic), "sector_p_value": _fmt(sector.p_value),
            "direction_repeats": self.direction_repeats,
            "direction_alternation": _fmt(1 - self.direction_repeats / self.spins)
            if self.spins else None,
            "revolutions_mean": _fmt(revs / self.spins) if self.spins else None,
            "revolutions": {str(k): v for k, v in sorted(self.revolutions.items())},
            "short_spins": sum(v for k, v in self.revolutions.items() if k < 3),
        }


def _fmt(x: float) -> str:
    return f"{x:.4f}" if x >= 1e-4 or x == 0 else f"{x:.3e}"


def _chi_finding(test: AlertTest, result: ChiSquare) -> Finding:
    return Finding(test, result.sample, _fmt(result.statistic), _fmt(result.p_value),
                   f"p < {ALPHA}", f"chi-square {_fmt(result.statistic)} on {result.dof} degrees "
                   f"of freedom over {result.sample} valid spins: p = {_fmt(result.p_value)}")

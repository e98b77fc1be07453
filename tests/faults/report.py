"""The fault suite's figures: one Result per scenario, and RELIABILITY.md written from them."""
from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.faults.scenarios import Scenario


@dataclass
class Result:
    scenario: Scenario
    messages: int = 0                     # records on the commands and events topics
    lost: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)
    report: dict = field(default_factory=dict)
    expected: dict = field(default_factory=dict)
    recovery: float | None = None         # s from the fault to every service healthy
    lateness: timedelta | None = None     # worst hold release after its deadline
    unreleased: set[str] = field(default_factory=set)
    resends: int = 0                      # rounds the terminals sent again
    seconds: float = 0.0                  # the scenario's wall time
    notes: list[str] = field(default_factory=list)
    letters: dict[str, int] = field(default_factory=dict)   # dead letters by service:code
    skip: str | None = None
    error: str | None = None              # the scenario could not finish: why
    load: float = 0.0                     # highest 1-minute load average seen during it

    @classmethod
    def skipped(cls, scenario: Scenario) -> Result:
        return cls(scenario, skip=scenario.skip)

    @property
    def passed(self) -> bool:
        s = self.scenario
        late_ok = s.max_hold_lateness is None or (
            self.lateness is not None and self.lateness.total_seconds() <= s.max_hold_lateness)
        return (self.skip is None and self.error is None and not self.lost and not self.twice
                and self.report == self.expected and self.recovery is not None
                and not self.unreleased and late_ok)

    def row(self) -> str:
        s = self.scenario
        if self.skip:
            return f"| {s.name} | {s.what} | — | — | — | — | — | — | skipped: {self.skip} |"
        if self.error:
            return (f"| {s.name} | {s.what} | — | — | — | — | — | — | FAIL: "
                    f"{self.error.replace('|', '/')[:300]} |")
        lateness = "no hold" if self.lateness is None else \
            f"{self.lateness.total_seconds():.1f} s"
        if s.max_hold_lateness is not None:
            lateness += f" (limit {s.max_hold_lateness:.0f} s)"
        recovery = "not healthy" if self.recovery is None else f"{self.recovery:.1f} s"
        verdict = "pass" if self.passed else "FAIL"
        if self.report != self.expected:
            verdict += " (report ≠ log)"
        letters = ", ".join(f"{k} {n}" for k, n in sorted(self.letters.items())) or "none"
        return (f"| {s.name} | {s.what} | {self.messages} | {len(self.lost)} | "
                f"{len(self.twice)} | {recovery} | {lateness} | {letters} | {verdict} "
                f"({self.seconds:.0f} s, load ≤ {self.load:.1f}) |")


def machine() -> str:
    cpus = os.cpu_count()
    try:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    return (f"{platform.system()} {platform.machine()}, {cpus} CPUs, Python "
            f"{platform.python_version()}; load average at the end {load}")


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def write(path: Path, results: list[Result], command: str, started: datetime) -> None:
    lines = [
        "# Reliability under faults",
        "",
        "Written by `make faults` (tests/faults/): each scenario runs on the real embedded "
        "broker (Tansu; in memory, durable for the broker restart), the table service, the "
        "projector and (where it says) the vision service as separate processes, while dealer "
        "terminals play roulette rounds. "
        "The fault is injected after about a third of the rounds. Limits asserted: every "
        "service healthy again within 90 s of the fault; a hold released at most 30 s late "
        "where a standby runs.",
        "",
        f"- date: {started:%Y-%m-%d %H:%M} UTC (commit {commit()})",
        f"- machine: {machine()}",
        f"- command: `{command}`",
        "",
        "Columns: **messages** = records on the commands and events topics; **lost** = commands "
        "with neither an event nor a dead letter; **duplicated** = anything applied twice "
        "(a sequence number with two different events, a round, bet or hold settled twice); "
        "**recovery** = from the fault until every service answers `/health` 200 again "
        "(includes the chosen outage of a killed service); **worst hold lateness** = the "
        "latest a held payout was released after its deadline. Every passing scenario also "
        "found the report (`casino report tables --json`) equal to the figures recomputed "
        "from the raw events log. **dead letters** = what was dead-lettered, by service and "
        "code (an answer, so not lost; but a valid command dead-lettered is a finding).",
        "",
        "| scenario | fault | messages | lost | duplicated | recovery | worst hold lateness "
        "| dead letters | result |",
        "|---|---|---|---|---|---|---|---|---|",
        *[r.row() for r in results],
        "",
        f"Timings are measured on a shared {os.cpu_count()}-CPU machine where other work "
        "(other engineers' test runs) ran at the same time: the result column gives each "
        "scenario's wall time and the highest 1-minute load average seen while it ran (above "
        f"{os.cpu_count()} means processes were waiting for a CPU). The services, the broker, "
        "the terminals and that other work compete for the CPU, so recovery times and "
        "lateness are upper figures under contention, not the software's own.",
        "",
    ]
    notes = [f"- {r.scenario.name}: {n}" for r in results for n in r.notes]
    if notes:
        lines += ["Notes:", "", *notes, ""]
    path.write_text("\n".join(lines))


def now() -> datetime:
    return datetime.now(UTC)

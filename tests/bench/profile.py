"""Where a floor process spends its time: py-spy's collapsed stacks (`--format raw`, one file per
process, written by bench_floor with BENCH_PROFILE=1) folded into a few named parts.

A sample goes to the first part (in the order of PARTS) whose pattern matches any frame of its
stack, so e.g. the rules engine called from the table domain counts as rules engine, and
pydantic building an event inside the domain counts as event construction. py-spy samples only
threads that are running (not idle), so the total is CPU time, not wall time.

`python -m tests.bench.profile DIR` prints the table for the files in DIR.
"""
from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

RATE = 200  # samples per second, as bench_floor asks py-spy for

PARTS: list[tuple[str, re.Pattern[str]]] = [(name, re.compile(pattern)) for name, pattern in [
    ("decode + validate (codec.decode, pydantic)", r"^decode \(.*contracts/codec\.py"),
    ("encode (model_dump_json)", r"^encode \(.*contracts/codec\.py"),
    ("DuckDB (statements, commit)", r"duckdb|^(flush|_many) \(.*projector\.py|"
                                    r"^transaction \(.*projections/app\.py"),
    ("projector: event → rows", r"projections/projector\.py"),
    ("rules engine (bet checks, settlement)", r"services/rules/"),
    ("table domain: building events (pydantic)", r"^(trigger|_settle|settle) .*(aggregate|settlement|domain)\.py.*"
                                                  r"|pydantic/main\.py.*services/table"),
    ("table domain (decide, apply)", r"services/table/|runtime/aggregate\.py"),
    ("simulator: building commands", r"services/simulator/"),
    ("store / unit of work", r"runtime/store\.py"),
    ("aiokafka + faststream: send", r"aiokafka/producer|faststream/.*publish|aiokafka/record"),
    ("aiokafka + faststream: fetch, consume", r"aiokafka/consumer|aiokafka/conn|faststream"),
    ("bus (dispatch, metrics)", r"runtime/bus\.py|prometheus"),
    ("asyncio event loop, other", r"."),
]]


def fold(path: Path) -> tuple[Counter[str], int]:
    parts: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = stack.split(";")
        for name, pattern in PARTS:
            if any(pattern.search(f) for f in frames):
                parts[name] += n
                break
    return parts, total


def summarize(directory: Path) -> str:
    out = []
    for run in sorted(p for p in directory.iterdir() if p.is_dir()) or [directory]:
        files = sorted(run.glob("*.txt"))
        if not files:
            continue
        out.append(f"Profile ({run.name}; py-spy, {RATE} Hz, CPU seconds per process while it "
                   f"was busy, share of that process's samples):\n")
        out.append("| process | part | CPU s | share |\n|---|---|---:|---:|")
        for f in files:
            parts, total = fold(f)
            out.append(f"| **{f.stem}** | all | **{total / RATE:.1f}** | 100% |")
            for name, n in parts.most_common():
                if n / max(total, 1) >= 0.01:
                    out.append(f"| | {name} | {n / RATE:.1f} | {n / total:.0%} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(summarize(Path(sys.argv[1])))

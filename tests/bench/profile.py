"""Where a floor process spends its time: py-spy's collapsed stacks (`--format raw`, one file per
process, written by bench_floor with BENCH_PROFILE=1) folded into a few named parts.

A sample goes to the first part (in the order of PARTS) whose test accepts its stack, so e.g.
the rules engine called from the table domain counts as rules engine, and pydantic building an
event inside the domain counts as event construction; what is left goes by its innermost frame
of a named library (aiokafka, FastStream) or of the bus. py-spy samples only
threads that are running (not idle), so the total is CPU time, not wall time.

`python -m tests.bench.profile DIR` prints the table for the files in DIR.
"""
from __future__ import annotations

import functools
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

RATE = 200  # samples per second, as bench_floor asks py-spy for

def _any(pattern: str) -> Callable[[list[str]], bool]:
    rx = re.compile(pattern)
    return lambda frames: any(rx.search(f) for f in frames)


def _both(a: str, b: str) -> Callable[[list[str]], bool]:
    first, second = _any(a), _any(b)
    return lambda frames: first(frames) and second(frames)


def _leaf(pattern: str) -> Callable[[list[str]], bool]:
    """The innermost frame of our code or a library we name is this one."""
    rx = re.compile(pattern)
    known = re.compile(r"aiokafka/|faststream/|runtime/bus\.py|prometheus|services/|contracts/")
    def test(frames: list[str]) -> bool:
        for f in reversed(frames):
            if known.search(f):
                return bool(rx.search(f))
        return False
    return test


# (part, test of a sample's stack), first match wins
PARTS: list[tuple[str, Callable[[list[str]], bool]]] = [
    ("start-up (imports)", _any(r"^_find_and_load \(|^_call_with_frames_removed \(")),
    ("decode + validate (codec.decode: pydantic)", _any(r"^decode \(.*contracts/codec\.py")),
    ("encode (codec.encode: model_dump_json)", _any(r"^encode \(.*contracts/codec\.py")),
    ("DuckDB (statements, commit, open/close)",
     _any(r"duckdb|\b(flush|flush_rounds|_write|_many) \(.*projector\.py|"
          r"ProjectorService\.(transaction|_connection|_release)|open_db")),
    ("projector: event → buffered rows (incl. model_dump_json of the body)",
     _any(r"projections/projector\.py")),
    ("rules engine (bet checks, settlement)", _any(r"services/rules/")),
    ("table: building event models (pydantic)",
     _both(r"pydantic/main\.py", r"services/table/|runtime/aggregate\.py")),
    ("table domain (decide, apply)", _any(r"services/table/|runtime/aggregate\.py")),
    ("simulator: building commands (pydantic)", _any(r"services/simulator/")),
    ("store / unit of work", _any(r"runtime/store\.py")),
    ("aiokafka send (produce requests)", _any(r"aiokafka/producer")),
    ("aiokafka fetch, commit, heartbeats", _leaf(r"aiokafka/")),
    ("bus + faststream dispatch, metrics", _leaf(r"faststream/|runtime/bus\.py|prometheus")),
    ("event loop, other", lambda frames: True),
]


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
        for name, test in PARTS:
            if test(frames):
                parts[name] += n
                break
    return parts, total


def summarize(directory: Path) -> str:
    """One table per run folder. With the run's cpu.json (CPU seconds per process from /proc,
    and the bets settled), each part is also given as CPU ms per bet: py-spy's share of the
    process's samples times its measured CPU time. (py-spy counts a thread as busy whenever it
    is not waiting on I/O, also while it waits for a core on a loaded machine, so its own
    seconds overstate CPU; its shares are what is used.)"""
    out = []
    for run in sorted(p for p in directory.iterdir() if p.is_dir()) or [directory]:
        files = sorted(run.glob("*.txt"))
        if not files:
            continue
        info = json.loads((run / "cpu.json").read_text()) if (run / "cpu.json").exists() else {}
        cpu, bets = info.get("cpu", {}), info.get("bets", 0)
        out.append(f"Profile, {info.get('title', run.name)}: py-spy at {RATE} Hz on every process; "
                   f"share of each process's busy samples, and CPU ms per bet settled "
                   f"(that share of the process's CPU time from /proc, over {bets:,} bets).\n")
        out.append("| process | part | share | CPU ms/bet |\n|---|---|---:|---:|")
        for f in files:
            parts, total = fold(f)
            used = cpu.get(f.stem)
            per_bet = functools.partial(_per_bet, used=used, bets=bets)
            out.append(f"| **{f.stem}** | all ({used or 0:.1f} CPU s) | 100% | "
                       f"**{per_bet(1.0)}** |")
            for name, n in parts.most_common():
                if n / max(total, 1) >= 0.02:
                    out.append(f"| | {name} | {n / total:.0%} | {per_bet(n / total)} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(summarize(Path(sys.argv[1])))


def _per_bet(share: float, *, used: float | None, bets: int) -> str:
    """CPU ms per bet for a share of a process's CPU time ("" when either is unknown)."""
    return f"{share * used / bets * 1000:.3f}" if used and bets else ""

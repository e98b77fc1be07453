"""`make bench [ONLY=name]`: run benchmarks and rewrite their sections of BENCHMARKS.md.

A benchmark is a module tests/bench/bench_<name>.py with `run() -> str` returning Markdown
(tables of measured figures). Each section records the machine, the command and the date, so
a figure in BENCHMARKS.md can always be traced to how it was produced. Sections of benchmarks
that were not run this time are kept as they were.
"""
from __future__ import annotations

import datetime as dt
import importlib
import os
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "BENCHMARKS.md"
HEADER = ("# Benchmarks\n\nWritten by `make bench` (tests/bench/run.py). Each section says the "
          "machine, the command and the date it was measured. Speed targets are checked here, "
          "never by timed unit tests.\n")


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{platform.system()} {platform.machine()}, {cpu}, {os.cpu_count()} logical cores, "
            f"Python {platform.python_version()}")


def available() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in Path(__file__).parent.glob("bench_*.py"))


def section(name: str, body: str, seconds: float) -> str:
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (f"<!-- bench:{name} -->\n## {name}\n\n- machine: {machine()}\n"
            f"- command: `make bench ONLY={name}`\n- date: {when} (took {seconds:.0f} s)\n\n"
            f"{body.strip()}\n<!-- /bench:{name} -->\n")


def merge(existing: str, name: str, new_section: str) -> str:
    pattern = re.compile(rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->\n",
                         re.S)
    if pattern.search(existing):
        return pattern.sub(lambda _: new_section, existing)
    return existing.rstrip("\n") + "\n\n" + new_section


def main(argv: list[str]) -> int:
    names = argv or available()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}",
              file=sys.stderr)
        return 2
    for name in names:
        print(f"[bench] {name} ...", flush=True)
        start = time.perf_counter()
        body = importlib.import_module(f"tests.bench.bench_{name}").run()
        elapsed = time.perf_counter() - start
        # Read the file only now: another benchmark may have rewritten it meanwhile.
        text = OUT.read_text() if OUT.exists() else HEADER
        OUT.write_text(merge(text, name, section(name, body, elapsed)))
        print(f"[bench] {name} done in {elapsed:.0f} s -> {OUT.name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

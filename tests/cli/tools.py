"""Running `casino` in tests: in this process (click's runner) or as a real program."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from services.cli.main import casino

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> Result:
    """`casino ARGS` in this process; result.stdout and result.stderr are kept apart."""
    return CliRunner().invoke(casino, list(args), input=stdin, catch_exceptions=False)


def casino_program() -> list[str]:
    """The installed entry point when there is one (as a user runs it), else the module."""
    script = Path(sys.executable).parent / "casino"
    return [str(script)] if script.exists() else [sys.executable, "-m", "services.cli.main"]


def run_process(*args: str, stdin: str | None = None, bootstrap: str | None = None,
                timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`casino ARGS` as a child process, KAFKA_BOOTSTRAP_SERVERS set to `bootstrap`."""
    env = {**os.environ, **({"KAFKA_BOOTSTRAP_SERVERS": bootstrap} if bootstrap else {})}
    return subprocess.run([*casino_program(), *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env=env)


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]

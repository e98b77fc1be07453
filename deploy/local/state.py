"""The state file of a background broker (`casino broker start`), and its processes by pid.

The CLI that started the broker has exited, so later commands only have pids. A pid is
trusted only while /proc says it is still the same program (a recycled pid is left alone).
"""
from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

STATE_FILE = "broker.json"
# What each child's command line contains, to recognise it behind a pid.
PROGRAMS = {"tansu": "tansu", "localbucket": "localbucket"}


def state_path(data_dir: Path) -> Path:
    return Path(data_dir) / STATE_FILE


def write_state(data_dir: Path, state: dict[str, Any]) -> Path:
    path = state_path(data_dir)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=2) + "\n")
    tmp.replace(path)   # atomic: a reader never sees half a file
    return path


def read_state(data_dir: Path) -> dict[str, Any] | None:
    try:
        return json.loads(state_path(data_dir).read_text())
    except FileNotFoundError:
        return None


def pid_alive(pid: int, program: str) -> bool:
    """True when `pid` runs and is `program` (a zombie counts as gone)."""
    proc = Path(f"/proc/{pid}")
    if not Path("/proc/self").exists():     # no procfs: the signal-0 probe is all we have
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    try:
        stat = (proc / "stat").read_text()
        cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state != "Z" and program in cmdline


def alive_pids(state: dict[str, Any]) -> dict[str, int]:
    return {name: pid for name, pid in state.get("pids", {}).items()
            if pid_alive(pid, PROGRAMS[name])}


def stop_pid(pid: int, program: str, timeout: float = 5.0) -> None:
    """SIGTERM, wait up to `timeout`, then SIGKILL; returns when the process is gone."""
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, timeout)):
        if not pid_alive(pid, program):
            return
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while pid_alive(pid, program) and time.monotonic() < deadline:
            time.sleep(0.05)
    if pid_alive(pid, program):
        raise RuntimeError(f"{program} (pid {pid}) survived SIGKILL")

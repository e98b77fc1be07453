"""No orphans: the broker's processes die with the Python process that started them."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deploy.local.state import pid_alive

ROOT = Path(__file__).resolve().parents[2]
# The parent takes Ctrl-C as a terminal's process does even when the suite itself was started
# as a background job of a script, which inherits SIGINT ignored (Python then keeps ignoring
# it, and the ctrl-c case waited out its 15 s).
PARENT = """
import json, signal, sys, time
from pathlib import Path
from deploy.local.broker import EmbeddedBroker
signal.signal(signal.SIGINT, signal.default_int_handler)
with EmbeddedBroker(Path(sys.argv[1]), durable=True) as broker:
    print(json.dumps(broker.status()), flush=True)
    time.sleep(60)
"""


def wait_gone(pids: dict[str, int], timeout: float = 10.0) -> dict[str, int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = {n: p for n, p in pids.items() if pid_alive(p, n)}
        if not alive:
            return alive
        time.sleep(0.05)
    return alive


@pytest.mark.parametrize("how", ["ctrl-c", "sigkill"])
def test_children_die_with_the_parent(tmp_path: Path, how: str) -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        status = json.loads(parent.stdout.readline())   # type: ignore[union-attr]
        pids = status["pids"]
        assert set(pids) == {"tansu", "localbucket"}
        assert all(pid_alive(p, n) for n, p in pids.items())
        if how == "ctrl-c":   # the terminal signals the parent's whole process group
            os.killpg(parent.pid, signal.SIGINT)
        else:                 # a crash: no Python cleanup runs at all
            parent.kill()
        parent.wait(timeout=15)
        assert wait_gone(pids) == {}
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()

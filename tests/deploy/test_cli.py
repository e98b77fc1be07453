"""`casino broker start|status|stop` round trip in a temporary data dir, in real processes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.local.broker import free_port, kafka_ready
from tests.deploy.test_orphans import ROOT, wait_gone


def casino(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli.main", "broker", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_start_status_stop_round_trip(tmp_path: Path) -> None:
    data = str(tmp_path / "broker")
    started = casino("start", "--data-dir", data)
    assert started.returncode == 0, started.stderr
    state = json.loads((tmp_path / "broker" / "broker.json").read_text())
    pids = state["pids"]
    try:
        assert f"broker started: {state['bootstrap']} (durable)" in started.stdout
        assert all(path in started.stdout for path in state["logs"].values())
        assert set(pids) == {"tansu", "localbucket"}
        assert kafka_ready(state["bootstrap"])      # it outlived the command that started it

        status = casino("status", "--data-dir", data, "--json")
        assert status.returncode == 0
        assert json.loads(status.stdout)["answering"] is True

        again = casino("start", "--data-dir", data)
        assert again.returncode == 1 and "already runs" in again.stderr
    finally:
        stopped = casino("stop", "--data-dir", data)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    assert wait_gone(pids, timeout=1.0) == {}     # stop returns only once they are gone
    assert not (tmp_path / "broker" / "broker.json").exists()
    after = casino("status", "--data-dir", data)
    assert after.returncode == 1 and "not running" in after.stdout


def test_memory_mode_on_a_chosen_port_and_stale_state(tmp_path: Path) -> None:
    data, port = str(tmp_path / "b"), free_port()
    assert casino("start", "--data-dir", data, "--memory", "--port", str(port)).returncode == 0
    state = json.loads((tmp_path / "b" / "broker.json").read_text())
    assert (state["mode"], state["port"], set(state["pids"])) == ("memory", port, {"tansu"})
    subprocess.run(["kill", "-9", str(state["pids"]["tansu"])], check=True)
    assert wait_gone(state["pids"]) == {}
    status = casino("status", "--data-dir", data)
    assert status.returncode == 1 and "stale state file" in status.stdout
    assert casino("stop", "--data-dir", data).returncode == 0


@pytest.mark.parametrize("command", [[], ["start"], ["status"], ["stop"]])
def test_help_everywhere(command: list[str]) -> None:
    result = casino(*command, "--help")
    assert result.returncode == 0 and result.stdout.startswith("Usage: ")
    assert ("--data-dir" in result.stdout) == bool(command)


def test_stop_when_nothing_runs_is_fine(tmp_path: Path) -> None:
    result = casino("stop", "--data-dir", str(tmp_path))
    assert result.returncode == 0 and "not running" in result.stdout

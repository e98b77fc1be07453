"""`casino broker start|stop|status`: the embedded Kafka-protocol broker (Tansu) in the background.

`start` launches the broker detached (it outlives this command), records pids and ports in
DATA_DIR/broker.json and prints the bootstrap address; `status` and `stop` read that file.
DATA_DIR defaults to var/broker/ under the repository root (git-ignored).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from deploy.local.broker import BrokerError, EmbeddedBroker, kafka_ready
from deploy.local.state import PROGRAMS, alive_pids, read_state, state_path, stop_pid, write_state


def repo_root() -> Path:
    """The folder holding pyproject.toml (this package is installed editable from it)."""
    here = Path(__file__).resolve()
    return next((p for p in here.parents if (p / "pyproject.toml").exists()), Path.cwd())


DEFAULT_DATA_DIR = repo_root() / "var" / "broker"
data_dir_option = click.option(
    "--data-dir", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_DATA_DIR,
    show_default=True, help="Broker data, logs and state file.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def broker() -> None:
    """Start, stop and check the embedded Kafka broker (Tansu; durable storage by default)."""


@broker.command()
@data_dir_option
@click.option("--port", type=click.IntRange(1, 65535), help="Kafka port (default: a free one).")
@click.option("--s3-port", type=click.IntRange(1, 65535),
              help="localbucket port for durable mode (default: a free one).")
@click.option("--memory", is_flag=True, help="Keep data in memory only (lost on stop).")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds to wait for the broker to answer Kafka requests.")
def start(data_dir: Path, port: int | None, s3_port: int | None, memory: bool,
          timeout: float) -> None:
    """Start the broker in the background and print its bootstrap address."""
    state = read_state(data_dir)
    if state and alive_pids(state):
        _echo_status(state, "already running")
        raise click.ClickException(f"a broker already runs for {data_dir}; "
                                   "`casino broker stop` it first")
    data_dir.mkdir(parents=True, exist_ok=True)
    embedded = EmbeddedBroker(data_dir, durable=not memory, port=port, s3_port=s3_port,
                              die_with_parent=False)   # it must outlive this command
    try:
        embedded.start(timeout)
    except BrokerError as error:
        raise click.ClickException(str(error)) from error
    state = embedded.status()
    write_state(data_dir, state)
    _echo_status(state, "started")


@broker.command()
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
def status(data_dir: Path, as_json: bool) -> None:
    """Say whether the broker runs and answers Kafka requests (exit status 1 when not)."""
    state = read_state(data_dir)
    if state:
        alive = alive_pids(state)
        running = set(alive) == set(state["pids"])
        state = {**state, "running": running, "alive_pids": alive,
                 "answering": running and kafka_ready(state["bootstrap"])}
    healthy = bool(state and state["answering"])
    if as_json:
        click.echo(json.dumps(state or {"running": False}, indent=2))
    elif state:
        _echo_status(state, "running" if state["running"] else "NOT running (stale state file)")
        click.echo(f"  kafka:    {'answers' if state['answering'] else 'does NOT answer'}")
    else:
        click.echo(f"not running (no {state_path(data_dir)})")
    sys.exit(0 if healthy else 1)


@broker.command()
@data_dir_option
def stop(data_dir: Path) -> None:
    """Stop the broker cleanly (SIGTERM, then SIGKILL after 5 s); fine if it is not running."""
    state = read_state(data_dir)
    if not state:
        click.echo(f"not running (no {state_path(data_dir)})")
        return
    for name in ("tansu", "localbucket"):   # Tansu first: it writes into the bucket
        if name in state["pids"]:
            stop_pid(state["pids"][name], PROGRAMS[name])
    state_path(data_dir).unlink()
    click.echo(f"stopped (pids {', '.join(map(str, state['pids'].values()))})")


def _echo_status(state: dict[str, Any], headline: str) -> None:
    click.echo(f"broker {headline}: {state['bootstrap']} ({state['mode']})")
    click.echo(f"  pids:     {', '.join(f'{n} {p}' for n, p in state['pids'].items())}")
    if state.get("s3_port"):
        click.echo(f"  s3:       http://127.0.0.1:{state['s3_port']} (localbucket)")
    click.echo(f"  data dir: {state['data_dir']}")
    for name, path in state["logs"].items():
        click.echo(f"  log:      {path} ({name})")

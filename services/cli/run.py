"""`casino run` (what `make run` calls): the whole floor on one machine.

Starts the embedded broker in durable mode (data in var/broker, so a second run resumes the
history) unless KAFKA_BOOTSTRAP_SERVERS points at a real cluster, creates the topics, starts
every service and the floor simulator as child processes with their own log files, prints where
to look, and on Ctrl-C stops everything and leaves no process behind.

Commands are authenticated (issue 12): the services run with CASINO_REQUIRE_SIGNATURES=1; the
root administrator key is <var>/identity/root.key (made on the first run, `casino keys init`),
and the keys of services/runtime/key_admin.py FLOOR_KEYS are registered with it: supervisor.key
(table supervisor JM-1) and surveillance.key (officer SURV-1) for people at the console, and
the wheel and dice services' keys (services/, role device). The simulator registers its own
terminals' keys.
"""
from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import click

from contracts.topics import partition_counts
from services.runtime.settings import Settings


def _spawn(name: str, args: list[str], logs: Path, env: dict[str, str]) -> subprocess.Popen:
    """A service as a child process that dies with us even if we are killed (PDEATHSIG)."""
    from deploy.local.procs import die_with_parent_preexec

    with open(logs / f"{name}.out", "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "services.cli.main", *args], stdout=log,
                                stderr=subprocess.STDOUT, env=env,
                                preexec_fn=die_with_parent_preexec(True))


def _stop_all(children: dict[str, subprocess.Popen]) -> None:
    from deploy.local.procs import stop_process

    for proc in children.values():  # SIGTERM all first, so they stop in parallel
        if proc.poll() is None:
            proc.terminate()
    for proc in children.values():
        stop_process(proc, timeout=10)


@click.command()
@click.option("--tables", type=int, default=3, show_default=True, help="Simulated tables.")
@click.option("--rate", type=float, default=0.5, show_default=True,
              help="Simulated rounds per second per table.")
@click.option("--dashboard-port", type=int, default=8080, show_default=True,
              help="Port of the floor dashboard (a free one is used if it is taken).")
@click.option("--no-simulator", is_flag=True, help="Start the services only.")
@click.option("--progress-every", type=float, default=10.0, show_default=True,
              help="Seconds between the progress lines (rounds settled, house win).")
def run(tables: int, rate: float, dashboard_port: int, no_simulator: bool,
        progress_every: float) -> None:
    """Start the whole floor: broker, topics, services and the floor simulator."""
    from deploy.local.admin import ensure_topics
    from deploy.local.broker import EmbeddedBroker, free_port, port_is_free

    settings = Settings.from_env()
    logs = settings.var_dir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        if os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
            bootstrap = settings.bootstrap
            click.echo(f"Using the Kafka cluster at {bootstrap} (KAFKA_BOOTSTRAP_SERVERS)")
        else:
            broker = EmbeddedBroker(settings.var_dir / "broker", durable=True, log_dir=logs)
            click.echo("Starting the embedded broker (durable, data in var/broker) ...")
            bootstrap = broker.start()
            stack.callback(broker.stop)
        ensure_topics(bootstrap, partition_counts())
        from services.runtime.key_admin import setup_floor_keys
        keys = asyncio.run(setup_floor_keys(dataclasses.replace(settings, bootstrap=bootstrap)))
        env = {**os.environ, "KAFKA_BOOTSTRAP_SERVERS": bootstrap,
               "CASINO_REQUIRE_SIGNATURES": "1"}
        port = dashboard_port if port_is_free(dashboard_port) else free_port()
        common = ["--bootstrap", bootstrap]
        plan = {
            "table-service": ["service", "table", *common,
                              "--log-file", str(logs / "table-service.log")],
            "projector": ["service", "projector", *common, "--status-port", str(port),
                          "--log-file", str(logs / "projector.log")],
            "vision-service": ["service", "vision", *common,
                               "--log-file", str(logs / "vision-service.log")],
            "wheel-service": ["service", "wheel", *common,
                              "--log-file", str(logs / "wheel-service.log")],
            "dice-service": ["service", "dice", *common,
                             "--log-file", str(logs / "dice-service.log")],
        }
        if not no_simulator:
            plan["simulator"] = ["simulate", *common, "--tables", str(tables), "--rate", str(rate),
                                 "--cameras", "--wheels"]
        children = {name: _spawn(name, args, logs, env) for name, args in plan.items()}
        stack.callback(_stop_all, children)
        click.echo(f"""
The floor is running.
  broker            {bootstrap}
  floor dashboard   http://127.0.0.1:{port}/        (live tables, house win chart, refusals)
  projector status  http://127.0.0.1:{port}/status
  report            .venv/bin/casino report tables
  devices           .venv/bin/casino report devices --bootstrap {bootstrap}
  events            .venv/bin/casino events tail --topic floor.table.events --bootstrap {bootstrap}
  dealer terminal   .venv/bin/casino send FILE --key {next(iter(keys))} --bootstrap {bootstrap}
                    (JSON Lines commands; every command must be signed: casino keys --help)
  logs              {logs}/  (table-service.log, projector.log, vision-service.log,
                    wheel-service.log, dice-service.log, simulator.out, tansu.log)
Press Ctrl-C to stop everything.""")
        _wait(children, f"http://127.0.0.1:{port}/api/tables", progress_every)


def progress_line(tables: list[dict]) -> str:
    """One line for the terminal: rounds settled and house win so far, per currency."""
    from contracts.money import format_money

    by_currency: dict[str, list[int]] = {}
    for t in tables:
        wagered_win = by_currency.setdefault(t["currency"], [0, 0])
        wagered_win[0] += t["wagered"]
        wagered_win[1] += t["house_win"]
    money = "; ".join(f"wagered {format_money(w, c)}, house win {format_money(h, c)}"
                      for c, (w, h) in sorted(by_currency.items()))
    rounds = sum(t["rounds"] for t in tables)
    return (f"{time.strftime('%H:%M:%S')}  {len(tables)} tables, {rounds} rounds settled"
            + (f"; {money}" if money else ""))


def _show_progress(api_url: str) -> None:
    """Print the floor's totals from the dashboard's JSON; quiet while it is still starting."""
    try:
        with urllib.request.urlopen(api_url, timeout=2) as answer:
            tables = json.loads(answer.read())
    except (OSError, ValueError):
        return
    click.echo(progress_line(tables))


def _wait(children: dict[str, subprocess.Popen], api_url: str, every: float) -> None:
    """Until Ctrl-C / SIGTERM, showing progress; a child that dies on its own is an error.
    (Ctrl-C reaches the children too, so a child exiting right after a stop request is
    expected.)"""
    stop = {"now": False}
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.update(now=True))
    shown_at = time.monotonic()
    while not stop["now"]:
        time.sleep(0.5)
        if time.monotonic() - shown_at >= every:
            shown_at = time.monotonic()
            _show_progress(api_url)
        dead = [(n, p.returncode) for n, p in children.items() if p.poll() is not None]
        if dead and not stop["now"]:
            time.sleep(1.0)  # a stop signal may be on its way
        if dead and not stop["now"]:
            name, code = dead[0]
            raise click.ClickException(f"{name} exited with code {code}; see var/logs/{name}*")
    click.echo("\nStopping the floor ...")

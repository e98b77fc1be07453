"""The fault suite's floor: an embedded broker (durable when a scenario restarts it), the
services as separate processes (so they can be killed with SIGKILL), and dealer terminals that
play rounds through the runtime's bus, resending what the broker did not acknowledge.

Everything waits by polling for a condition with a generous limit (a slow, shared 2-core CI
machine): nothing sleeps and hopes.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from contracts.envelope import Command, Event
from contracts.topics import partition_counts
from deploy.local.admin import ensure_topics
from deploy.local.broker import EmbeddedBroker, free_port
from services.runtime.settings import Settings
from services.simulator.app import simulator_bus
from services.simulator.cameras import Cameras
from services.simulator.floor import make_tables, open_table, round_commands, seat_players

REPO = Path(__file__).resolve().parents[2]
START_LIMIT = 120.0          # s for a service process to answer /health (imports under load)
SEND_RETRY_SECONDS = 1.0     # a terminal's pause before resending an unacknowledged round


def http_ok(port: int, path: str = "/health") -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def http_json(port: int, path: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=3) as r:
        return dict(json.load(r))


async def poll(predicate: Callable[[], bool], timeout: float, what: str,
               every: float = 0.25) -> float:
    """Wait until `predicate()` holds; returns the seconds it took; TimeoutError naming
    `what` after `timeout` s. The predicate runs in a thread (it may do blocking I/O)."""
    started = time.monotonic()
    while not await asyncio.to_thread(predicate):
        if time.monotonic() - started > timeout:
            raise TimeoutError(f"gave up waiting for {what} after {timeout:.0f} s")
        await asyncio.sleep(every)
    return time.monotonic() - started


@dataclass
class ServiceProcess:
    """One service instance: `casino service NAME` as a child process with its own port."""

    name: str                # table, projector or vision
    instance: str            # e.g. table, table-2
    argv: list[str]
    port: int
    log: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [*self.argv, "--status-port", str(self.port), "--log-file", str(self.log)],
            cwd=REPO, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(self.log.with_suffix(".stderr"), "ab"))  # noqa: SIM115 (child owns it)

    def kill(self) -> None:
        """SIGKILL: no goodbye, no commit, no leaving the consumer group."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def healthy(self) -> bool:
        return self.alive() and http_ok(self.port)


@dataclass
class Terminals:
    """Dealer terminals and wheel cameras of `tables` tables, playing `rounds` rounds each at
    `rate` rounds per second per table. A round whose publish fails (the broker away) is sent
    again, with the same command ids, until acknowledged: at-least-once, as a terminal does."""

    settings: Settings
    tables: int
    rounds: int
    rate: float
    seed: int
    cameras: Cameras | None
    sent_rounds: int = 0
    resends: int = 0
    done: bool = False

    async def play(self, stop: asyncio.Event | None = None) -> int:
        rng = random.Random(self.seed)
        floor = make_tables(self.tables)
        bus = simulator_bus(self.settings)
        await self._connect(bus)
        try:
            for table in floor:
                await self._send(bus, [open_table(table), *seat_players(table)])
            started = time.monotonic()
            for i in range(self.rounds * len(floor)):
                if stop is not None and stop.is_set():
                    break
                table = floor[i % len(floor)]
                await self._send(bus, self._round(table, rng))
                self.sent_rounds += 1
                due = started + self.sent_rounds / (self.rate * len(floor))
                await asyncio.sleep(max(0.0, due - time.monotonic()))
            return self.sent_rounds
        finally:
            self.done = True
            with contextlib.suppress(Exception):
                await bus.broker.stop()

    def _round(self, table, rng: random.Random) -> list[Command | Event]:
        if self.cameras is None:
            return list(round_commands(table, rng))
        from contracts.envelope import new_id
        corr = new_id()
        shot = self.cameras.shoot(table.table_id, corr, rng)
        entered = self.cameras.dealer_entry(shot.true_pocket, rng)
        return [*round_commands(table, rng, pocket=entered, correlation_id=corr), shot.frame]

    async def _connect(self, bus) -> None:
        while True:
            try:
                await bus.broker.connect()
                return
            except Exception:  # noqa: BLE001 — the broker is restarting: try again
                await asyncio.sleep(SEND_RETRY_SECONDS)

    async def _send(self, bus, messages: list) -> None:
        deadline = time.monotonic() + 180
        while True:
            try:
                await asyncio.wait_for(bus.publish(messages), 30)
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                self.resends += 1
                await asyncio.sleep(SEND_RETRY_SECONDS)


class Floor:
    """The broker and the services of one scenario, in `work`."""

    def __init__(self, work: Path, *, vision: bool, hold_minutes: float,
                 durable: bool = False) -> None:
        self.work = work
        # Durable (localbucket) storage only where the broker is restarted: reading the log
        # back from it is slow (about 50 records/s per partition measured on a busy machine),
        # and the checks read the whole log several times.
        self.broker = EmbeddedBroker(work / "broker", durable=durable)
        self.db = work / "floor.duckdb"
        self.evidence = work / "evidence"
        self.vision, self.hold_minutes = vision, hold_minutes
        self.services: dict[str, ServiceProcess] = {}

    @property
    def settings(self) -> Settings:
        return Settings(bootstrap=self.broker.bootstrap, var_dir=self.work / "var")

    def start_broker(self) -> None:
        self.broker.start(timeout=90)
        ensure_topics(self.broker.bootstrap, partition_counts(), timeout=90)

    def restart_broker(self) -> None:
        """Stop the broker (its log is on disk) and start it again on the same port."""
        self.broker.stop()
        self.broker.start(timeout=90)

    def service(self, name: str, instance: str | None = None) -> ServiceProcess:
        """Start an instance of service `name` (table, projector, vision)."""
        instance = instance or name
        argv = [sys.executable, "-m", "services.cli.main", "service", name,
                "--bootstrap", self.broker.bootstrap]
        if name == "projector":
            argv += ["--db", str(self.db)]
        elif name == "vision":
            argv += ["--evidence-dir", str(self.evidence),
                     "--hold-minutes", str(self.hold_minutes)]
        env = {**os.environ, "CASINO_VAR_DIR": str(self.work / "var")}
        env.pop("KAFKA_BOOTSTRAP_SERVERS", None)
        svc = ServiceProcess(name, instance, argv, free_port(), self.work / f"{instance}.log",
                             env)
        svc.start()
        self.services[instance] = svc
        return svc

    def names(self) -> list[str]:
        return ["table", "projector"] + (["vision"] if self.vision else [])

    async def start_services(self) -> None:
        for name in self.names():
            self.service(name)
        await self.wait_healthy(START_LIMIT, "every service starts")

    def all_healthy(self) -> bool:
        return all(s.healthy() for s in self.services.values() if s.alive()) and \
            all(s.alive() for s in self.services.values())

    async def wait_healthy(self, timeout: float, what: str) -> float:
        return await poll(self.all_healthy, timeout, what)

    def restart(self, instance: str) -> ServiceProcess:
        old = self.services[instance]
        old.kill()
        old.start()
        return old

    def terminals(self, *, tables: int, rounds: int, rate: float, seed: int) -> Terminals:
        cameras = (Cameras(self.work / "frames", dealer_error_rate=0.3,
                                no_decision_rate=0.0) if self.vision else None)
        return Terminals(self.settings, tables, rounds, rate, seed, cameras)

    def stop(self) -> None:
        for svc in self.services.values():
            svc.stop()
        self.broker.stop()

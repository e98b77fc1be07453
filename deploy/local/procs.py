"""Child-process and port plumbing for the embedded broker (generic, no Kafka here)."""
from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

HOST = "127.0.0.1"
PR_SET_PDEATHSIG = 1


class BrokerError(RuntimeError):
    """The embedded broker could not start (the message carries the log tail) or stop."""


def free_port(host: str = HOST) -> int:
    """A port that was free a moment ago (bind port 0, release it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def port_is_free(port: int, host: str = HOST) -> bool:
    # SO_REUSEADDR like Tokio/mio do: TIME_WAIT leftovers do not block them, a live listener does.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def wait_port_free(port: int, timeout: float, host: str = HOST) -> None:
    """Wait until nothing listens on `port`: a killed broker may hold it for a second or two,
    and Tansu panics with AddrInUse if started before it is released."""
    deadline = time.monotonic() + timeout
    while not port_is_free(port, host):
        if time.monotonic() > deadline:
            raise BrokerError(f"port {port} is still in use after {timeout:.0f} s")
        time.sleep(0.1)


def accepts_connections(address: str, timeout: float = 0.5) -> bool:
    host, port = address.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return True
    except OSError:
        return False


def die_with_parent_preexec(die_with_parent: bool) -> Callable[[], None] | None:
    """The function the child runs before exec: ask Linux to SIGTERM it when its parent dies.

    PDEATHSIG fires when the *thread* that forked the child exits, so it is only set from the
    main thread, which lives as long as the process. libc is resolved here, in the parent:
    the child of a threaded process must not dlopen (another thread may hold its lock)."""
    on_main = threading.current_thread() is threading.main_thread()
    if not (die_with_parent and on_main and sys.platform == "linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    parent = os.getpid()

    def in_child() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:   # the parent died before prctl took effect
            os._exit(1)
    return in_child


def stop_process(proc: subprocess.Popen[Any], timeout: float = 5.0) -> None:
    """SIGTERM, wait, SIGKILL fallback; always reaps the child."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()

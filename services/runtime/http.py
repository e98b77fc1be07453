"""Each service's HTTP endpoint: /health, /status, /metrics and any pages, served by uvicorn
inside the service's own asyncio loop (Starlette routes).

Running in the loop, not a thread, lets /health and /status read the service's state without
locks; a page that does blocking work (a DuckDB query) is a plain `def` endpoint, which Starlette
runs in a worker thread so the consumers keep going. uvicorn installs no signal handlers here:
SIGINT/SIGTERM stay with `run_service`, which stops the service and then this server.

Every response carries a Content-Security-Policy that allows no script at all, styles and
images from the service itself only, no framing and no forms (SECURITY_HEADERS): a value that
got into a page unescaped still could not run. Pages are autoescaping Jinja2 templates
(services/projections/templates/).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import uvicorn
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from services.runtime.metrics import ServiceMetrics

Health = Callable[[], tuple[bool, Mapping[str, Any]]]

CONTENT_SECURITY_POLICY = ("default-src 'none'; img-src 'self'; style-src 'self'; "
                           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",       # a body is only ever its declared type
    "referrer-policy": "no-referrer",
}


class SecurityHeaders:
    """ASGI wrapper adding SECURITY_HEADERS to every response of the app (error pages too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _InLoopServer(uvicorn.Server):
    """uvicorn without its signal handlers: the service owns SIGINT/SIGTERM."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class HttpServer:
    def __init__(self, *, status: Callable[[], Mapping[str, Any]], health: Health | None = None,
                 metrics: ServiceMetrics | None = None, routes: Sequence[BaseRoute] = (),
                 port: int = 0, host: str = "127.0.0.1") -> None:
        self._status, self._health, self._metrics = status, health, metrics
        self.host, self.port = host, port
        app = Starlette(routes=[*self._own_routes(), *routes],
                        exception_handlers={Exception: _error})
        self._server = _InLoopServer(uvicorn.Config(
            SecurityHeaders(app), http="h11", ws="none", lifespan="off", log_config=None,
            access_log=False, timeout_graceful_shutdown=2))
        self._task: asyncio.Task[None] | None = None
        self._socket: socket.socket | None = None

    def _own_routes(self) -> list[BaseRoute]:
        routes: list[BaseRoute] = [Route("/health", self.health),
                                   Route("/status", self.status)]
        if self._metrics is not None:
            routes.append(Route("/metrics", self.metrics))
        return routes

    async def start(self) -> str:
        """Bind (port 0: any free port), serve in this loop; returns the base URL."""
        family = socket.getaddrinfo(self.host, self.port, type=socket.SOCK_STREAM)[0][0]
        self._socket = socket.create_server((self.host, self.port), family=family)
        self.port = self._socket.getsockname()[1]
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]),
                                         name=f"http:{self.port}")
        while not self._server.started:
            if self._task.done():  # it failed to start: say why
                self._task.result()
                raise RuntimeError(f"HTTP server on port {self.port} stopped while starting")
            await asyncio.sleep(0.01)
        return self.url

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def stop(self) -> None:
        """Stop accepting, let requests in flight finish (at most 2 s), close the socket."""
        if self._task is None:
            return
        self._server.should_exit = True
        try:
            await self._task
        finally:
            self._task = None
            if self._socket is not None:
                self._socket.close()

    # The three endpoints are async so they run in the loop, beside the consumers whose
    # figures they read (no thread sees those dicts change under it).
    async def health(self, _request: Request) -> JSONResponse:
        healthy, details = self._health() if self._health else (True, {})
        return JSONResponse({"status": "ok" if healthy else "unhealthy", **details},
                            status_code=200 if healthy else 503)

    async def status(self, _request: Request) -> Response:
        body = json.dumps(self._status(), default=str, indent=1)
        return Response(body, media_type="application/json")

    async def metrics(self, _request: Request) -> Response:
        assert self._metrics is not None
        return Response(self._metrics.render(), media_type=CONTENT_TYPE_LATEST)


async def _error(_request: Request, exc: Exception) -> JSONResponse:
    """A page that raises answers 500 with what went wrong; the server goes on serving
    (uvicorn logs the traceback)."""
    return JSONResponse({"error": type(exc).__name__, "message": str(exc)}, status_code=500)

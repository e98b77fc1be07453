"""A small HTTP status endpoint per service (stdlib http.server in a daemon thread).

GET /health -> {"status": "ok"}; GET /status -> the service's own figures as JSON. Services
with a page for people (the floor dashboard) pass `pages`: path -> (content type, render()).
A path ending in "/" serves everything below it; render() then finds the rest in
params["_rest"]. A page that returns None answers 404.
"""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Mapping

Page = tuple[str, Callable[[dict[str, str]], bytes | None]]


class StatusServer:
    def __init__(self, status: Callable[[], Mapping[str, Any]], port: int = 0,
                 pages: Mapping[str, Page] | None = None, host: str = "127.0.0.1") -> None:
        routes: dict[str, Page] = {
            "/health": ("application/json", lambda _q: b'{"status": "ok"}'),
            "/status": ("application/json",
                        lambda _q: json.dumps(status(), default=str, indent=1).encode()),
            **(pages or {}),
        }

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path, _, query = self.path.partition("?")
                params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
                page = routes.get(path)
                if page is None:
                    prefix = next((r for r in routes if r.endswith("/") and r != "/"
                                   and path.startswith(r)), None)
                    page = routes.get(prefix) if prefix else None
                    params["_rest"] = path[len(prefix):] if prefix else ""
                try:
                    body = page[1](params) if page else None
                except Exception as exc:  # show the error, keep serving
                    self.send_error(500, f"{type(exc).__name__}: {exc}")
                    return
                if body is None:
                    self.send_error(404, "no such page")
                    return
                self.send_response(200)
                self.send_header("Content-Type", page[0])
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: Any) -> None:  # keep service logs for events
                pass

        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> "StatusServer":
        self._thread.start()
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

"""The HTTP endpoint every service serves, over real HTTP to a real uvicorn on a free port."""
import asyncio
import json
import signal
import urllib.error
import urllib.request

from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from services.runtime.http import HttpServer
from services.runtime.metrics import ServiceMetrics


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


async def fetch(url: str) -> tuple[int, bytes]:
    """urllib blocks, and the server runs in this very loop: ask from a thread."""
    return await asyncio.to_thread(get, url)


def serve(check, **kwargs) -> None:
    """Start a server with `kwargs`, run `check(base_url)`, always stop it."""
    async def main() -> None:
        server = HttpServer(**kwargs)
        url = await server.start()
        try:
            await check(url)
        finally:
            await server.stop()
    asyncio.run(main())


def test_health_status_and_metrics():
    metrics = ServiceMetrics("projector")
    metrics.handled("floor.table.events", "RoundSettled", 3)

    async def check(url: str) -> None:
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
        code, body = await fetch(url + "/health")
        assert code == 200 and json.loads(body) == {"status": "ok", "lag": 0}
        code, body = await fetch(url + "/status")
        assert code == 200 and json.loads(body) == {"handled": 3, "since": "2026-11-24"}
        code, body = await fetch(url + "/metrics")
        assert code == 200
        assert ('casino_messages_handled_total{topic="floor.table.events",type="RoundSettled"} 3.0'
                in body.decode())

    from datetime import date
    serve(check, status=lambda: {"handled": 3, "since": date(2026, 11, 24)},
          health=lambda: (True, {"lag": 0}), metrics=metrics)


def test_unhealthy_answers_503_and_no_metrics_without_them():
    async def check(url: str) -> None:
        code, body = await fetch(url + "/health")
        assert code == 503
        assert json.loads(body) == {"status": "unhealthy", "reason": "broker unreachable"}
        assert (await fetch(url + "/metrics"))[0] == 404

    serve(check, status=dict, health=lambda: (False, {"reason": "broker unreachable"}))


def test_a_page_that_raises_answers_500_and_the_server_goes_on():
    def boom(_request: Request) -> PlainTextResponse:
        raise ValueError("no such table: RUL-99")

    def hello(request: Request) -> PlainTextResponse:
        return PlainTextResponse(f"table {request.path_params['table_id']}")

    async def check(url: str) -> None:
        code, body = await fetch(url + "/boom")
        assert code == 500
        assert json.loads(body) == {"error": "ValueError", "message": "no such table: RUL-99"}
        assert await fetch(url + "/tables/RUL-07") == (200, b"table RUL-07")
        assert (await fetch(url + "/nothing"))[0] == 404
        assert (await fetch(url + "/health"))[0] == 200  # default health: ok

    serve(check, status=dict, routes=[Route("/boom", boom),
                                      Route("/tables/{table_id}", hello)])


def test_uvicorn_leaves_sigint_and_sigterm_to_the_service():
    async def main() -> None:
        before = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)]
        server = HttpServer(status=dict)
        await server.start()
        try:
            assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == before
        finally:
            await server.stop()
    asyncio.run(main())


def test_stop_frees_the_port():
    async def main() -> None:
        server = HttpServer(status=dict)
        url = await server.start()
        await server.stop()
        again = HttpServer(status=dict, port=server.port)
        assert await again.start() == url
        assert (await fetch(url + "/health"))[0] == 200
        await again.stop()
    asyncio.run(main())

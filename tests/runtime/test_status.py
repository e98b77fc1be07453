"""The status endpoint every service serves."""
import json
import urllib.error
import urllib.request

import pytest

from services.runtime.status import StatusServer


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, b""


def test_health_status_pages_and_prefix_routes():
    server = StatusServer(lambda: {"handled": 3}, pages={
        "/files/": ("text/plain", lambda q: q["_rest"].encode() if q["_rest"] == "a" else None),
        "/boom": ("text/plain", lambda q: 1 / 0)}).start()
    try:
        assert get(server.url + "/health") == (200, b'{"status": "ok"}')
        code, body = get(server.url + "/status")
        assert code == 200 and json.loads(body) == {"handled": 3}
        assert get(server.url + "/files/a") == (200, b"a")
        assert get(server.url + "/files/b")[0] == 404
        assert get(server.url + "/nothing")[0] == 404
        assert get(server.url + "/boom")[0] == 500
        assert get(server.url + "/health")[0] == 200  # still serving after an error
    finally:
        server.close()

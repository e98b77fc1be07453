"""Pages that escape everything (issue 12): hostile strings — markup, quotes that would close
an attribute, `javascript:` URLs — in every field the floor dashboard shows are rendered as
text, and every response carries the Content-Security-Policy. The values go straight into the
projection file (the page's only source), one distinct marker per field, so the test also
proves each field is on the page."""
import asyncio
import json
import urllib.request
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

from markupsafe import escape

from services.projections import store
from services.projections.dashboard import dashboard_routes, render
from services.runtime.http import CONTENT_SECURITY_POLICY, HttpServer

NOW = datetime.now(UTC)
JS_URL = "javascript:alert(document.cookie)"


def hostile(field: str) -> str:
    return f"<script>alert('{field}')</script>\"><img src=x onerror=alert(1)>"


FIELDS = ["table_id", "pocket", "check.round_id", "dealer_result", "read_result", "reason",
          "detail", "check_id", "resolved_result", "resolved_by",
          "resolution_note", "corrected.table", "corrected.round", "late.round_id",
          "late.release", "released_by", "refusal.table", "refusal.code", "refusal.reason",
          "refusal.rule", "letter.service", "letter.code", "letter.reason", "health.service",
          "health.instance", "health.stuck", "health.lagging"]


def hostile_floor(db) -> None:
    h = hostile
    with store.connect(db) as con:
        con.execute("INSERT INTO tables (table_id, game, currency, min_bet, max_bet, opened_at) "
                    "VALUES (?, 'roulette', 'BOB', 100, 50000, ?)", [h("table_id"), NOW])
        con.execute("INSERT INTO rounds (round_id, table_id, round_number, opened_at, pocket, "
                    "settled_at, bet_count, wagered, paid, house_win) "
                    "VALUES ('r1', ?, 1, ?, ?, ?, 1, 1000, 0, 1000)",
                    [h("table_id"), NOW, h("pocket"), NOW])
        con.execute("INSERT INTO bets (bet_id, round_id, table_id, seat, player_id, kind, stake, "
                    "currency, placed_at, outcome) VALUES ('b1', 'r1', ?, 1, ?, 'red', 500, "
                    "'BOB', ?, 'prison')", [h("table_id"), h("player_id"), NOW])
        con.execute("INSERT INTO round_checks (check_id, table_id, round_id, kind, dealer_result, "
                    "declared_at, read_result, confidence, evidence_sha256, status, reason, "
                    "detail, hold_deadline, decided_at) VALUES (?, ?, ?, 'wheel', ?, ?, ?, 0.5, "
                    "?, 'verification', ?, ?, ?, ?)",
                    [h("check_id"), h("table_id"), h("check.round_id"), h("dealer_result"),
                     NOW, h("read_result"), h("evidence_sha256"), h("reason"), h("detail"),
                     NOW + timedelta(minutes=1), NOW])
        con.execute("INSERT INTO round_checks (check_id, table_id, round_id, dealer_result, "
                    "status, outcome, resolved_result, resolved_by, resolved_at, within_hold, "
                    "resolution_note) VALUES ('c2', ?, ?, '17', 'resolved', 'CORRECTED', ?, ?, "
                    "?, false, ?)", [h("corrected.table"), h("corrected.round"),
                                     h("resolved_result"), h("resolved_by"), NOW,
                                     h("resolution_note")])
        con.execute("INSERT INTO payout_holds (round_id, table_id, check_id, reason, held_bets, "
                    "held, currency, held_at, deadline, released_at, release, released, "
                    "within_hold, released_by) VALUES (?, ?, 'c3', 'MISMATCH', 1, 100, 'BOB', "
                    "?, ?, ?, ?, 100, false, ?)",
                    [h("late.round_id"), h("table_id"), NOW - timedelta(minutes=2),
                     NOW - timedelta(minutes=1), NOW - timedelta(seconds=20), h("late.release"),
                     h("released_by")])
        con.execute("INSERT INTO rejections VALUES ('e1', ?, NULL, NULL, 'PlaceBet', ?, "
                    "'payload', ?, ?, ?)", [h("refusal.table"), h("refusal.code"),
                                            h("refusal.reason"), h("refusal.rule"), NOW])
        con.execute("INSERT INTO dead_letters VALUES ('d1', ?, ?, 'floor.table.commands', 0, 1, "
                    "?, ?)", [NOW, h("letter.service"), h("letter.code"), h("letter.reason")])
        con.execute("INSERT INTO service_health VALUES (?, ?, ?, false, ?, ?, 5, ?)",
                    [h("health.service"), h("health.instance"), NOW,
                     json.dumps([h("health.stuck")]), json.dumps({h("health.lagging"): 20_000}),
                     JS_URL])


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text, as a browser would parse them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_every_field_of_the_dashboard_is_shown_as_text(tmp_path):
    db = tmp_path / "floor.duckdb"
    hostile_floor(db)
    page = render(db).decode()
    parsed = Elements()
    parsed.feed(page)
    tags = [t for t, _ in parsed.tags]
    assert "script" not in tags
    assert not [(t, a) for t, a in parsed.tags for name in a if name.startswith("on")]
    urls = [v or "" for _t, a in parsed.tags for k, v in a.items() if k in ("href", "src")]
    assert not [u for u in urls if u.strip().lower().startswith("javascript:")]
    assert [t for t in tags if t == "img"] == ["img"]   # only the evidence frame, no injected one
    # the evidence hash is a path in the frame's link and image (its head is shown as text)
    assert urls.count("/evidence/" + hostile("evidence_sha256")) == 2
    assert hostile("evidence_sha256")[:12] in "".join(parsed.text)
    text = "".join(parsed.text)
    missing = [f for f in FIELDS if hostile(f) not in text]
    assert missing == [], f"fields not on the page (or mangled): {missing}"
    for field in FIELDS:
        assert str(escape(hostile(field))) in page          # escaped where it stands
    assert JS_URL in text                                    # the URL is shown, as text only


def test_every_response_carries_the_content_security_policy(tmp_path):
    db = tmp_path / "floor.duckdb"
    hostile_floor(db)

    async def main() -> dict[str, dict[str, str]]:
        server = HttpServer(status=lambda: {}, routes=dashboard_routes(db, tmp_path / "ev"))
        url = await server.start()
        try:
            return {path: await asyncio.to_thread(headers, url + path)
                    for path in ("/", "/floor.css", "/api/tables", "/health", "/nowhere",
                                 "/evidence/" + "0" * 64)}
        finally:
            await server.stop()

    for path, got in asyncio.run(main()).items():
        assert got.get("content-security-policy") == CONTENT_SECURITY_POLICY, path
        assert got.get("x-content-type-options") == "nosniff", path
    assert "script-src" not in CONTENT_SECURITY_POLICY and "default-src 'none'" in \
        CONTENT_SECURITY_POLICY   # no script of any origin


def headers(url: str) -> dict[str, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return {k.lower(): v for k, v in r.headers.items()}
    except urllib.error.HTTPError as err:
        return {k.lower(): v for k, v in err.headers.items()}

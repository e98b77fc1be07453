"""The floor dashboard over a real DuckDB file: tables, house win chart, stakes in prison,
markup from the log shown as text, and its routes (page, JSON, evidence frames)."""
import asyncio
import json
import urllib.error
import urllib.request
from datetime import UTC, datetime

from contracts.deadletter import DeadLetter
from contracts.envelope import Actor
from contracts.money import Money
from contracts.table import (
    BetSpec,
    CloseBets,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    RecordSpin,
    RecordSpinData,
    TableOpenedData,
)
from services.projections import store
from services.projections.dashboard import dashboard_routes, render
from services.projections.projector import apply_dead_letter, apply_events
from services.runtime.evidence import EvidenceStore
from services.runtime.http import HttpServer
from services.table.domain import TableSession
from tests.table.unit import handle

AT = datetime(2026, 11, 24, 5, 0, tzinfo=UTC)


def command(cls, **kw):
    return cls(target_id="RUL-07", issued_by="t", issued_at=AT,
               actor=Actor(employee_id="PM1" if cls is OpenTable else "D1",
                           role="pit_manager" if cls is OpenTable else "dealer"), **kw)


def even_chance(bet_id: str, amount: int) -> PlaceBet:
    return command(PlaceBet, payload=PlaceBetData(
        bet_id=bet_id, seat=2, player_id="P2",
        bet=BetSpec(kind="black", stake=Money(amount=amount, currency="BOB"),
                    zero_option="prison")))


def settled_round(db) -> None:
    """RUL-07 opens, two even-chance stakes, the ball lands on zero: both go «en prisión»."""
    table = TableSession("RUL-07")
    log = handle(table, command(OpenTable, payload=TableOpenedData(
        game="roulette", variant="european", seating="open", profile="BO", currency="BOB",
        min_bet=100, max_bet=50_000)))
    for c in (command(OpenRound), even_chance("j1", 2500), even_chance("j2", 1000),
              command(CloseBets), command(RecordSpin, payload=RecordSpinData(pocket="0"))):
        log += handle(table, c)
    with store.connect(db) as con:
        apply_events(con, log)


def test_page_shows_each_table_its_figures_and_stakes_in_prison(tmp_path):
    db = tmp_path / "floor.duckdb"
    settled_round(db)
    page = render(db).decode()
    assert "<td>RUL-07</td><td>1</td><td>35.00 BOB</td><td>0.00 BOB</td>" in page
    assert "<td>2 (35.00 BOB)</td>" in page and "en prisión" in page
    assert "house win per table" in page


def test_markup_in_a_dead_letter_is_shown_as_text(tmp_path):
    db = tmp_path / "floor.duckdb"
    letter = DeadLetter(service="<script>alert(1)</script>", source_topic="floor.table.commands",
                        partition=0, offset=7, code="invalid_payload",
                        reason="payload.bet: <b>bold</b> & wrong",
                        original_b64=DeadLetter.encode_original(b"{}"))
    with store.connect(db) as con:
        apply_dead_letter(con, letter)
    page = render(db).decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>" not in page and "<b>bold</b>" not in page
    assert "payload.bet: &lt;b&gt;bold&lt;/b&gt; &amp; wrong" in page
    assert "<h2>Dead letters (1)</h2>" in page


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers["Content-Type"], err.read()


def test_routes_serve_the_page_the_tables_and_evidence_frames(tmp_path):
    db = tmp_path / "floor.duckdb"
    settled_round(db)
    sha, _ = EvidenceStore(tmp_path / "evidence").put(b"\xff\xd8 a CCTV frame")

    async def main() -> dict[str, tuple[int, str, bytes]]:
        server = HttpServer(status=dict, routes=dashboard_routes(db, tmp_path / "evidence"))
        url = await server.start()
        try:
            paths = ["/", "/api/tables", f"/evidence/{sha}", "/evidence/" + "0" * 64,
                     "/evidence/not-a-digest"]
            return {p: await asyncio.to_thread(get, url + p) for p in paths}
        finally:
            await server.stop()

    got = asyncio.run(main())
    code, kind, page = got["/"]
    assert (code, kind) == (200, "text/html; charset=utf-8") and b"<td>RUL-07</td>" in page
    code, kind, tables = got["/api/tables"]
    assert (code, kind) == (200, "application/json")
    assert [t["table_id"] for t in json.loads(tables)] == ["RUL-07"]
    assert got[f"/evidence/{sha}"] == (200, "image/jpeg", b"\xff\xd8 a CCTV frame")
    assert got["/evidence/" + "0" * 64][0] == 404
    assert got["/evidence/not-a-digest"][0] == 404

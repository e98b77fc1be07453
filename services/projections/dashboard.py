"""The floor dashboard: every floor service's health, alerts (holds released late, services not
healthy), live per-table figures, a chart of house win, CCTV holds, recent refusals and dead
letters — served by the projector at / (HTML, refreshes itself), /api/tables (JSON),
/floor.css and /evidence/<sha256> (the CCTV frame of a check).

It reads only the DuckDB file and the evidence store, so it knows nothing of the service that
serves it. The page is a Jinja2 template (templates/) with autoescaping on: every value from
the file — a dead letter carries whatever a producer sent, markup included — is text, and a
link is only made of a URL that is http(s). The runtime's HTTP server adds the
Content-Security-Policy that forbids any script (services/runtime/http.py).
"""
from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from contracts.money import format_money
from services.projections import store
from services.projections.health import ServiceState, service_states
from services.projections.holds import (
    Hold,
    Release,
    check_counts,
    corrections_report,
    house_limit,
    limit_line,
    pit_reviews_report,
    releases_report,
    time_left,
)
from services.projections.report import StreamFork, TableFigures, fork_report, table_report
from services.runtime.evidence import EvidenceStore

TEMPLATES = Path(__file__).with_name("templates")
STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.neg{color:#b00}.muted{color:#777}
.alarm{border:3px solid #b00;padding:.5em 1em;margin-bottom:1.5em}
"""


def web_url(value: object) -> bool:
    """True for an http(s) URL, the only kind the page makes a link of (a `javascript:` one
    stays text)."""
    return isinstance(value, str) and value.lower().startswith(("http://", "https://"))


def _when(value: datetime | None) -> str:
    return "—" if value is None else value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def environment() -> Environment:
    """Autoescaping for every template, also one made from a string; an undefined name is an
    error, not an empty cell."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined,
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["money"] = lambda amount, currency: format_money(int(amount), currency)
    env.filters["when"] = _when
    env.filters["web_url"] = web_url
    return env


ENV = environment()


def chart(figures: list[TableFigures]) -> dict[str, Any] | None:
    """Horizontal bars of house win per table (SVG), green for a house win, red for a loss."""
    if not figures:
        return None
    biggest = max(abs(f.house_win) for f in figures) or 1
    bars = []
    for i, f in enumerate(figures):
        width = int(300 * abs(f.house_win) / biggest)
        bars.append({"table_id": f.table_id, "y": 10 + i * 28, "width": width,
                     "x": 400 if f.house_win >= 0 else 400 - width,
                     "colour": "#2a8f3c" if f.house_win >= 0 else "#c0392b",
                     "label": format_money(f.house_win, f.currency)})
    return {"height": 20 + 28 * len(figures), "bars": bars}


HOLDS = """
SELECT c.table_id, c.round_id, c.kind, c.dealer_result, c.read_result, c.reason, c.detail,
       c.confidence, c.declared_at, c.hold_deadline, c.evidence_sha256, c.check_id,
       h.held, h.currency, h.release, h.released_at, h.within_hold, h.not_held,
       epoch(c.hold_deadline) - epoch(c.declared_at)
FROM round_checks c LEFT JOIN payout_holds h ON h.check_id = c.check_id
WHERE c.status = 'verification' ORDER BY c.hold_deadline DESC LIMIT 12
"""


def hold_row(h: Hold, now: datetime) -> dict[str, Any]:
    """A round under verification as the page shows it; `alert` when it is (or was) late."""
    due = h.released_at is None and h.not_held is None and h.expired(now)
    return {"table_id": h.table_id, "round_id": h.round_id, "dealer_result": h.dealer_result,
            "camera_read": h.camera_read or "no decision", "reason": h.reason,
            "detail": h.detail, "confidence": h.confidence, "held": h.held,
            "currency": h.currency, "hold_text": time_left(h, now),
            "alert": h.late_seconds > 0 or due, "sha": h.evidence_sha256 or "",
            "check_id": h.check_id}


def snapshot(db_path: Path, now: datetime | None = None) -> dict[str, Any]:
    now = now or datetime.now(UTC)
    with store.connect(db_path) as con:
        figures = table_report(con)
        last = dict(con.execute(
            "SELECT table_id, arg_max(pocket, settled_at) FROM rounds WHERE settled_at IS NOT NULL "
            "GROUP BY table_id").fetchall())
        refusals = con.execute("SELECT strftime(rejected_at, '%Y-%m-%d %H:%M:%S'), "
                               "table_id, code, reason, rule FROM rejections "
                               "ORDER BY rejected_at DESC LIMIT 8").fetchall()
        letters = con.execute("SELECT strftime(failed_at, '%Y-%m-%d %H:%M:%S'), "
                              "service, code, reason FROM dead_letters "
                              "ORDER BY failed_at DESC LIMIT 8").fetchall()
        counted = con.execute("SELECT count(*) FROM dead_letters").fetchone()
        assert counted is not None  # count(*) always returns one row
        prison = {t: (n, amount) for t, n, amount in con.execute(
            "SELECT table_id, count(*), sum(stake) FROM bets WHERE outcome = 'prison' "
            "GROUP BY table_id").fetchall()}
        holds = [Hold(*row) for row in con.execute(HOLDS).fetchall()]
        late = releases_report(con, 12, late_only=True)
        limit = house_limit(con)
        checks = check_counts(con)
        corrections = corrections_report(con)[:12]
        reviews = pit_reviews_report(con)[:24]
        services = service_states(con, now)
        forks = fork_report(con)
    return {"forks": forks, "figures": figures, "last_pocket": last, "refusals": refusals,
            "dead_letters": letters, "dead_letter_count": counted[0],
            "holds": [hold_row(h, now) for h in holds], "late_releases": late,
            "limit_line": limit_line(limit), "prison": prison, "checks": checks,
            "corrections": corrections, "reviews": reviews, "services": services,
            "alerts": alerts(late, services) + fork_alerts(forks)}


def fork_alerts(forks: list[StreamFork]) -> list[str]:
    """A table whose event stream forked or whose hash chain broke: its figures are unreliable
    until a supervisor resolves it (the section itself: templates/_forks.html)."""
    tables = sorted({f.table_id for f in forks if f.resolved_at is None})
    return [f"StreamForked: figures of {t} are UNRELIABLE until resolved "
            f"(casino audit resolve-fork)" for t in tables]


def alerts(late: list[Release], services: list[ServiceState]) -> list[str]:
    """What needs someone now: holds paid after their deadline, services not healthy."""
    out = [f"hold of {r.table_id} round {r.round_id} released {r.late_seconds:g} s after its "
           f"deadline ({r.release})" for r in late]
    out += [f"{s.service} ({s.instance}) is {s.state}" for s in services if s.state != "ok"]
    return out


def render(db_path: Path, now: datetime | None = None) -> bytes:
    s = snapshot(db_path, now)
    return ENV.get_template("dashboard.html").render(chart=chart(s["figures"]), **s).encode()


def dashboard_routes(db_path: Path, evidence_dir: Path) -> list[Route]:
    """The dashboard's pages. Plain `def` endpoints: Starlette runs them in a worker thread,
    so a DuckDB query waiting for the projector's lock never blocks the consumers."""
    evidence = EvidenceStore(evidence_dir)

    def floor(_request: Request) -> HTMLResponse:
        return HTMLResponse(render(db_path))

    def style(_request: Request) -> Response:
        return Response(STYLE, media_type="text/css")

    def tables(_request: Request) -> Response:
        body = json.dumps([f.to_dict() for f in snapshot(db_path)["figures"]])
        return Response(body, media_type="application/json")

    def frame(request: Request) -> Response:
        path = evidence.path_of(request.path_params["sha256"])
        if path is None:
            raise HTTPException(404, "no such evidence frame")
        return Response(path.read_bytes(), media_type="image/jpeg")

    return [Route("/", floor), Route("/floor.css", style), Route("/api/tables", tables),
            Route("/evidence/{sha256}", frame)]

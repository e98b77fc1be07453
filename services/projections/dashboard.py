"""The floor dashboard: live per-table figures, a chart of house win, recent refusals and dead
letters — served by the projector at / (HTML, refreshes itself), /api/tables (JSON) and
/evidence/<sha256> (the CCTV frame of a check).

It reads only the DuckDB file and the evidence store, so it knows nothing of the service that
serves it. Every value from the file is escaped (`e`) before it goes into the page: a dead
letter carries whatever a producer sent, markup included.
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from contracts.money import format_money
from services.projections import store
from services.projections.holds import Correction, check_counts, corrections_report
from services.projections.report import StreamFork, TableFigures, fork_report, table_report
from services.runtime.evidence import EvidenceStore

STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.neg{color:#b00}.muted{color:#777}"""


def e(value: object) -> str:
    """A value from the file, made safe to put in the page (text or attribute)."""
    return html.escape(str(value))


def chart(figures: list[TableFigures]) -> str:
    """Horizontal bars of house win per table (SVG), green for a house win, red for a loss."""
    if not figures:
        return ""
    biggest = max(abs(f.house_win) for f in figures) or 1
    rows = []
    for i, f in enumerate(figures):
        width = int(300 * abs(f.house_win) / biggest)
        x = 400 if f.house_win >= 0 else 400 - width
        colour = "#2a8f3c" if f.house_win >= 0 else "#c0392b"
        y = 10 + i * 28
        rows.append(f'<text x="0" y="{y + 15}">{e(f.table_id)}</text>'
                    f'<rect x="{x}" y="{y}" width="{width}" height="20" fill="{colour}"/>'
                    f'<text x="720" y="{y + 15}" text-anchor="end">'
                    f'{e(format_money(f.house_win, f.currency))}</text>')
    height = 20 + 28 * len(figures)
    return (f'<svg width="720" height="{height}" role="img" aria-label="house win per table">'
            f'<line x1="400" y1="0" x2="400" y2="{height}" stroke="#999"/>{"".join(rows)}</svg>')


def snapshot(db_path: Path) -> dict[str, Any]:
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
        letter_count = counted[0]
        prison = {t: (n, amount) for t, n, amount in con.execute(
            "SELECT table_id, count(*), sum(stake) FROM bets WHERE outcome = 'prison' "
            "GROUP BY table_id").fetchall()}
        holds = con.execute(
            "SELECT c.table_id, c.round_id, c.dealer_result, "
            "coalesce(c.read_result, 'no decision'), c.reason, c.detail, c.confidence, "
            "c.evidence_sha256, epoch(c.hold_deadline) - epoch(now()), c.check_id, h.held, "
            "h.currency, h.release FROM round_checks c "
            "LEFT JOIN payout_holds h ON h.check_id = c.check_id "
            "WHERE c.status = 'verification' "
            "ORDER BY c.hold_deadline DESC LIMIT 12").fetchall()
        checks = check_counts(con)
        corrections = corrections_report(con)[:12]
        forks = fork_report(con)
    return {"forks": forks,"figures": figures, "last_pocket": last, "refusals": refusals,
            "dead_letters": letters, "dead_letter_count": letter_count, "holds": holds,
            "prison": prison,
            "checks": checks, "corrections": corrections}


def in_prison(found: tuple[int, int] | None, currency: str) -> str:
    """Even-chance stakes held «en prisión» for the next spin (seed 000 §4.1.4.2 item 11)."""
    if not found:
        return "—"
    count, amount = found
    return f"{count} ({e(format_money(int(amount), currency))})"


def hold_left(seconds: float, release: str | None = None) -> str:
    """Time left on a payout hold (seed 002 §1.3: never more than 30 minutes)."""
    if release == "EXPIRED":
        return "30 min passed — released"
    if seconds <= 0:
        return "<b class='neg'>30 min passed — pay now</b>"
    return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"


def held_money(held: int | None, currency: str | None) -> str:
    """The winning payouts the table service holds for the round ('—' before it has)."""
    return "—" if held is None else e(format_money(int(held), currency or ""))


def holds_html(s: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><td>{e(t or '')}</td><td>{e(r or '')}</td><td>{e(d or '')}</td>"
        f"<td>{e(read)}</td><td>{e(reason)}</td><td>{e(detail or '')}</td>"
        f"<td>{conf:.2f}</td><td>{held_money(held, cur)}</td><td>{hold_left(left, release)}</td>"
        f"<td><a href='/evidence/{e(sha)}'><img src='/evidence/{e(sha)}' width='160' "
        f"alt='CCTV frame {e(sha[:12])}'></a><br><code>{e(sha[:12])}…</code></td>"
        f"<td><code>{e(check)}</code></td></tr>"
        for t, r, d, read, reason, detail, conf, sha, left, check, held, cur, release
        in s["holds"])
    c = s["checks"]
    return (f"<h2>CCTV checks</h2><p>{e(c.get('confirmed', 0))} confirmed by camera · "
            f"{e(c.get('verification', 0))} sent to surveillance · "
            f"{e(c.get('pending', 0))} waiting for frame or result · resolved by surveillance: "
            f"{e(c.get('upheld', 0))} upheld, {e(c.get('corrected', 0))} corrected. Winning "
            f"payouts of a round under verification may be held for at most 30 minutes "
            f"(seed 002 §1.3; seed 004 RG §6).</p>"
            f"<table><tr><th>table</th><th>round</th><th>dealer entered</th><th>camera read</th>"
            f"<th>why</th><th>detail</th><th>confidence</th><th>payouts held</th>"
            f"<th>hold left</th><th>evidence</th>"
            f"<th>check id (casino surveillance resolve)</th></tr>"
            f"{rows}</table>{corrections_html(s['corrections'])}")


def corrections_html(corrections: list[Correction]) -> str:
    """Rounds surveillance corrected: they were settled on a wrong result (for finance)."""
    if not corrections:
        return ""
    rows = "".join(
        f"<tr><td>{e(c.table_id)}</td><td>{e(c.round_id)}</td>"
        f"<td>{e(c.dealer_result)}</td><td><b>{e(c.cctv_result)}</b></td>"
        f"<td>{e(c.resolved_by)}</td>"
        f"<td>{c.resolved_at:%Y-%m-%d %H:%M:%S}</td>"
        f"<td>{'within 30 min' if c.within_hold else '<b class=neg>after 30 min</b>'}</td>"
        f"<td>{e(c.bets_changed)}</td><td>{e(c.money())}</td>"
        f"<td>{e(c.note)}</td></tr>" for c in corrections)
    return ("<h3>Corrected by surveillance</h3><p>These rounds were settled on the dealer's "
            "result; the table service re-settled them on the result CCTV shows. Finance: "
            "<code>casino report holds</code> lists them too.</p>"
            "<table><tr><th>table</th><th>round</th><th>dealer entered</th>"
            "<th>CCTV shows</th><th>by</th><th>when</th><th>hold</th><th>bets changed</th>"
            "<th>payouts</th><th>note</th></tr>"
            f"{rows}</table>")


def forks_html(forks: list[StreamFork], shown: int = 20) -> str:
    """The StreamForked alarms: a clearly marked section while any is unresolved (the tables'
    figures above are then unreliable), a one-line all-clear otherwise."""
    unresolved = [f for f in forks if f.resolved_at is None]
    if not unresolved:
        resolved = f" ({len(forks)} resolved)" if forks else ""
        return f"<p class='muted'>Event streams: no fork, no broken chain{resolved}.</p>"
    tables = sorted({f.table_id for f in unresolved})
    rows = "".join(
        f"<tr><td>{e(f.table_id)}</td><td><code>{e(f.aggregate_id)}</code></td>"
        f"<td>{e(f.sequence)}</td><td>{e(f.kind)}</td><td>{e(f.event_type)}</td>"
        f"<td><code>{e((f.kept_hash or '—')[:16])}</code></td>"
        f"<td><code>{e(f.refused_hash[:16])}</code></td><td>{e(f.reason)}</td></tr>"
        for f in unresolved[:shown])
    return (f"<section id='stream-forks' style='border:3px solid #b00;padding:.5em 1em'>"
            f"<h2 class='neg'>⚠ StreamForked: figures UNRELIABLE for {e(', '.join(tables))}</h2>"
            f"<p>{e(len(unresolved))} event(s) refused: the stream forked (a different event at "
            f"a sequence already applied) or its hash chain broke. Until a supervisor resolves "
            f"it (<code>casino audit resolve-fork --table ID --note …</code>) these tables' "
            f"figures may be wrong. <code>casino report forks</code> lists every alarm.</p>"
            f"<table><tr><th>table</th><th>aggregate</th><th>sequence</th><th>kind</th>"
            f"<th>event</th><th>kept hash</th><th>refused hash</th><th>why</th></tr>"
            f"{rows}</table></section>")


def render(db_path: Path) -> bytes:
    s = snapshot(db_path)
    rows = "".join(
        f"<tr><td>{e(f.table_id)}</td><td>{e(f.rounds)}</td>"
        f"<td>{e(format_money(f.wagered, f.currency))}</td>"
        f"<td>{e(format_money(f.paid, f.currency))}</td>"
        f"<td class='{'neg' if f.house_win < 0 else ''}'>"
        f"{e(format_money(f.house_win, f.currency))}</td>"
        f"<td>{e(f.hold_pct if f.hold_pct is not None else '—')} %</td>"
        f"<td>{e(s['last_pocket'].get(f.table_id, '—'))}</td>"
        f"<td>{in_prison(s['prison'].get(f.table_id), f.currency)}</td></tr>"
        for f in s["figures"])
    refusals = "".join(f"<tr><td>{e(t)}</td><td>{e(tb)}</td><td>{e(c)}</td>"
                       f"<td>{e(r)}</td><td>{e(rule or '')}</td></tr>"
                       for t, tb, c, r, rule in s["refusals"])
    letters = "".join(f"<tr><td>{e(t)}</td><td>{e(sv)}</td><td>{e(c)}</td>"
                      f"<td>{e(r)}</td></tr>" for t, sv, c, r in s["dead_letters"])
    page = f"""<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="refresh" content="3">
<title>Casino floor — live</title><style>{STYLE}</style></head><body>
<h1>Casino floor — live</h1>
<p class="muted">Refreshes every 3 s. Amounts in each table's currency.</p>
<h2>Tables</h2><table><tr><th>table</th><th>rounds</th><th>wagered</th><th>paid</th>
<th>house win</th><th>hold</th><th>last result</th><th>en prisión</th></tr>{rows}</table>
{forks_html(s["forks"])}
<h2>House win per table</h2>{chart(s["figures"])}
{holds_html(s)}
<h2>Recent refusals</h2><table><tr><th>when</th><th>table</th><th>code</th><th>reason</th>
<th>rule</th></tr>{refusals}</table>
<h2>Dead letters ({e(s["dead_letter_count"])})</h2><table><tr><th>when</th><th>service</th>
<th>code</th><th>reason</th></tr>{letters}</table>
</body></html>"""
    return page.encode()


def dashboard_routes(db_path: Path, evidence_dir: Path) -> list[Route]:
    """The dashboard's pages. Plain `def` endpoints: Starlette runs them in a worker thread,
    so a DuckDB query waiting for the projector's lock never blocks the consumers."""
    evidence = EvidenceStore(evidence_dir)

    def floor(_request: Request) -> HTMLResponse:
        return HTMLResponse(render(db_path))

    def tables(_request: Request) -> Response:
        body = json.dumps([f.to_dict() for f in snapshot(db_path)["figures"]])
        return Response(body, media_type="application/json")

    def frame(request: Request) -> Response:
        path = evidence.path_of(request.path_params["sha256"])
        if path is None:
            raise HTTPException(404, "no such evidence frame")
        return Response(path.read_bytes(), media_type="image/jpeg")

    return [Route("/", floor), Route("/api/tables", tables),
            Route("/evidence/{sha256}", frame)]

"""`casino report tables` (per-table rounds, wagered, paid, house win and hold % for a range,
and whether the figures are reliable), `casino report holds` (rounds under CCTV verification,
their payout holds under the house's limit, and the holds released with any lateness) and
`casino report forks` (StreamForked alarms)."""
from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import click

from services.projections import store
from services.projections.holds import (
    check_counts,
    corrections_report,
    holds_report,
    house_limit,
    pit_reviews_report,
    releases_report,
    render_holds,
    render_releases,
)
from services.projections.report import fork_report, render_forks, render_text, table_report
from services.runtime.settings import Settings


def default_db() -> Path:
    return Settings.from_env().var_dir / "projections" / "floor.duckdb"


def _when(_ctx: click.Context, _param: click.Parameter, value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO date/time such as "
                                 "2026-11-21T20:00+00:00") from None
    if parsed.tzinfo is None:
        raise click.BadParameter(f"{value!r} has no time zone; add one, e.g. +00:00 or -04:00")
    return parsed


def _database(db_path: Path | None):
    path = db_path or default_db()
    if not path.exists():
        raise click.ClickException(f"no projection database at {path}; is the projector running?")
    return store.connect(path, read_only=True)


DB_OPTION = click.option("--db", "db_path", type=click.Path(path_type=Path), default=None,
                         help="Projection database (default: var/projections/floor.duckdb).")


@click.group()
def report() -> None:
    """Reports from the projection database."""


@report.command()
@DB_OPTION
@click.option("--from", "start", callback=_when, help="Start (inclusive), ISO with time zone.")
@click.option("--to", "end", callback=_when, help="End (exclusive), ISO with time zone.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per table.")
def tables(db_path: Path | None, start: datetime | None, end: datetime | None,
           as_json: bool) -> None:
    """Per table: rounds, amount wagered, amount paid, house win and hold %; `reliable` is
    false while the table's event stream has an unresolved StreamForked alarm."""
    with _database(db_path) as con:
        figures = table_report(con, start, end)
    if as_json:
        for f in figures:
            click.echo(json.dumps(f.to_dict()))
    else:
        click.echo(render_text(figures, start, end))


@report.command()
@DB_OPTION
@click.option("--expired", is_flag=True, help="Only holds past their deadline (pay now).")
@click.option("--released", is_flag=True,
              help="The latest released holds instead, with release time and lateness.")
@click.option("--late", is_flag=True, help="With --released: only those released late.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per hold (with hold_limit_seconds, released_at, "
                   "within_hold and late_seconds).")
def holds(db_path: Path | None, expired: bool, released: bool, late: bool,
          as_json: bool) -> None:
    """Rounds under CCTV verification: dealer's result, camera's reading, why, time left on
    the payout hold (the house's limit, 30 minutes at most) or when it was released and how
    late, and the evidence frame's hash; then the latest released holds and the rounds
    surveillance corrected (their payouts were wrong), and the bets a corrected craps roll
    left to the pit manager."""
    now = datetime.now(UTC)
    with _database(db_path) as con:
        found, counts = holds_report(con), check_counts(con)
        corrections, limit = corrections_report(con), house_limit(con)
        releases = releases_report(con, late_only=late)
        reviews = pit_reviews_report(con)
    if expired:
        found = [h for h in found if h.expired(now)]
    if as_json:
        rows = [r.to_dict() for r in releases] if released else [h.to_dict(now) for h in found]
        for row in rows:
            click.echo(json.dumps({**row, "house_limit_seconds": limit}))
    elif released:
        click.echo("\n".join(render_releases(releases)).strip() or "(no hold released yet)")
    else:
        click.echo(render_holds(found, counts, now, [] if expired else corrections,
                                limit_seconds=limit, releases=[] if expired else releases,
                                reviews=[] if expired else reviews))


@report.command()
@DB_OPTION
@click.option("--table", "table_id", default=None, help="Only this table's alarms.")
@click.option("--open", "open_only", is_flag=True, help="Only the unresolved alarms.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per alarm.")
def forks(db_path: Path | None, table_id: str | None, open_only: bool, as_json: bool) -> None:
    """StreamForked alarms: events the projector refused because a table's stream forked (a
    different event at a sequence already applied) or its hash chain broke, with both hashes.
    Exit status 1 while any listed alarm is unresolved."""
    with _database(db_path) as con:
        found = fork_report(con, table_id, open_only)
    if as_json:
        for f in found:
            click.echo(json.dumps(f.to_dict()))
    else:
        click.echo(render_forks(found))
    if any(f.resolved_at is None for f in found):
        raise SystemExit(1)

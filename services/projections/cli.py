"""`casino report tables`: per-table rounds, wagered, paid, house win and hold % for a range."""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click

from services.projections import store
from services.projections.report import render_text, table_report
from services.runtime.settings import Settings


def default_db() -> Path:
    return Settings.from_env().var_dir / "projections" / "floor.duckdb"


def _when(_ctx: click.Context, _param: click.Parameter, value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO date/time such as 2026-11-21T20:00+00:00")
    if parsed.tzinfo is None:
        raise click.BadParameter(f"{value!r} has no time zone; add one, e.g. +00:00 or -04:00")
    return parsed


@click.group()
def report() -> None:
    """Reports from the projection database."""


@report.command()
@click.option("--db", "db_path", type=click.Path(path_type=Path), default=None,
              help="Projection database (default: var/projections/floor.duckdb).")
@click.option("--from", "start", callback=_when, help="Start (inclusive), ISO with time zone.")
@click.option("--to", "end", callback=_when, help="End (exclusive), ISO with time zone.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per table.")
def tables(db_path: Path | None, start: datetime | None, end: datetime | None,
           as_json: bool) -> None:
    """Per table: rounds, amount wagered, amount paid, house win and hold %."""
    path = db_path or default_db()
    if not path.exists():
        raise click.ClickException(f"no projection database at {path}; is the projector running?")
    with store.connect(path, read_only=True) as con:
        figures = table_report(con, start, end)
    if as_json:
        for f in figures:
            click.echo(json.dumps(f.to_dict()))
    else:
        click.echo(render_text(figures, start, end))

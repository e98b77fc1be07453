"""`casino contracts export`: JSON Schema of every event and the AsyncAPI document
(services/catalogue.py)."""
from __future__ import annotations

from pathlib import Path

import click


@click.group()
def contracts() -> None:
    """Export JSON Schema and AsyncAPI of the events."""


@contracts.command()
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Target folder (default: docs/contracts/).")
@click.option("--check", is_flag=True, help="Only check the folder is up to date; exit 1 if not.")
def export(out: Path | None, check: bool) -> None:
    """Write docs/contracts/: schemas/*.schema.json, asyncapi.json, README.md."""
    from services import catalogue as exp

    target = out or exp.DOCS
    if check:
        problems = exp.stale(target)
        if problems:
            raise click.ClickException("stale contract export (run `casino contracts export`): "
                                       + ", ".join(problems))
        click.echo(f"{target} is up to date")
        return
    for path in exp.export(target):
        click.echo(f"wrote {path}")

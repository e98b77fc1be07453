"""`casino service NAME`: run one floor service in the foreground (as `make run` does)."""
from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import click

from services.runtime.logs import setup_logging
from services.runtime.settings import Settings


def _common(fn):  # the options every service takes
    fn = click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", required=True,
                      help="Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS).")(fn)
    fn = click.option("--status-port", type=int, default=0, show_default=True,
                      help="Port of the /health and /status endpoint (0 = any free port).")(fn)
    fn = click.option("--log-file", type=click.Path(path_type=Path), default=None,
                      help="Write JSON logs here instead of stderr.")(fn)
    return fn


def _announce(name: str):
    return lambda url: click.echo(f"{name} ready — status at {url}/status", err=True)


@click.group()
def service() -> None:
    """Run one floor service in the foreground (Ctrl-C stops it cleanly)."""


@service.command()
@_common
def table(bootstrap: str, status_port: int, log_file: Path | None) -> None:
    """Table sessions: commands in, table events out."""
    from services.table.bootstrap import main
    setup_logging("table-service", log_file)
    asyncio.run(main(Settings.from_env(bootstrap), status_port=status_port,
                     on_ready=_announce("table-service")))


@service.command()
@_common
@click.option("--db", "db_path", type=click.Path(path_type=Path), default=None,
              help="Projection database (default: var/projections/floor.duckdb).")
def projector(bootstrap: str, status_port: int, log_file: Path | None,
              db_path: Path | None) -> None:
    """Projects table events into DuckDB and serves the floor dashboard at /."""
    from services.projections.app import main
    from services.projections.cli import default_db
    setup_logging("projector", log_file)
    asyncio.run(main(Settings.from_env(bootstrap), db_path or default_db(),
                     status_port=status_port, on_ready=_announce("projector")))


@service.command()
@_common
@click.option("--evidence-dir", type=click.Path(path_type=Path), default=None,
              help="Where evidence images are kept (default: var/evidence).")
@click.option("--min-confidence", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Readings below this go to surveillance even when they agree.")
@click.option("--calibrations", type=click.Path(path_type=Path), default=None,
              help="Folder of per-camera calibrations <camera_id>.json "
                   "(default: var/calibrations).")
@click.option("--hold-minutes", type=click.FloatRange(0, 30, min_open=True), default=30,
              show_default=True, help="The house's payout hold while surveillance checks a "
              "result; the seeds allow at most 30 minutes (seed 002 §1.3; seed 004 RG §6).")
def vision(bootstrap: str, status_port: int, log_file: Path | None,
           evidence_dir: Path | None, min_confidence: float, calibrations: Path | None,
           hold_minutes: float) -> None:
    """Reads camera frames, checks each dealer result against them, requests verifications."""
    from services.vision.service.bootstrap import main
    setup_logging("vision-service", log_file)
    settings = Settings.from_env(bootstrap)
    asyncio.run(main(settings, evidence_dir or settings.var_dir / "evidence",
                     status_port=status_port, min_confidence=min_confidence,
                     calibrations=calibrations, on_ready=_announce("vision-service"),
                     hold_limit=timedelta(minutes=hold_minutes)))


@service.command()
@_common
def wheel(bootstrap: str, status_port: int, log_file: Path | None) -> None:
    """Roulette wheels: sessions, seals, spins judged valid or void; valid spins to the table."""
    from services.wheel.bootstrap import main
    setup_logging("wheel-service", log_file)
    asyncio.run(main(Settings.from_env(bootstrap), status_port=status_port,
                     on_ready=_announce("wheel-service")))


@service.command()
@_common
def dice(bootstrap: str, status_port: int, log_file: Path | None) -> None:
    """Dice sets: issue, choice, incidents, changes, rolls judged; valid rolls to the table."""
    from services.dice.bootstrap import main
    setup_logging("dice-service", log_file)
    asyncio.run(main(Settings.from_env(bootstrap), status_port=status_port,
                     on_ready=_announce("dice-service")))

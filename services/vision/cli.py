"""`casino vision ...`: read, calibrate, synth, eval."""
from __future__ import annotations

import click


@click.group()
def vision() -> None:
    """Read dice and roulette results from CCTV frames."""

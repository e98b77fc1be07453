"""`casino contracts export`: JSON Schema of every event and the AsyncAPI document."""
from __future__ import annotations

import click


@click.group()
def contracts() -> None:
    """Export JSON Schema and AsyncAPI of the events."""

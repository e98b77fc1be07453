"""`casino rules ...`: settle, edges, explain — the engine on the command line for audits."""
from __future__ import annotations

import click


@click.group()
def rules() -> None:
    """Settle rounds independently, list house edges, explain a decision."""

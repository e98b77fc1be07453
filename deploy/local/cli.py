"""`casino broker start|stop|status`: the embedded Kafka-protocol broker (Tansu)."""
from __future__ import annotations

import click


@click.group()
def broker() -> None:
    """Start, stop and check the embedded Kafka broker."""

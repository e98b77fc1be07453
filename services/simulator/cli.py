"""`casino simulate`: play rounds at N roulette tables with random players."""
from __future__ import annotations

import asyncio
import signal

import click

from services.runtime.settings import Settings


@click.command()
@click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", required=True,
              help="Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS).")
@click.option("--tables", type=click.IntRange(1, 99), default=3, show_default=True)
@click.option("--rounds", type=click.IntRange(0), default=0, show_default=True,
              help="Rounds per table; 0 = play until stopped.")
@click.option("--rate", type=click.FloatRange(0), default=0.5, show_default=True,
              help="Rounds per second per table; 0 = as fast as possible.")
@click.option("--seed", type=int, default=None, help="Random seed, for a repeatable floor.")
@click.option("--profile", type=click.Choice(["BO", "CL-ARICA", "AR-RUL", "LIVE-GG"]),
              default="BO", show_default=True)
@click.option("--currency", default="BOB", show_default=True)
def simulate(bootstrap: str, tables: int, rounds: int, rate: float, seed: int | None,
             profile: str, currency: str) -> None:
    """Play rounds continuously at N roulette tables (bets, «no más apuestas», results)."""
    from services.simulator.app import simulate as run

    def progress(sent: int, total: int) -> None:
        click.echo(f"[simulate] {sent} rounds sent" + (f" of {total}" if total else ""), err=True)

    async def main() -> int:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
        return await run(Settings.from_env(bootstrap), tables=tables, rounds=rounds, rate=rate,
                         seed=seed, profile=profile, currency=currency, progress=progress,
                         stop=stop)

    sent = asyncio.run(main())
    click.echo(f"[simulate] done: {sent} rounds sent", err=True)

"""`casino simulate`: play rounds at N roulette tables with random players."""
from __future__ import annotations

import asyncio
import signal

import click

from contracts.table import Profile
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
@click.option("--cameras/--no-cameras", default=False, show_default=True,
              help="Also render a CCTV frame of the wheel for every spin (for the vision service).")
@click.option("--dealer-error-rate", type=click.FloatRange(0, 1), default=0.02, show_default=True,
              help="With --cameras: how often the dealer enters a pocket the wheel does not show.")
def simulate(bootstrap: str, tables: int, rounds: int, rate: float, seed: int | None,
             profile: Profile, currency: str, cameras: bool, dealer_error_rate: float) -> None:
    """Play rounds continuously at N roulette tables (bets, «no más apuestas», results)."""
    from services.simulator.app import simulate as run
    from services.simulator.cameras import WheelCameras

    def progress(sent: int, total: int) -> None:
        click.echo(f"[simulate] {sent} rounds sent" + (f" of {total}" if total else ""), err=True)

    async def main() -> int:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
        settings = Settings.from_env(bootstrap)
        gateway = (WheelCameras(settings.var_dir / "frames", dealer_error_rate=dealer_error_rate)
                   if cameras else None)
        return await run(settings, tables=tables, rounds=rounds, rate=rate, seed=seed,
                         profile=profile, currency=currency, progress=progress, stop=stop,
                         cameras=gateway)

    sent = asyncio.run(main())
    click.echo(f"[simulate] done: {sent} rounds sent", err=True)

"""`casino simulate`: play rounds of a game at N tables with random players."""
from __future__ import annotations

import asyncio
import signal
from typing import get_args

import click

from contracts.table import Game, Profile, TableWheel
from services.runtime.settings import Settings


@click.command()
@click.option("--bootstrap", envvar="KAFKA_BOOTSTRAP_SERVERS", required=True,
              help="Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS).")
@click.option("--game", type=click.Choice(get_args(Game)), default="roulette", show_default=True,
              help="The game played; the table service plays roulette, craps and mini_craps "
                   "live (the others are refused with the reason).")
@click.option("--variant", type=click.Choice(get_args(TableWheel)), default="european",
              show_default=True, help="Roulette: the wheel (american has 00; american_single "
                                      "is CL-ARICA's one-zero american wheel).")
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
              help="Also render a CCTV frame of the wheel for every spin, of the dice for "
                   "every roll (for the vision service).")
@click.option("--wheels/--no-wheels", default=False, show_default=True,
              help="Roulette: send each result to the wheel service as a spin (directions, "
                   "revolutions), with some irregular spins (same direction twice, too few "
                   "revolutions) that it voids; needs --rate > 0.")
@click.option("--dealer-error-rate", type=click.FloatRange(0, 1), default=0.02, show_default=True,
              help="With --cameras: how often the dealer enters a result the frame does not "
                   "show.")
def simulate(bootstrap: str, game: Game, variant: TableWheel, tables: int, rounds: int,
             rate: float, seed: int | None, profile: Profile, currency: str, cameras: bool,
             dealer_error_rate: float, wheels: bool) -> None:
    """Play R rounds (or until stopped) of a game at N tables: seats, bets, «no más
    apuestas», results; exits non-zero when the game cannot be played live."""
    from services.rules.core import RulesError, get_profile
    from services.rules.craps.paytable import PAY_SECTION
    from services.rules.roulette.paytable import check_wheel
    from services.simulator.app import LIVE_GAMES
    from services.simulator.app import simulate as run
    from services.simulator.cameras import Cameras

    if wheels and rate <= 0:
        raise click.UsageError("--wheels: needs --rate > 0 (each result goes through the wheel "
                               "service before the next round)")
    if game not in LIVE_GAMES:
        raise click.UsageError(f"--game {game}: the table service has no live adapter for it "
                               f"yet (live: {', '.join(LIVE_GAMES)}); the rules engine settles "
                               f"it offline with `casino rules settle`")
    if game in ("craps", "mini_craps"):
        if profile not in PAY_SECTION:
            raise click.UsageError(f"--profile {profile}: {game} is played by the profiles "
                                   f"{', '.join(PAY_SECTION)}")
    else:
        try:
            check_wheel(get_profile(profile), variant)
        except RulesError as err:
            raise click.UsageError(f"--variant {variant}: {err.reason}") from None
    if cameras and game == "roulette" and variant != "european":
        raise click.UsageError("--cameras: the simulated wheel cameras render a european wheel")

    def progress(sent: int, total: int) -> None:
        click.echo(f"[simulate] {sent} rounds sent" + (f" of {total}" if total else ""), err=True)

    async def main() -> int:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
        settings = Settings.from_env(bootstrap)
        gateway = (Cameras(settings.var_dir / "frames", dealer_error_rate=dealer_error_rate)
                   if cameras else None)
        return await run(settings, tables=tables, rounds=rounds, rate=rate, seed=seed,
                         profile=profile, currency=currency, game=game, variant=variant,
                         progress=progress, stop=stop, cameras=gateway, wheels=wheels)

    sent = asyncio.run(main())
    click.echo(f"[simulate] done: {sent} rounds sent", err=True)

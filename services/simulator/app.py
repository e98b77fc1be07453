"""Publishing the simulated floor: N tables, rounds at a chosen rate, with progress."""
from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass

from contracts.envelope import Command, Event, new_id
from contracts.table import Game, Profile, TableWheel
from contracts.topics import (
    DICE_COMMANDS_TOPIC,
    IDENTITY_KEYS_TOPIC,
    TABLE_COMMANDS_TOPIC,
    VISION_FRAMES_TOPIC,
)
from services.runtime.bus import Bus
from services.runtime.settings import Settings
from services.simulator import craps
from services.simulator.cameras import Cameras
from services.simulator.dice import DiceStick, dice_for, setup_dice, through_dice
from services.simulator.floor import (
    PIT_MANAGER,
    SimTable,
    finish_round,
    make_tables,
    open_table,
    round_commands,
    seat_players,
)
from services.simulator.terminals import Terminals, terminals
from services.simulator.views import camera_versions, known_tables
from services.simulator.watch import SettledRounds
from services.simulator.wheels import (
    WHEEL_TOPIC,
    WheelDealer,
    setup_wheel,
    through_wheel,
    wheel_for,
)

log = logging.getLogger(__name__)
LIVE_GAMES = ("roulette", "craps", "mini_craps")  # the games with a live table adapter
FULL_SPEED_GROUP = 25  # rounds per publish call when rate = 0


def simulator_bus(settings: Settings) -> Bus:
    bus = Bus(settings, "floor-simulator")
    bus.declare_publisher(TABLE_COMMANDS_TOPIC,
                          "Simulated dealer terminals: rounds, bets, results.")
    bus.declare_publisher(VISION_FRAMES_TOPIC,
                          "Simulated wheel and dice cameras: one frame per spin or roll.")
    bus.declare_publisher(WHEEL_TOPIC, "With --wheels: the wheels' set-up and every launch, "
                                       "some irregular (void).")
    bus.declare_publisher(DICE_COMMANDS_TOPIC, "With --dice: the dice sets' set-up and every "
                                               "throw, some void.")
    bus.declare_publisher(IDENTITY_KEYS_TOPIC, "Registers its terminals' keys on its first run, "
                                               "signed by the root key (demo floors only).")
    return bus


async def _mount_wheels(bus: Bus, floor: list[SimTable], profile: Profile,
                        variant: TableWheel, signing: Terminals) -> dict[str, WheelDealer]:
    """A wheel at each roulette table, set up at the wheel service (services/simulator/
    wheels.py): the tables' results then go through it."""
    dealers = {t.table_id: wheel_for(t.table_id, t.dealer, profile) for t in floor
               if t.config.game == "roulette"}
    for dealer in dealers.values():
        await bus.publish(signing.sign(setup_wheel(dealer, variant)))
    return dealers


async def _issue_dice(bus: Bus, floor: list[SimTable],
                      signing: Terminals) -> dict[str, DiceStick]:
    """A dice set at each craps table, issued at the dice service (services/simulator/
    dice.py): the tables' rolls then go through it."""
    sticks = {t.table_id: dice_for(t.table_id, t.dealer) for t in floor if t.craps is not None}
    for stick in sticks.values():
        await bus.publish(signing.sign(setup_dice(stick)))
    return sticks


async def simulate(settings: Settings, *, tables: int, rounds: int, rate: float, seed: int | None,
                   profile: Profile = "BO", currency: str = "BOB", game: Game = "roulette",
                   variant: TableWheel = "european",
                   progress: Callable[[int, int], None] | None = None,
                   stop: asyncio.Event | None = None, cameras: Cameras | None = None,
                   wheels: bool = False, dice: bool = False) -> int:
    """Play `rounds` rounds per table (0 = until stopped) at `rate` rounds per second per table
    (0 = as fast as possible). Returns the number of rounds sent. With `wheels`, roulette
    results go through the wheel service (services/simulator/wheels.py), with `dice` craps
    rolls through the dice service (services/simulator/dice.py); each table's dealer then waits
    for the table to settle a round before opening the next (services/simulator/watch.py)."""
    if game not in LIVE_GAMES:
        raise ValueError(f"game: the floor simulator plays {', '.join(LIVE_GAMES)}; {game} has "
                         f"no live table adapter yet (the rules engine settles it offline: "
                         f"casino rules settle)")
    rng = random.Random(seed)
    floor = make_tables(tables, profile, currency, variant, game=game)
    signing = await terminals(settings, [PIT_MANAGER, *(t.dealer for t in floor)])
    bus = simulator_bus(settings)
    await bus.broker.connect()
    try:
        async with AsyncExitStack() as stack:
            # With devices, each dealer waits for the table to settle the last round first.
            watch = (await stack.enter_async_context(SettledRounds(settings.bootstrap))
                     if wheels or dice else None)
            pending = await _open_or_resume(bus, settings, floor, rng, signing)
            devices = Devices(await _mount_wheels(bus, floor, profile, variant, signing)
                              if wheels else {},
                              await _issue_dice(bus, floor, signing) if dice else {})
            if cameras is not None:
                cameras.versions = await camera_versions(settings.bootstrap)
            return await _play(bus, floor, rng, rounds, rate, devices, watch, pending, signing,
                               progress=progress, stop=stop, cameras=cameras)
    finally:
        await bus.stop()


@dataclass
class Devices:
    """The wheel at each roulette table and the dice set at each craps table, when the results
    go through the device services."""

    wheels: dict[str, WheelDealer]
    dice: dict[str, DiceStick]

    def through(self, table_id: str, messages: list[Event | Command],
                rng: random.Random) -> list[Event | Command]:
        played = through_wheel(messages, self.wheels.get(table_id), rng)
        return through_dice(played, self.dice.get(table_id), rng)


async def _play(bus: Bus, floor: list[SimTable], rng: random.Random, rounds: int, rate: float,
                devices: Devices, watch: SettledRounds | None, pending: Counter[str],
                signing: Terminals, *,
                progress: Callable[[int, int], None] | None, stop: asyncio.Event | None,
                cameras: Cameras | None) -> int:
    """Send the rounds; returns how many. `pending`: rounds per table sent and not yet seen
    settled (a round an earlier run left open and this one finished)."""
    sent = 0
    started = time.monotonic()
    # At full speed, rounds go out in groups so the broker's acknowledgements overlap
    # (order within a table is kept: one call publishes in order, keyed by table); not when
    # each round waits for the one before it.
    group = 1 if rate > 0 or watch is not None else FULL_SPEED_GROUP
    while (rounds == 0 or sent < rounds * len(floor)) and not (stop and stop.is_set()):
        todo = group if rounds == 0 else min(group, rounds * len(floor) - sent)
        messages: list[Event | Command] = []
        for i in range(sent, sent + todo):
            table = floor[i % len(floor)]
            if watch is not None:
                await watch.wait(table.table_id, pending[table.table_id])
            messages += devices.through(table.table_id, _one_round(table, rng, cameras), rng)
            pending[table.table_id] += 1
        await bus.publish(signing.sign(messages))
        before, sent = sent, sent + todo
        if progress and sent // len(floor) > before // len(floor):
            progress(sent, rounds * len(floor))
        if rate > 0:
            due = started + sent / (rate * len(floor))
            await asyncio.sleep(max(0.0, due - time.monotonic()))
    return sent


def _one_round(table: SimTable, rng: random.Random,
               cameras: Cameras | None) -> list[Event | Command]:
    """A round's commands; with cameras, the frame of its result too (the frame decides what
    happened, the dealer's entry may differ)."""
    if cameras is None:
        return [*round_commands(table, rng)]
    corr = new_id()
    if table.craps is not None:
        roll = cameras.shoot_dice(table.table_id, corr, rng)
        called = cameras.dealer_dice(roll.true_dice, rng)
        return [*round_commands(table, rng, correlation_id=corr, dice=called), roll.frame]
    shot = cameras.shoot(table.table_id, corr, rng)
    entered = cameras.dealer_entry(shot.true_pocket, rng)
    return [*round_commands(table, rng, pocket=entered, correlation_id=corr), shot.frame]


async def _open_or_resume(bus: Bus, settings: Settings, floor: list[SimTable],
                          rng: random.Random, signing: Terminals) -> Counter[str]:
    """Open the tables, or carry on from where an earlier run left them; the rounds this
    finished, per table (their results are still to be settled)."""
    state = await known_tables(settings.bootstrap)
    finished: Counter[str] = Counter()
    for table in floor:
        known = state.get(table.table_id)
        if known is None or known.config is None:
            await bus.publish(signing.sign([open_table(table), *seat_players(table)]))
            continue
        if table.craps is not None:  # carry on from the table's point, shooter and round
            table.config = known.config
            table.craps = craps.new_mirror(known.config, known.point, known.shooter,
                                           known.round_number)
        if known.round_state is not None:
            rest = finish_round(table, known.round_state, rng)
            await bus.publish(signing.sign(rest))
            finished[table.table_id] += 1 if rest else 0
    return finished

"""The commands a dealer terminal sends for one round at one table. Pure."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from contracts.envelope import Actor, Command, new_id
from contracts.table import (
    BetLimits,
    CloseBets,
    Game,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    Profile,
    RecordSpin,
    RecordSpinData,
    SeatData,
    SeatPlayer,
    TableOpenedData,
    TableWheel,
)
from services.rules.core import get_profile
from services.rules.roulette.switches import ZERO_EVEN
from services.simulator import craps
from services.simulator.players import Mix, random_bet

SOURCE = "floor-simulator"
PRISON_RATE = 0.3  # share of even-chance players who take «prisión» where it is offered
PIT_MANAGER = Actor(employee_id="PM001", role="pit_manager")  # opens the tables


@dataclass
class SimTable:
    table_id: str
    config: TableOpenedData
    dealer: Actor
    players: list[str] = field(default_factory=list)
    mix: Mix = Mix()
    # craps and mini craps: the terminal's mirror of the layout and the shooter
    craps: craps.CrapsMirror | None = None


def player_mix(profile: str) -> Mix:
    """Players choose «prisión» only where the profile offers a choice on zero (BO, seed 000
    §4.1.4.2 item 11); elsewhere even chances simply lose on zero."""
    offered = get_profile(profile).switch(ZERO_EVEN.name) != "lose"
    return Mix(prison_rate=PRISON_RATE if offered else 0.0)


CRAPS_GAMES = ("craps", "mini_craps")
CRAPS_PREFIX = {"craps": "CRP", "mini_craps": "MCR"}
# Craps signs give the odds limits of their own (services/rules/craps/limits.py): three times
# the line bet's maximum here, since the odds are the players' best bet.
CRAPS_ODDS_LIMITS = BetLimits(min_bet=100, max_bet=150_000)


def make_tables(count: int, profile: Profile = "BO", currency: str = "BOB",
                variant: TableWheel = "european", game: Game = "roulette") -> list[SimTable]:
    """`count` tables of the game and profile: roulette on a `variant` wheel (european,
    american, american_single); craps or mini craps (BO, CL-ARICA)."""
    if game in CRAPS_GAMES:
        return make_craps_tables(count, profile, currency, game)
    return [SimTable(
        table_id=f"RUL-{i:02d}",
        config=TableOpenedData(game="roulette", variant=variant, profile=profile,
                               currency=currency, min_bet=100, max_bet=50_000),
        dealer=Actor(employee_id=f"D{100 + i}", role="dealer"),
        players=[f"P{i:02d}{s}" for s in range(1, 7)],
        mix=player_mix(profile),
    ) for i in range(1, count + 1)]


def make_craps_tables(count: int, profile: Profile, currency: str, game: Game
                      ) -> list[SimTable]:
    """Craps or mini craps tables, six players seated; the CL tables pass the dice to the
    right (counter-clockwise, the other reading of A-28), the BO tables clockwise."""
    direction = "counter_clockwise" if profile == "CL-ARICA" else "clockwise"
    tables = []
    for i in range(1, count + 1):
        config = TableOpenedData(game=game, variant=game, profile=profile, currency=currency,
                                 min_bet=100, max_bet=50_000,
                                 bet_limits={"odds": CRAPS_ODDS_LIMITS,
                                             "dont_odds": CRAPS_ODDS_LIMITS},
                                 switches={"craps_shooter_direction": direction})
        tables.append(SimTable(
            table_id=f"{CRAPS_PREFIX[game]}-{i:02d}", config=config,
            dealer=Actor(employee_id=f"D{200 + i}", role="dealer"),
            players=[f"{CRAPS_PREFIX[game]}{i:02d}P{s}" for s in range(1, 7)],
            craps=craps.new_mirror(config)))
    return tables


def open_table(table: SimTable) -> Command:
    return OpenTable(target_id=table.table_id, issued_by=SOURCE,
                     actor=PIT_MANAGER, payload=table.config)


def seat_players(table: SimTable) -> list[Command]:
    """Seat every player at the seat their bets name (seating is enforced from schema 2)."""
    return [SeatPlayer(target_id=table.table_id, issued_by=SOURCE, actor=table.dealer,
                       payload=SeatData(seat=seat, player_id=player))
            for seat, player in enumerate(table.players, start=1)]


def round_commands(table: SimTable, rng: random.Random, mix: Mix | None = None,
                   pocket: str | None = None, correlation_id: str | None = None,
                   dice: tuple[int, int] | None = None) -> list[Command]:
    """OpenRound, some bets, «no más apuestas», maybe a late bet, the result (`pocket` or
    `dice`, or a random one). All share the round's correlation id, which ties the camera frame
    to it."""
    if table.craps is not None:
        return craps.round_commands(table.table_id, table.config, table.dealer, table.players,
                                    table.craps, rng, correlation_id=correlation_id, dice=dice)
    mix = mix or table.mix
    corr = correlation_id or new_id()
    common: dict[str, Any] = dict(target_id=table.table_id, issued_by=SOURCE,
                                  correlation_id=corr)
    cmds: list[Command] = [OpenRound(actor=table.dealer, **common)]
    for _ in range(rng.randint(2, 10)):
        cmds.append(_bet(table, rng, mix, common))
    cmds.append(CloseBets(actor=table.dealer, **common))
    if rng.random() < mix.late_bet_rate:
        cmds.append(_bet(table, rng, Mix(over_max_rate=0), common))
    result = pocket if pocket is not None else spin(table, rng)
    cmds.append(RecordSpin(actor=table.dealer, payload=RecordSpinData(pocket=result), **common))
    return cmds


def finish_round(table: SimTable, state: str, rng: random.Random) -> list[Command]:
    """Commands that bring a round left open by an earlier run to its end."""
    if table.craps is not None:
        return craps.finish_round(table.table_id, table.config, table.dealer, table.players,
                                  table.craps, state, rng)
    common: dict[str, Any] = dict(target_id=table.table_id, issued_by=SOURCE,
                                  actor=table.dealer)
    result = RecordSpin(payload=RecordSpinData(pocket=spin(table, rng)), **common)
    left: dict[str, list[Command]] = {"betting": [CloseBets(**common), result],
                                      "closed": [result]}
    return left.get(state, [])


def spin(table: SimTable, rng: random.Random) -> str:
    """Where the ball lands: 0-36, and 00 on a double-zero (american) wheel."""
    n = rng.randrange(38 if table.config.variant == "american" else 37)
    return "00" if n == 37 else str(n)


def _bet(table: SimTable, rng: random.Random, mix: Mix, common: dict) -> Command:
    seat = rng.randint(1, len(table.players))
    return PlaceBet(actor=table.dealer, payload=PlaceBetData(bet_id=new_id(), seat=seat,
                                         player_id=table.players[seat - 1],
                                         bet=random_bet(rng, table.config.currency,
                                                        table.config.max_bet, mix)),
                    **common)

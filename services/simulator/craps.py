"""The dealer terminal of a craps or mini craps table: one roll a round, with a realistic bet
mix. Pure: takes a random generator.

The terminal keeps its own mirror of the layout in the rules engine's `CrapsTable` (the point,
each bet's number once it travelled), fed with the dice it sends, so it only offers bets the
table can take: the shooter's line bet on every come-out (seed 000 §3.1.5), pass line and
don't pass on the come-out, odds behind line bets with a point, come bets with the point on,
place bets, big 6/8, hardways and one-roll props. The shooter is mirrored too: the lowest seat
first, then the next seat in the table's direction after a seven-out (domain.md A-28).

Mistakes real tables see, at small rates: a stake over the maximum, a bet after «no más
apuestas», an attempt to take down a pass line with its point (refused by the rules), and a
shooter who leaves with the point on (his pass line is lost) and comes back to the table.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from contracts.envelope import Actor, Command, new_id
from contracts.money import Money
from contracts.table import (
    BetSpec,
    CloseBets,
    CrapsBetKind,
    LeaveSeat,
    OpenRound,
    PlaceBet,
    PlaceBetData,
    RecordRoll,
    RecordRollData,
    RemoveBet,
    RemoveBetData,
    SeatData,
    SeatPlayer,
    TableOpenedData,
)
from services.rules.core import RulesError, get_profile
from services.rules.craps.bets import FIXED_NUMBER, Bet
from services.rules.craps.dice import Roll
from services.rules.craps.paytable import PayTable
from services.rules.craps.table import CrapsTable

SOURCE = "floor-simulator"
LINE_STAKES = (100, 200, 500, 1_000, 2_500)
PROP_STAKES = (100, 100, 200, 500)
PROPS: tuple[CrapsBetKind, ...] = ("field", "field", "any_seven", "eleven", "any_craps", "horn",
                                   "under_7", "over_7", "craps_2", "craps_3", "craps_12")


@dataclass(frozen=True)
class CrapsMix:
    over_max_rate: float = 0.02     # a prop staked over the maximum (cut, excess returned: BO/CL)
    late_bet_rate: float = 0.05     # per roll, a bet after «no más apuestas» (BETTING_CLOSED)
    locked_removal_rate: float = 0.02  # a pass line with its point asked down (BET_LOCKED)
    shooter_leaves_rate: float = 0.01  # per roll with the point on


@dataclass
class CrapsMirror:
    """What the terminal knows of its table: the layout (through the rules engine), the
    shooter's seat and the next round's number."""

    table: CrapsTable
    shooter: int | None = None
    round_number: int = 0
    owners: dict[str, int] = field(default_factory=dict)   # bet id -> seat


def new_mirror(config: TableOpenedData, point: int | None = None, shooter: int | None = None,
               rounds: int = 0) -> CrapsMirror:
    profile = get_profile(config.profile, config.switches)
    return CrapsMirror(CrapsTable(PayTable(profile), point), shooter, rounds)


def round_commands(table_id: str, config: TableOpenedData, dealer: Actor, players: list[str],
                   mirror: CrapsMirror, rng: random.Random, mix: CrapsMix = CrapsMix(),
                   correlation_id: str | None = None,
                   dice: tuple[int, int] | None = None) -> list[Command]:
    """OpenRound, the dice to a shooter, bets (and a change now and then), «no más apuestas»,
    maybe a late bet, the roll (`dice`: what the stickman calls, else random)."""
    common: dict[str, Any] = dict(target_id=table_id, issued_by=SOURCE, actor=dealer,
                                  correlation_id=correlation_id or new_id())
    mirror.round_number += 1
    round_id = f"{table_id}.{mirror.round_number}"
    if mirror.shooter is None:
        mirror.shooter = 1
    cmds: list[Command] = [OpenRound(**common)]
    cmds += _shooter_leaves(mirror, players, rng, mix, common)
    if mirror.table.point is None and not _has_line_bet(mirror, mirror.shooter):
        cmds += _place(mirror, config, players, mirror.shooter,
                       rng.choices(("pass_line", "dont_pass"), (4, 1))[0],
                       rng.choice(LINE_STAKES), common)
    for _ in range(rng.randint(2, 8)):
        cmds += _random_bet(mirror, config, players, rng, mix, common)
    if rng.random() < mix.locked_removal_rate:
        locked = [b for b in mirror.table.bets if b.kind == "pass_line" and b.number]
        if locked:
            cmds.append(RemoveBet(payload=RemoveBetData(bet_id=locked[0].id), **common))
    cmds.append(CloseBets(**common))
    if rng.random() < mix.late_bet_rate:
        cmds.append(_command(config, players, 1 + rng.randrange(len(players)), "field", 100,
                             common))
    dice = dice or (rng.randint(1, 6), rng.randint(1, 6))
    cmds.append(RecordRoll(payload=RecordRollData(round_id=round_id, dice=dice), **common))
    _roll(mirror, config, players, dice)
    return cmds


def finish_round(table_id: str, config: TableOpenedData, dealer: Actor, players: list[str],
                 mirror: CrapsMirror, state: str, rng: random.Random) -> list[Command]:
    """Commands that bring a roll left open by an earlier run to its end."""
    common: dict[str, Any] = dict(target_id=table_id, issued_by=SOURCE, actor=dealer)
    round_id = f"{table_id}.{mirror.round_number}"
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    roll = RecordRoll(payload=RecordRollData(round_id=round_id, dice=dice), **common)
    if state == "betting":
        line = []
        if mirror.table.point is None and mirror.shooter is not None:
            line = _place(mirror, config, players, mirror.shooter, "pass_line", 500, common)
        _roll(mirror, config, players, dice)
        return [*line, CloseBets(**common), roll]
    if state == "closed":
        _roll(mirror, config, players, dice)
        return [roll]
    return []


def _roll(mirror: CrapsMirror, config: TableOpenedData, players: list[str],
          dice: tuple[int, int]) -> None:
    mirror.table, report = mirror.table.roll(Roll(*dice), mirror.round_number)
    if report.seven_out and mirror.shooter is not None:
        mirror.shooter = _next_seat(config, len(players), mirror.shooter)


def _next_seat(config: TableOpenedData, seats: int, current: int) -> int:
    direction = get_profile(config.profile, config.switches).switch("craps_shooter_direction")
    step = 1 if direction == "clockwise" else -1
    return (current - 1 + step) % seats + 1


def _has_line_bet(mirror: CrapsMirror, seat: int) -> bool:
    return any(b.kind in ("pass_line", "dont_pass") and mirror.owners.get(b.id) == seat
               for b in mirror.table.bets)


def _shooter_leaves(mirror: CrapsMirror, players: list[str], rng: random.Random,
                    mix: CrapsMix, common: dict[str, Any]) -> list[Command]:
    """Now and then the shooter walks away with the point on: his pass line is lost (and its
    odds returned), the dice pass on; he sits down again at once, no longer the shooter."""
    seat = mirror.shooter
    if seat is None or mirror.table.point is None or rng.random() >= mix.shooter_leaves_rate:
        return []
    lost = {b.id for b in mirror.table.bets if b.kind == "pass_line" and b.number
            and mirror.owners.get(b.id) == seat}
    gone = lost | {b.id for b in mirror.table.bets if b.on in lost}
    mirror.table = replace(mirror.table, bets=tuple(b for b in mirror.table.bets
                                                    if b.id not in gone))
    return [LeaveSeat(payload=SeatData(seat=seat, player_id=players[seat - 1]), **common),
            SeatPlayer(payload=SeatData(seat=seat, player_id=players[seat - 1]), **common),
            *_pass_on(mirror, players)]


def _pass_on(mirror: CrapsMirror, players: list[str]) -> list[Command]:
    """The table passed the dice on (the mirror does the same); nothing to send."""
    assert mirror.shooter is not None
    direction = mirror.table.table.profile.switch("craps_shooter_direction")
    step = 1 if direction == "clockwise" else -1
    mirror.shooter = (mirror.shooter - 1 + step) % len(players) + 1
    return []


def _random_bet(mirror: CrapsMirror, config: TableOpenedData, players: list[str],
                rng: random.Random, mix: CrapsMix, common: dict[str, Any]) -> list[Command]:
    seat = 1 + rng.randrange(len(players))
    point, r = mirror.table.point, rng.random()
    if point is None:
        if r < 0.45:
            return _place(mirror, config, players, seat, rng.choices(
                ("pass_line", "dont_pass"), (5, 1))[0], rng.choice(LINE_STAKES), common)
        if r < 0.6:
            return _place(mirror, config, players, seat, "place", 600, common,
                          number=rng.choice((6, 8)))
    else:
        if r < 0.35:
            return _odds(mirror, config, players, rng, common)
        if r < 0.5:
            return _place(mirror, config, players, seat, rng.choices(
                ("come", "dont_come"), (4, 1))[0], rng.choice(LINE_STAKES), common)
        if r < 0.65:
            return _place(mirror, config, players, seat, "place", rng.choice((500, 600, 1200)),
                          common, number=rng.choice((4, 5, 6, 8, 9, 10)))
        if r < 0.7:
            return _place(mirror, config, players, seat, rng.choice(("big_6", "big_8")),
                          rng.choice(LINE_STAKES), common)
        if r < 0.78:
            return _place(mirror, config, players, seat, "hardway", rng.choice(PROP_STAKES),
                          common, number=rng.choice((4, 6, 8, 10)))
        if r < 0.8:
            return _take_down(mirror, common, rng)
    stake = rng.choice(PROP_STAKES)
    if rng.random() < mix.over_max_rate:
        stake = config.max_bet + rng.choice(PROP_STAKES)
    return _place(mirror, config, players, seat, rng.choice(PROPS), stake, common)


def _odds(mirror: CrapsMirror, config: TableOpenedData, players: list[str],
          rng: random.Random, common: dict[str, Any]) -> list[Command]:
    """Odds behind a line bet with a point that has none yet: 1 to 3 times the line bet."""
    backed = {b.on for b in mirror.table.bets if b.on}
    lines = [b for b in mirror.table.bets
             if b.kind in ("pass_line", "dont_pass", "come", "dont_come") and b.number
             and b.id not in backed]
    if not lines:
        return []
    line = rng.choice(lines)
    kind = "dont_odds" if line.wrong else "odds"
    return _place(mirror, config, players, mirror.owners.get(line.id, 1), kind,
                  line.amount * rng.randint(1, 3), common, on=line.id)


def _take_down(mirror: CrapsMirror, common: dict[str, Any], rng: random.Random) -> list[Command]:
    places = [b for b in mirror.table.bets if b.kind in ("place", "big_6", "big_8")]
    if not places:
        return []
    gone = rng.choice(places)
    mirror.table, _ = mirror.table.change(gone.id, 0, "bet_id", mirror.round_number)
    return [RemoveBet(payload=RemoveBetData(bet_id=gone.id), **common)]


def _place(mirror: CrapsMirror, config: TableOpenedData, players: list[str], seat: int,
           kind: str, stake: int, common: dict[str, Any], number: int | None = None,
           on: str | None = None) -> list[Command]:
    """The bet, if the mirror (the rules engine) says the table can take it now."""
    command = _command(config, players, seat, kind, stake, common, number, on)
    assert isinstance(command, PlaceBet)
    bet_id = command.payload.bet_id
    playing = min(stake, config.limits_of(kind).max_bet)
    try:
        mirror.table, _ = mirror.table.place(
            Bet(bet_id, kind, playing, FIXED_NUMBER.get(kind, number), on), mirror.round_number)
    except RulesError:
        return []
    mirror.owners[bet_id] = seat
    return [command]


def _command(config: TableOpenedData, players: list[str], seat: int, kind: str, stake: int,
             common: dict[str, Any], number: int | None = None,
             on: str | None = None) -> Command:
    spec = BetSpec.model_validate({"kind": kind, "numbers": (str(number),) if number else (),
                                   "stake": Money(amount=stake, currency=config.currency),
                                   "on": on})
    return PlaceBet(payload=PlaceBetData(bet_id=new_id(), seat=seat,
                                         player_id=players[seat - 1], bet=spec), **common)

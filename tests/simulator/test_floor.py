"""The simulator's dealer commands, played through a real table session (pure, no broker): every
command it sends for a game and wheel is one the table accepts, and every round settles."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from contracts.table import (
    BetPlaced,
    BetRejected,
    BetSettled,
    CommandRejected,
    RoundSettled,
    ShooterChanged,
    SpinResulted,
)
from services.simulator.floor import make_tables, open_table, round_commands, seat_players
from services.table.domain import TableSession


@pytest.mark.parametrize(("profile", "variant"), [
    ("BO", "european"), ("CL-ARICA", "american"), ("CL-ARICA", "american_single"),
    ("AR-RUL", "european"), ("LIVE-GG", "european")])
def test_every_round_the_simulator_plays_is_accepted_and_settled(profile, variant):
    [table] = make_tables(1, profile, "BOB", variant)
    session, rng, events = TableSession(table.table_id), random.Random(3), []
    for command in [open_table(table), *seat_players(table)]:
        session.handle(command)
    for _ in range(120):
        for command in round_commands(table, rng):
            session.handle(command)
    events = session.collect()
    refused = [e for e in events if isinstance(e, CommandRejected)]
    assert refused == [], refused[:1]
    codes = Counter(e.payload.code for e in events if isinstance(e, BetRejected))
    assert set(codes) <= {"OVER_MAXIMUM", "BETTING_CLOSED"}  # the mistakes it makes on purpose
    assert sum(isinstance(e, RoundSettled) for e in events) == 120
    pockets = {e.payload.pocket for e in events if isinstance(e, SpinResulted)}
    assert ("00" in pockets) == (variant == "american")


def test_a_wheel_the_profile_does_not_play_is_refused_before_anything_is_sent():
    from click.testing import CliRunner

    from services.cli.main import casino
    result = CliRunner().invoke(casino, ["simulate", "--bootstrap", "127.0.0.1:1",
                                         "--profile", "BO", "--variant", "american"])
    assert result.exit_code == 2
    assert "--variant american: profile BO plays the european wheel" in result.output


@pytest.mark.parametrize(("profile", "game"), [("BO", "craps"), ("CL-ARICA", "craps"),
                                               ("BO", "mini_craps")])
def test_every_roll_the_craps_simulator_plays_is_accepted_with_a_realistic_bet_mix(profile, game):
    """Line bets with odds, come bets, place bets and props; the shooter's line bet on every
    come-out; refusals only for the mistakes made on purpose; the mirror keeps the table's
    point and shooter."""
    [table] = make_tables(1, profile, "BOB", game=game)
    session, rng = TableSession(table.table_id), random.Random(5)
    for command in [open_table(table), *seat_players(table)]:
        session.handle(command)
    for _ in range(300):
        for command in round_commands(table, rng):
            session.handle(command)
        assert table.craps is not None
        assert table.craps.table.point == session.play.point
        assert table.craps.shooter == session.play.shooter
    events = session.collect()
    refused = Counter(e.payload.code for e in events if isinstance(e, CommandRejected))
    assert set(refused) <= {"BET_LOCKED"} and refused["BET_LOCKED"] > 0
    codes = Counter(e.payload.code for e in events if isinstance(e, BetRejected))
    assert set(codes) <= {"BETTING_CLOSED"}
    assert sum(isinstance(e, RoundSettled) for e in events) == 300
    kinds = Counter(e.payload.bet.kind for e in events if isinstance(e, BetPlaced))
    assert {"pass_line", "odds", "come", "place", "field", "hardway"} <= set(kinds)
    shooters = [e.payload for e in events if isinstance(e, ShooterChanged)]
    assert {s.reason for s in shooters} >= {"first", "seven_out"}
    assert {s.direction for s in shooters} == {"counter_clockwise" if profile == "CL-ARICA"
                                               else "clockwise"}


def test_craps_at_a_profile_that_does_not_define_it_is_refused_before_anything_is_sent():
    from click.testing import CliRunner

    from services.cli.main import casino
    result = CliRunner().invoke(casino, ["simulate", "--bootstrap", "127.0.0.1:1",
                                         "--game", "craps", "--profile", "LIVE-GG"])
    assert result.exit_code == 2
    assert "--profile LIVE-GG: craps is played by the profiles BO, CL-ARICA" in result.output


def test_a_simulated_shooter_who_leaves_with_the_point_on_is_mirrored_by_the_terminal():
    """Every roll with the point on, the shooter walks away and sits down again: the table
    takes each command, his pass line is lost, and the terminal's shooter and layout stay the
    table's."""
    from services.simulator import craps

    [table] = make_tables(1, "BO", "BOB", game="craps")
    assert table.craps is not None
    session, rng = TableSession(table.table_id), random.Random(9)
    for command in [open_table(table), *seat_players(table)]:
        session.handle(command)
    mix = craps.CrapsMix(shooter_leaves_rate=1.0)
    for _ in range(60):
        for command in craps.round_commands(table.table_id, table.config, table.dealer,
                                            table.players, table.craps, rng, mix):
            session.handle(command)
        assert table.craps.shooter == session.play.shooter
        assert {b.id for b in table.craps.table.bets} == set(session.play.bets)
    events = session.collect()
    assert not [e for e in events if isinstance(e, CommandRejected)
                and e.payload.code != "BET_LOCKED"]
    left = [e.payload for e in events if isinstance(e, ShooterChanged)
            and e.payload.reason == "left"]
    lost = [e.payload for e in events if isinstance(e, BetSettled)
            and "abandonar" in e.payload.rule_note]
    assert left and lost and all(p.kind == "pass_line" and p.paid.amount == 0 for p in lost)

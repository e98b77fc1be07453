"""Craps and mini craps through the table session: one roll a round, bets that stay on the
layout across rolls, withdrawals and changes per profile (domain.md §4.6), the shooter."""
from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from contracts.envelope import Actor
from contracts.money import Money
from contracts.table import (
    BetChanged,
    BetLimits,
    BetPlaced,
    BetRejected,
    BetSettled,
    BetSpec,
    ChangeBet,
    ChangeBetData,
    CloseBets,
    CloseTable,
    CommandRejected,
    DiceRolled,
    LeaveSeat,
    OpenRound,
    OpenTable,
    PassDice,
    PlaceBet,
    PlaceBetData,
    RecordRoll,
    RecordRollData,
    RecordSpin,
    RecordSpinData,
    RemoveBet,
    RemoveBetData,
    RoundSettled,
    SeatData,
    SeatPlayer,
    ShooterChanged,
    TableOpenedData,
)
from services.table.domain import TableSession
from services.table.rounds import RoundState
from tests.table.unit import T, cmd, handle

SEATS = {1: "P1", 3: "P3", 5: "P5"}


def opened(profile: Any = "BO", game: Any = "craps", **config: Any) -> TableSession:
    """A craps table of the profile with three players seated; the first round open."""
    table = TableSession(T)
    handle(table, cmd(OpenTable, payload=TableOpenedData(
        game=game, profile=profile, currency="BOB", min_bet=100, max_bet=50_000, **config)))
    for seat, player in SEATS.items():
        handle(table, cmd(SeatPlayer, payload=SeatData(seat=seat, player_id=player)))
    handle(table, cmd(OpenRound))
    return table


def bet(bet_id: str, kind: Any, amount: int = 1000, number: int | None = None, seat: int = 1,
        on: str | None = None, working: bool = False) -> PlaceBet:
    return cmd(PlaceBet, payload=PlaceBetData(bet_id=bet_id, seat=seat, player_id=SEATS[seat],
                                              bet=BetSpec(kind=kind, numbers=(str(number),)
                                                          if number else (),
                                                          stake=Money(amount=amount,
                                                                      currency="BOB"),
                                                          on=on, working=working)))


def roll(table: TableSession, d1: int, d2: int, *before: Any) -> list:
    """The commands before the roll, «no más apuestas», the roll; the next round opened."""
    if table.round is not None and table.round.state is RoundState.SETTLED:
        handle(table, cmd(OpenRound))
    for c in before:
        handle(table, c)
    assert table.round is not None
    handle(table, cmd(CloseBets))
    events = handle(table, cmd(RecordRoll, payload=RecordRollData(
        round_id=table.round.round_id, dice=(d1, d2))))
    return events


def of(events: list, kind: type[Any]) -> list[Any]:
    return [e.payload for e in events if isinstance(e, kind)]


def settled(events: list) -> dict[str, Any]:
    return {p.bet_id: p for p in of(events, BetSettled)}


def test_a_pass_line_with_odds_and_a_come_bet_travelling_to_its_number():
    table = opened()
    events = roll(table, 3, 3, bet("p", "pass_line"))
    [rolled] = of(events, DiceRolled)
    assert (rolled.point_before, rolled.point_after, rolled.travelled) == (None, 6, {"p": 6})
    assert rolled.result == "3+3" and not of(events, BetSettled)
    assert of(events, RoundSettled)[0].pocket == "3+3"
    assert of(events, RoundSettled)[0].wagered.amount == 0       # nothing decided yet
    events = roll(table, 4, 4, bet("o", "odds", 2000, on="p"), bet("c", "come", 500))
    assert of(events, DiceRolled)[0].travelled == {"c": 8} and not of(events, BetSettled)
    events = roll(table, 2, 6)                                   # the come bet's 8
    c = settled(events)["c"]
    assert (c.paid.amount, c.outcome, c.round_id) == (1000, "win", f"{T}.3")
    assert c.rule == "seed 000 §3.1.7.2"
    events = roll(table, 3, 3)                                   # the point: pass and odds win
    won = settled(events)
    assert won["p"].paid.amount == 2000 and won["o"].paid.amount == 2000 + 2400   # 6:5
    assert won["o"].rule.startswith("seed 000 §3.1.5")
    [r] = of(events, RoundSettled)
    assert (r.wagered.amount, r.paid.amount, r.house_win) == (3000, 6400, -3400)
    assert table.play.point is None and not table.play.bets


def test_a_stake_exactly_at_the_maximum_plays_whole_and_one_more_is_cut_bo():
    table = opened()
    [at_max] = handle(table, bet("a", "field", 50_000))
    assert isinstance(at_max, BetPlaced) and at_max.payload.excess_returned is None
    [over] = handle(table, bet("b", "field", 50_001))
    assert over.payload.bet.stake.amount == 50_000 and over.payload.excess_returned.amount == 1
    assert over.payload.limit_rule == "seed 002 §1.2.1.1"
    [under] = handle(table, bet("u", "field", 99))
    assert isinstance(under, BetRejected) and under.payload.code == "UNDER_MINIMUM"


def test_odds_have_limits_of_their_own_exactly_the_maximum_plays():
    table = opened(bet_limits={"odds": BetLimits(min_bet=100, max_bet=2000)})
    roll(table, 2, 2, bet("p", "pass_line"))                     # point 4
    handle(table, cmd(OpenRound))
    [whole] = handle(table, bet("o1", "odds", 2000, on="p"))
    [cut] = handle(table, bet("o2", "odds", 2500, on="p"))
    assert whole.payload.excess_returned is None
    assert cut.payload.bet.stake.amount == 2000 and cut.payload.excess_returned.amount == 500
    won = settled(roll(table, 1, 3))                             # 4 before 7: odds pay 2:1
    assert won["o1"].paid.amount == won["o2"].paid.amount == 6000


def test_odds_need_a_line_bet_with_a_point_and_come_bets_need_the_point_on():
    table = opened()
    handle(table, bet("p", "pass_line"))
    [odds] = handle(table, bet("o", "odds", 1000, on="p"))
    assert isinstance(odds, BetRejected) and odds.payload.field == "payload.bet.on"
    assert "no point yet" in odds.payload.reason
    [come] = handle(table, bet("c", "come"))
    assert isinstance(come, BetRejected) and come.payload.field == "payload.bet.kind"
    assert "A-31" in come.payload.reason
    roll(table, 5, 5)                                            # point 10
    handle(table, cmd(OpenRound))
    [late_line] = handle(table, bet("p2", "pass_line", seat=3))
    assert isinstance(late_line, BetRejected) and "come-out" in late_line.payload.reason


@pytest.mark.parametrize("profile, removed", [("BO", False), ("CL-ARICA", True)])
def test_a_dont_pass_with_its_point_may_be_withdrawn_only_where_the_profile_says(profile, removed):
    table = opened(profile)
    roll(table, 4, 5, bet("d", "dont_pass"))                     # point 9
    handle(table, cmd(OpenRound))
    events = handle(table, cmd(RemoveBet, payload=RemoveBetData(bet_id="d")))
    if removed:    # seed 004 IV §1.5 «pero si pueden retirarse»: the stake comes back whole
        [back] = of(events, BetSettled)
        assert (back.outcome, back.paid.amount, back.stake.amount) == ("void", 1000, 1000)
        assert "d" not in table.play.bets
    else:          # BO is silent (switch craps_dont_removable): refused, naming why
        [refused] = of(events, CommandRejected)
        assert (refused.code, refused.field) == ("BET_LOCKED", "payload.bet_id")
        assert "craps_dont_removable" in refused.reason and "d" in table.play.bets


@pytest.mark.parametrize("profile", ["BO", "CL-ARICA"])
def test_a_pass_line_with_its_point_is_never_withdrawn_or_reduced(profile):
    table = opened(profile)
    roll(table, 4, 5, bet("p", "pass_line"))
    handle(table, cmd(OpenRound))
    for command in (cmd(RemoveBet, payload=RemoveBetData(bet_id="p")),
                    cmd(ChangeBet, payload=ChangeBetData(bet_id="p", amount=500))):
        [refused] = of(handle(table, command), CommandRejected)
        assert refused.code == "BET_LOCKED" and "no se pueden retirar" in refused.reason
        assert refused.rule == {"BO": "seed 000 §3.1.5", "CL-ARICA": "seed 004 IV §1.5"}[profile]
    assert table.play.bets["p"].amount == 1000


def test_a_pass_line_increase_cl_allows_and_bo_refuses_a_29():
    cl = opened("CL-ARICA")
    roll(cl, 4, 5, bet("p", "pass_line"))
    handle(cl, cmd(OpenRound))
    [changed] = of(handle(cl, cmd(ChangeBet, payload=ChangeBetData(bet_id="p", amount=1500))),
                   BetChanged)
    assert (changed.amount_before, changed.amount, changed.returned) == (1000, 1500, None)
    assert settled(roll(cl, 6, 3))["p"].paid.amount == 3000
    bo = opened("BO")
    roll(bo, 4, 5, bet("p", "pass_line"))
    handle(bo, cmd(OpenRound))
    [refused] = of(handle(bo, cmd(ChangeBet, payload=ChangeBetData(bet_id="p", amount=1500))),
                   CommandRejected)
    assert refused.rule == "seed 000 §3.1.7.2" and "craps_pass_line_increase" in refused.reason


def test_a_place_bet_is_reduced_with_the_difference_returned_and_removing_an_unknown_bet():
    table = opened()
    handle(table, bet("p", "pass_line"))
    handle(table, bet("pl", "place", 1200, number=6))
    [changed] = of(handle(table, cmd(ChangeBet, payload=ChangeBetData(bet_id="pl", amount=600))),
                   BetChanged)
    assert changed.returned.amount == 600 and changed.amount == 600
    [refused] = of(handle(table, cmd(RemoveBet, payload=RemoveBetData(bet_id="nope"))),
                   CommandRejected)
    assert (refused.code, refused.field) == ("NO_SUCH_BET", "payload.bet_id")
    won = settled(roll(table, 3, 3))                            # place 6 pays 7:6 on 600
    assert won["pl"].paid.amount == 600 + 700


def test_cl_hardways_are_off_on_the_come_out_unless_called_on():
    table = opened("CL-ARICA")
    events = roll(table, 3, 3, bet("p", "pass_line"), bet("off", "hardway", 100, number=6),
                  bet("on", "hardway", 100, number=6, working=True))
    assert list(settled(events)) == ["on"] and settled(events)["on"].paid.amount == 1000  # 9:1
    assert "off" in table.play.bets


def test_the_shooter_must_bet_a_line_bet_before_the_come_out():
    table = opened()
    assert table.play.shooter == 1
    [refused] = handle(table, cmd(CloseBets))
    assert isinstance(refused, CommandRejected) and refused.payload.code == "NO_LINE_BET"
    assert refused.payload.rule.startswith("seed 000 §3.1.5")
    handle(table, bet("other", "pass_line", seat=3))            # another player's: not enough
    assert isinstance(handle(table, cmd(CloseBets))[0], CommandRejected)
    handle(table, bet("d", "dont_pass"))
    assert table.round is not None and table.round.state is RoundState.BETTING
    assert not of(handle(table, cmd(CloseBets)), CommandRejected)


@pytest.mark.parametrize("direction, after", [("clockwise", 3), ("counter_clockwise", 5)])
def test_after_a_seven_out_the_dice_pass_in_the_table_s_direction_a_28(direction, after):
    table = opened(switches={"craps_shooter_direction": direction})
    roll(table, 2, 2, bet("p", "pass_line"))
    events = roll(table, 3, 4)
    assert of(events, DiceRolled)[0].seven_out
    [change] = of(events, ShooterChanged)
    assert (change.previous_seat, change.seat, change.reason) == (1, after, "seven_out")
    assert ("agujas del reloj" in change.rule) == (direction == "clockwise")


def test_a_table_refuses_a_shooter_direction_that_is_no_choice():
    table = TableSession(T)
    [refused] = handle(table, cmd(OpenTable, payload=TableOpenedData(
        game="craps", profile="BO", currency="BOB", min_bet=100, max_bet=50_000,
        switches={"craps_shooter_direction": "left"})))
    assert refused.payload.field == "payload.switches.craps_shooter_direction"


def test_a_shooter_who_leaves_with_the_point_on_loses_the_pass_line_and_the_dice_pass():
    table = opened()
    roll(table, 4, 6, bet("p", "pass_line"), bet("f", "field", seat=3))   # point 10
    handle(table, cmd(OpenRound))
    handle(table, bet("o", "odds", 500, on="p"))
    events = handle(table, cmd(LeaveSeat, payload=SeatData(seat=1, player_id="P1")))
    by_id = settled(events)
    assert (by_id["p"].outcome, by_id["p"].paid.amount) == ("lose", 0)
    assert by_id["p"].rule == "seed 000 §3.1.7.1" and "abandonar" in by_id["p"].rule_note
    assert (by_id["o"].outcome, by_id["o"].paid.amount) == ("void", 500)
    [change] = of(events, ShooterChanged)
    assert (change.seat, change.reason) == (3, "left")
    assert table.play.shooter == 3 and 1 not in table.seated


def test_a_non_shooter_leaves_with_no_effect_and_a_shooter_passes_the_dice_on_the_come_out():
    table = opened()
    events = handle(table, cmd(LeaveSeat, payload=SeatData(seat=5, player_id="P5")))
    assert not of(events, BetSettled) and not of(events, ShooterChanged)
    [change] = of(handle(table, cmd(PassDice)), ShooterChanged)
    assert (change.seat, change.reason) == (3, "passed")


def test_a_roll_for_another_round_or_a_spin_at_a_craps_table_is_refused():
    table = opened("BO", game="mini_craps")
    handle(table, bet("p", "pass_line"))
    handle(table, cmd(CloseBets))
    [wrong] = handle(table, cmd(RecordRoll, payload=RecordRollData(round_id=f"{T}.9",
                                                                   dice=(1, 2))))
    assert wrong.payload.field == "payload.round_id"
    [spin] = handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="7")))
    assert "RecordRoll" in spin.payload.reason
    with pytest.raises(ValidationError):
        RecordRollData(round_id="x", dice=(7, 1))


def test_the_dice_service_may_record_a_roll_but_not_place_a_bet():
    table = opened()
    device = Actor(employee_id="DICE-7", role="device")
    [refused] = handle(table, cmd(PlaceBet, actor=device, payload=bet("p", "pass_line").payload))
    assert refused.payload.code == "FORBIDDEN"
    handle(table, bet("p", "pass_line"))
    handle(table, cmd(CloseBets))
    events = handle(table, cmd(RecordRoll, actor=device, payload=RecordRollData(
        round_id=f"{T}.1", dice=(6, 5), device_id="SET-1", roll_id="R1")))
    [rolled] = of(events, DiceRolled)
    assert (rolled.device_id, rolled.roll_id) == ("SET-1", "R1")
    assert settled(events)["p"].paid.amount == 2000


def test_a_table_with_bets_on_the_layout_cannot_close():
    table = opened()
    roll(table, 4, 4, bet("p", "pass_line"))
    [refused] = handle(table, cmd(CloseTable))
    assert isinstance(refused, CommandRejected) and "on the craps layout" in refused.payload.reason


def test_a_restored_session_carries_the_layout_and_decides_the_same():
    table = opened("CL-ARICA")
    roll(table, 2, 3, bet("p", "pass_line"), bet("h", "hardway", 100, number=8))
    roll(table, 1, 3, bet("c", "come", 500))
    snap = json.loads(json.dumps(table.snapshot()))
    again = TableSession(T).load_snapshot(table.version, snap)
    assert again.play == table.play
    commands = [cmd(OpenRound), cmd(CloseBets),
                cmd(RecordRoll, payload=RecordRollData(round_id=f"{T}.3", dice=(4, 4)))]
    a = [e for c in commands for e in handle(table, c)]
    b = [e for c in commands for e in handle(again, c)]
    assert settled(a)["h"].paid.amount == 1000 and "c" in again.play.bets  # hard 8 at 9:1
    assert [e.model_dump(exclude={"event_id", "recorded_at"}) for e in a] == \
        [e.model_dump(exclude={"event_id", "recorded_at"}) for e in b]


def test_an_increase_is_limited_as_a_new_bet_exactly_the_maximum_plays_bo():
    table = opened()
    handle(table, bet("p", "pass_line"))
    handle(table, bet("pl", "place", 600, number=8))
    [to_max] = of(handle(table, cmd(ChangeBet, payload=ChangeBetData(bet_id="pl",
                                                                     amount=50_000))), BetChanged)
    assert (to_max.amount, to_max.returned) == (50_000, None)
    handle(table, bet("f", "big_6", 1000))
    [over] = of(handle(table, cmd(ChangeBet, payload=ChangeBetData(bet_id="f", amount=50_001))),
                BetChanged)
    assert (over.amount, over.returned.amount) == (50_000, 1)
    [under] = of(handle(table, cmd(ChangeBet, payload=ChangeBetData(bet_id="f", amount=99))),
                 CommandRejected)
    assert under.field == "payload.amount" and under.rule == "seed 002 §1.2.1.1"
    assert table.play.bets["f"].amount == 50_000


def test_a_second_roll_for_a_settled_round_is_refused_and_decides_nothing():
    table = opened()
    first = roll(table, 6, 5, bet("p", "pass_line"))
    assert settled(first)["p"].outcome == "win"
    [again] = handle(table, cmd(RecordRoll, payload=RecordRollData(round_id=f"{T}.1",
                                                                   dice=(1, 1))))
    assert isinstance(again, CommandRejected) and "no más apuestas" in again.payload.reason


def test_bets_of_another_game_or_not_offered_by_the_profile_are_invalid():
    cl = opened("CL-ARICA")
    [craps_2] = handle(cl, bet("c2", "craps_2", 100))     # CL prints no pay (C-26)
    assert isinstance(craps_2, BetRejected) and craps_2.payload.code == "INVALID_BET"
    assert craps_2.payload.field == "payload.bet.kind"
    [straight] = handle(cl, cmd(PlaceBet, payload=PlaceBetData(
        bet_id="s", seat=1, player_id="P1", bet=BetSpec(kind="straight", numbers=("7",),
                                                        stake=Money(amount=100,
                                                                    currency="BOB")))))
    assert straight.payload.code == "INVALID_BET" and "not a bet of a craps" in \
        straight.payload.reason
    [buy] = handle(cl, bet("b", "buy", 100, number=4))    # no commission rate (§0.4)
    assert buy.payload.code == "INVALID_BET"


def test_a_roulette_table_refuses_a_craps_bet_and_a_bet_change(table):
    """The fixture's BO roulette table: a craps kind is no bet of it; its bets do not move."""
    [refused] = handle(table, cmd(PlaceBet, payload=bet("p", "pass_line").payload))
    assert refused.payload.code == "INVALID_BET" and refused.payload.field == "payload.bet.kind"
    [change] = handle(table, cmd(ChangeBet, payload=ChangeBetData(bet_id="p", amount=0)))
    assert isinstance(change, CommandRejected) and change.payload.field == "command_type"


def test_with_nobody_seated_no_roll_is_thrown_and_the_first_player_seated_gets_the_dice():
    table = TableSession(T)
    handle(table, cmd(OpenTable, payload=TableOpenedData(
        game="craps", profile="BO", currency="BOB", min_bet=100, max_bet=50_000)))
    handle(table, cmd(OpenRound))
    [refused] = handle(table, cmd(CloseBets))
    assert isinstance(refused, CommandRejected) and refused.payload.code == "NO_SHOOTER"
    events = handle(table, cmd(SeatPlayer, payload=SeatData(seat=3, player_id="P3")))
    [first] = of(events, ShooterChanged)
    assert (first.seat, first.player_id, first.reason) == (3, "P3", "first")
    assert "izquierda" in first.rule
    handle(table, bet("p", "pass_line", seat=3))
    assert not of(handle(table, cmd(CloseBets)), CommandRejected)

"""The table session aggregate, without a broker: rounds, refusals, settlement, idempotency."""

import pytest

from contracts.table import (
    BetPlaced,
    BetRejected,
    BetSettled,
    CloseBets,
    CloseTable,
    CommandRejected,
    OpenRound,
    OpenTable,
    RecordSpin,
    RecordSpinData,
    RoundSettled,
    SpinResulted,
    TableOpenedData,
)
from services.table.domain import RoundState, TableSession
from tests.table.unit import T, bet, cmd, handle, play


def test_straight_up_win_pays_35_to_1_and_names_the_rule(table):
    handle(table, bet())
    handle(table, cmd(CloseBets))
    events = handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="17")))
    assert [type(e) for e in events] == [SpinResulted, BetSettled, RoundSettled]
    settled = events[1].payload
    assert settled.paid.amount == 1000 * 36 and settled.net == 35_000
    assert settled.rule.startswith("seed ")
    assert events[2].payload.house_win == 1000 - 36_000
    assert [e.sequence for e in events] == [5, 6, 7]


def test_losing_bet_pays_nothing(table):
    handle(table, bet(kind="split", numbers=("17", "20")))
    handle(table, cmd(CloseBets))
    events = handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="5")))
    assert events[1].payload.paid.amount == 0 and events[1].payload.outcome == "lose"
    assert events[2].payload.house_win == 1000


def test_over_maximum_on_bo_plays_the_maximum_and_returns_the_excess(table):
    [event] = handle(table, bet(amount=60_000))
    assert isinstance(event, BetPlaced)
    assert event.payload.bet.stake.amount == 50_000
    assert event.payload.excess_returned is not None
    assert event.payload.excess_returned.amount == 10_000
    assert event.payload.limit_rule == "seed 002 §1.2.1.1"
    assert table.round.bets["b1"].bet.stake.amount == 50_000


def test_under_minimum_and_wrong_currency_are_refused(table):
    [under] = handle(table, bet(amount=50, bet_id="u"))
    [wrong] = handle(table, bet(currency="CLP", bet_id="w"))
    assert under.payload.code == "UNDER_MINIMUM"
    assert wrong.payload.code == "WRONG_CURRENCY"


def test_late_bet_after_no_mas_apuestas_is_void(table):
    handle(table, cmd(CloseBets))
    [event] = handle(table, bet(bet_id="late"))
    assert event.payload.code == "BETTING_CLOSED"
    assert "no más apuestas" in event.payload.reason
    assert event.payload.rule == "seed 000 §4.1.4.3"


def test_a_bet_the_engine_finds_malformed_is_refused_naming_the_field(table):
    [event] = handle(table, bet(kind="split", numbers=("1", "36")))
    assert event.payload.code == "INVALID_BET"
    assert event.payload.field.startswith("payload.bet")


def test_commands_out_of_order_are_refused_for_the_audit_trail(table):
    [event] = handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="3")))
    assert isinstance(event, CommandRejected)
    assert "no más apuestas" in event.payload.reason
    [again] = handle(table, cmd(OpenRound))
    assert isinstance(again, CommandRejected)
    [close] = handle(table, cmd(CloseTable))
    assert isinstance(close, CommandRejected)


def test_redelivered_command_is_a_no_op(table):
    place = bet()
    assert len(handle(table, place)) == 1
    assert handle(table, place) == []
    assert len(table.round.bets) == 1


def test_rebuild_from_the_log_gives_the_same_state(table):
    log = []
    for c in (bet(), bet(kind="red", numbers=(), bet_id="b2"), cmd(CloseBets),
              cmd(RecordSpin, payload=RecordSpinData(pocket="17"))):
        log.extend(handle(table, c))
    fresh = TableSession(T)
    opened = TableSession(T)
    history = handle(opened, cmd(OpenTable, payload=table.config)) + handle(opened, cmd(OpenRound))
    rebuilt = TableSession.rebuild(T, [*history, *log])
    assert rebuilt.version == table.version and rebuilt.rounds_played == 1
    assert rebuilt.current.settled == table.current.settled
    assert fresh.version == 0


def test_spin_redelivered_after_a_crash_mid_settlement_finishes_it():
    table, log = TableSession(T), []
    for c in (cmd(OpenTable, payload=TableOpenedData(
                  game="roulette", variant="european", seating="open", profile="BO",
                  currency="BOB", min_bet=100, max_bet=50_000)),
              cmd(OpenRound), bet(), bet(kind="red", numbers=(), bet_id="b2"), cmd(CloseBets)):
        log += handle(table, c)
    spin = cmd(RecordSpin, payload=RecordSpinData(pocket="17"))
    events = handle(table, spin)
    assert [type(e) for e in events] == [SpinResulted, BetSettled, BetSettled, RoundSettled]
    # The service crashed after publishing only SpinResulted and the first BetSettled:
    survivor = TableSession.rebuild(T, [*log, *events[:2]])
    assert survivor.current.state is RoundState.SPUN
    finished = handle(survivor, spin)
    assert [type(e) for e in finished] == [BetSettled, RoundSettled]
    assert finished[-1].payload.wagered.amount == 2000
    assert finished[-1].sequence == events[-1].sequence
    assert handle(survivor, spin) == []


def test_close_table_after_the_round_and_nothing_after_that(table):
    handle(table, cmd(CloseBets))
    handle(table, cmd(RecordSpin, payload=RecordSpinData(pocket="1")))
    [closed] = handle(table, cmd(CloseTable))
    assert closed.event_type == "TableClosed" and table.closed
    [refused] = handle(table, cmd(OpenRound))
    assert isinstance(refused, CommandRejected) and "closed" in refused.payload.reason


# ----- «en prisión» (seed 000 §4.1.4.2 item 11) -----------------------------------------------

def test_zero_sends_a_prison_bet_to_prison_and_half_back_returns_half(table):
    events = play(table, bet(kind="red", numbers=(), bet_id="jail", zero_option="prison"),
                  bet(kind="odd", numbers=(), bet_id="half", zero_option="half_back"), pocket="0")
    settled = {e.payload.bet_id: e.payload for e in events if isinstance(e, BetSettled)}
    assert settled["jail"].outcome == "prison" and settled["jail"].paid.amount == 0
    assert settled["half"].outcome == "half_back" and settled["half"].paid.amount == 500
    assert all(s.rule == "seed 000 §4.1.4.2 item 11" for s in settled.values())
    assert set(table.prisoners) == {"jail"}
    assert events[-1].payload.wagered.amount == 2000 and events[-1].payload.paid.amount == 500


@pytest.mark.parametrize("pocket, outcome, paid", [("1", "push", 1000), ("2", "lose", 0),
                                                   ("0", "lose", 0)])
def test_the_next_spin_frees_or_loses_the_imprisoned_stake(table, pocket, outcome, paid):
    play(table, bet(kind="red", numbers=(), bet_id="jail", zero_option="prison"), pocket="0")
    events = play(table, bet(bet_id="b2", amount=500), pocket=pocket)
    freed = next(e.payload for e in events
                 if isinstance(e, BetSettled) and e.payload.bet_id == "jail")
    assert (freed.outcome, freed.paid.amount) == (outcome, paid)
    assert freed.imprisoned_from == "RUL-01.1" and freed.round_id == "RUL-01.2"
    assert freed.net == paid - 1000  # the whole bet's result
    total = events[-1].payload
    assert total.wagered.amount == 500  # the imprisoned stake was wagered in round 1
    assert total.bet_count == 2 and table.prisoners == {}


def test_the_table_cannot_close_while_a_stake_is_in_prison(table):
    play(table, bet(kind="low", numbers=(), bet_id="jail", zero_option="prison"), pocket="0")
    [refused] = handle(table, cmd(CloseTable))
    assert isinstance(refused, CommandRejected) and "prisión" in refused.payload.reason
    play(table, pocket="5")
    [closed] = handle(table, cmd(CloseTable))
    assert closed.event_type == "TableClosed"


def test_prisoners_are_rebuilt_from_the_log_and_their_ids_stay_taken():
    table, log = TableSession(T), []
    for c in (cmd(OpenTable, payload=TableOpenedData(
                  game="roulette", variant="european", seating="open", profile="BO",
                  currency="BOB", min_bet=100, max_bet=50_000)),
              cmd(OpenRound), bet(kind="even", numbers=(), bet_id="jail", zero_option="prison"),
              cmd(CloseBets), cmd(RecordSpin, payload=RecordSpinData(pocket="0"))):
        log += handle(table, c)
    rebuilt = TableSession.rebuild(T, log)
    assert set(rebuilt.prisoners) == {"jail"} and rebuilt.prisoners == table.prisoners
    handle(rebuilt, cmd(OpenRound))
    [dup] = handle(rebuilt, bet(bet_id="jail"))
    assert isinstance(dup, BetRejected) and dup.payload.code == "DUPLICATE_BET"


def test_a_profile_without_the_choice_refuses_a_zero_option_naming_the_field():
    t = TableSession(T)
    handle(t, cmd(OpenTable, payload=TableOpenedData(
        game="roulette", variant="european", seating="open", profile="AR-RUL",
        currency="ARS", min_bet=100, max_bet=50_000)))
    handle(t, cmd(OpenRound))
    [refused] = handle(t, bet(kind="red", numbers=(), currency="ARS", zero_option="prison"))
    assert refused.payload.code == "INVALID_BET"
    assert refused.payload.field == "payload.bet.zero_option"
    assert "AR" in refused.payload.reason

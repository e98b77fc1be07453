"""A CCTV correction of a craps roll (payout hold, seed 002 §1.3, seed 004 RG §6): the roll
is re-decided with the true dice in the state it was thrown in, through the rules engine. One-
roll bets and bets both rolls decide are re-settled exactly; what the wrong call left for later
rolls (a point on the wrong number, a bet still working) is listed for the pit manager."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from contracts.payouts import PayoutsReleased, SettlementCorrected
from contracts.vision import (
    VerificationRequested,
    VerificationRequestedData,
    VerificationResolved,
    VerificationResolvedData,
    hold_deadline,
)
from services.table.domain import TableSession
from services.table.games.craps import CRAPS, MINI_CRAPS
from tests.table.test_craps import bet, opened, roll
from tests.table.unit import T, hold, release, resolve

DECLARED = datetime(2026, 11, 21, 20, 1, tzinfo=UTC)


def requested(called: str, round_id: str = f"{T}.1") -> VerificationRequested:
    return VerificationRequested(
        aggregate_id="chk-1", sequence=3, occurred_at=DECLARED, producer="vision-service",
        correlation_id="chk-1", payload=VerificationRequestedData(
            table_id=T, round_id=round_id, kind="dice", dealer_result=called, read_result=None,
            confidence=0.4, evidence_sha256="0" * 64, evidence_uri="e.png",
            reason="LOW_CONFIDENCE", detail="dice unclear", hold_deadline=hold_deadline(DECLARED)))


def resolved(called: str, true: str, round_id: str = f"{T}.1",
             after: timedelta = timedelta(minutes=5)) -> VerificationResolved:
    return VerificationResolved(
        aggregate_id="chk-1", sequence=4, occurred_at=DECLARED + after, producer="vision-service",
        correlation_id="chk-1", payload=VerificationResolvedData(
            table_id=T, round_id=round_id, kind="dice", outcome="CORRECTED",
            dealer_result=called, result=true, resolved_by="S7", note="CCTV camera 2",
            resolved_at=DECLARED + after, hold_deadline=hold_deadline(DECLARED),
            within_hold=after <= timedelta(minutes=30)))


def corrected(events: list) -> SettlementCorrected:
    [fixed] = [e for e in events if isinstance(e, SettlementCorrected)]
    return fixed


@pytest.mark.parametrize("game", ["craps", "mini_craps"])
def test_a_field_bet_on_a_2_called_as_3_is_paid_the_2_with_its_rule(game):
    table = opened(game=game)
    roll(table, 1, 2, bet("p", "pass_line"), bet("f", "field", 1000, seat=3))  # craps 3
    hold(table, requested("1-2"))
    events = resolve(table, resolved("1-2", "1-1"))
    p = corrected(events).payload
    assert (p.pocket_before, p.pocket_after, p.after_payment) == ("1+2", "1+1", False)
    by_bet = {c.bet_id: c for c in p.corrections}
    assert set(by_bet) == {"f"}         # the pass line loses on 2 as on 3: no change
    f = by_bet["f"]
    assert (f.outcome_before, f.outcome_after) == ("win", "win")
    assert (f.paid_before.amount, f.paid_after.amount) == (2000, 3000)   # 1:1, then 2 pays 2:1
    assert f.rule.startswith("seed 000 §3.1") and p.paid_delta == 1000
    assert p.house_win_delta == -1000 and p.for_pit_manager == () and p.game_note == ""
    [released] = [e for e in events if isinstance(e, PayoutsReleased)]
    assert released.payload.released.amount == 3000     # the corrected field payout


def test_a_natural_7_called_as_11_changes_nothing_both_win_the_pass_line():
    table = opened()
    roll(table, 5, 6, bet("p", "pass_line"))
    hold(table, requested("5-6"))
    p = corrected(resolve(table, resolved("5-6", "3-4"))).payload
    assert p.corrections == () and p.for_pit_manager == () and p.paid_delta == 0
    assert p.pocket_after == "3+4" and p.game_note == ""


def test_a_come_out_7_called_as_6_resettles_one_roll_bets_and_lists_the_pass_line():
    table = opened()
    roll(table, 2, 4, bet("p", "pass_line"), bet("f", "field", seat=3), bet("s", "any_seven",
                                                                              seat=5))
    roll(table, 6, 6, bet("h", "horn", 400, seat=3),   # a later roll on the wrong point 6
         bet("o", "odds", 1000, on="p"))              # odds behind the wrong point
    roll(table, 3, 3)                                  # the pass line "wins" its wrong point
    hold(table, requested("2-4"))
    p = corrected(resolve(table, resolved("2-4", "3-4"))).payload
    by_bet = {c.bet_id: c for c in p.corrections}
    assert set(by_bet) == {"s"}                        # field loses on 6 and on 7
    s = by_bet["s"]
    assert (s.outcome_before, s.paid_before.amount) == ("lose", 0)
    assert (s.outcome_after, s.paid_after.amount) == ("win", 6000)  # any seven, BO 5:1
    assert s.rule.startswith("seed 000") and p.paid_delta == 6000
    line, odds = p.for_pit_manager
    assert (odds.bet_id, odds.later_round, odds.outcome_true) == ("o", f"{T}.3", None)
    assert odds.later_paid and odds.later_paid.amount == 2200 and "behind p" in odds.reason
    assert (line.bet_id, line.kind, line.outcome_called, line.paid_called.amount) == (
        "p", "pass_line", None, 0)
    assert (line.outcome_true, line.paid_true and line.paid_true.amount) == ("win", 2000)
    assert line.later_round == f"{T}.3" and line.later_paid and line.later_paid.amount == 2000
    assert "left it working on the 6" in line.reason and line.rule.startswith("seed 000")
    assert "point ON 6" in p.game_note and "OFF" in p.game_note
    assert table.play.point is None                    # the table plays on as it was played


def test_the_same_correction_twice_is_applied_once():
    table = opened()
    roll(table, 1, 2, bet("p", "pass_line"), bet("f", "field"))
    hold(table, requested("1-2"))
    first = resolve(table, resolved("1-2", "1-1"))
    assert corrected(first).payload.paid_delta == 1000
    assert resolve(table, resolved("1-2", "1-1")) == []
    assert table.rounds[f"{T}.1"].paid("f") == ("win", 3000)


def test_a_correction_after_the_payment_says_so():
    table = opened()
    roll(table, 1, 2, bet("p", "pass_line"), bet("f", "field"))
    hold(table, requested("1-2"))
    release(table, hold_deadline(DECLARED))                       # the 30 minutes run out
    events = resolve(table, resolved("1-2", "1-1", after=timedelta(minutes=40)))
    assert [type(e) for e in events] == [SettlementCorrected]     # nothing held to release
    p = corrected(events).payload
    assert p.after_payment is True and p.paid_delta == 1000


@pytest.mark.parametrize("result", ["00", "17", "7-1", "0-3", "3+", "34", ""])
def test_a_result_that_is_not_a_roll_is_refused(result):
    assert not CRAPS.is_result(opened().cfg, result)
    assert not MINI_CRAPS.is_result(opened(game="mini_craps").cfg, result)


def test_a_roll_result_is_accepted_in_either_spelling_and_stored_sorted():
    cfg = opened().cfg
    assert CRAPS.is_result(cfg, "6-6") and CRAPS.is_result(cfg, "4+3")
    assert CRAPS.result_key(cfg, "4-3") == CRAPS.result_key(cfg, "3+4") == "3+4"


def test_the_session_ignores_a_correction_to_something_not_a_roll_or_to_the_same_dice():
    table = opened()
    roll(table, 4, 3, bet("p", "pass_line"))            # a natural: the pass line is held
    hold(table, requested("3-4"))
    [released] = resolve(table, resolved("3-4", "3-4").model_copy(update={
        "payload": resolved("3-4", "3-4").payload.model_copy(update={"result": "00"})}))
    assert isinstance(released, PayoutsReleased)      # the hold is released, no re-settlement
    table2 = opened()
    roll(table2, 4, 3, bet("p", "pass_line"))
    assert resolve(table2, resolved("3-4", "3-4")) == []   # the same dice in another order


def test_a_place_bet_the_call_paid_is_left_to_the_pit_manager_and_the_table_rebuilds():
    table = opened()
    roll(table, 2, 2, bet("p", "pass_line"))                       # point 4
    roll(table, 3, 3, bet("six", "place", 1200, number=6, seat=3))  # called 6: place 6 wins
    hold(table, requested("3-3", round_id=f"{T}.2"))
    p = corrected(resolve(table, resolved("3-3", "2-3", round_id=f"{T}.2"))).payload
    [six] = p.for_pit_manager
    assert (six.bet_id, six.outcome_called, six.outcome_true, six.paid_true) == (
        "six", "win", None, None)
    assert six.paid_called.amount == 2600 and p.corrections == ()  # 7:6, not recovered
    again = TableSession(T).load_snapshot(table.version, table.snapshot())
    assert again.play == table.play and again.rounds[f"{T}.2"].pocket == "2+3"
    assert again.play.thrown[f"{T}.2"].dice == (3, 3) and again.play.thrown[f"{T}.2"].point == 4


def test_a_schema_2_correction_decodes_with_nothing_left_to_the_pit_manager():
    from contracts.codec import decode, encode
    from contracts.payouts import SettlementCorrectedV2

    table = opened()
    roll(table, 1, 2, bet("p", "pass_line"), bet("f", "field"))
    hold(table, requested("1-2"))
    fixed = corrected(resolve(table, resolved("1-2", "1-1")))
    body = fixed.model_dump(mode="json")
    for schema_3 in ("for_pit_manager", "game_note"):
        body["payload"].pop(schema_3)
    body["payload"].update(pocket_before="17", pocket_after="18")   # schema 2: roulette only
    again = decode(encode(SettlementCorrectedV2.model_validate({**body, "schema_version": 2})))
    assert isinstance(again, SettlementCorrected) and again.schema_version == 3
    assert again.payload.for_pit_manager == () and again.payload.game_note == ""
    assert again.payload.corrections == fixed.payload.corrections


def test_through_the_handlers_the_correction_is_published_once_and_the_table_rebuilds():
    from contracts.table import OpenRound, OpenTable, SeatData, SeatPlayer
    from contracts.topics import TABLE_EVENTS_TOPIC
    from services.runtime.testing import MemoryBus
    from tests.table.test_craps_handlers import CONFIG, a_roll
    from tests.table.test_handlers import deliver, new_store, run
    from tests.table.unit import cmd

    bus = MemoryBus()
    store = new_store(bus)
    run(store.own_all())
    run(deliver(store, cmd(OpenTable, payload=CONFIG),
                cmd(SeatPlayer, payload=SeatData(seat=1, player_id="P1")), cmd(OpenRound),
                bet("p", "pass_line"), bet("f", "field"), *a_roll(1, (1, 2))))
    request, resolution = requested("1-2"), resolved("1-2", "1-1")
    run(deliver(store, request, resolution))
    run(deliver(store, resolution))                               # redelivered
    published = bus.messages(TABLE_EVENTS_TOPIC)
    [fixed] = [m for m in published if isinstance(m, SettlementCorrected)]
    assert fixed.payload.paid_delta == 1000 and fixed.payload.pocket_after == "1+1"
    again = new_store(bus)
    run(again.own_all())
    rebuilt = again.aggregates[T]
    assert rebuilt.play == store.aggregates[T].play
    assert rebuilt.rounds[f"{T}.1"].paid("f") == ("win", 3000)

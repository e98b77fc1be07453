"""Payout holds and corrections in the table aggregate, without a broker (seed 002 §1.3; seed
004 RG §6; «en prisión», seed 000 §4.1.4.2 item 11)."""
from datetime import UTC, datetime, timedelta

import pytest

from contracts.payouts import PayoutsHeld, PayoutsNotHeld, PayoutsReleased, SettlementCorrected
from contracts.table import (
    BetSettled,
    CloseBets,
    OpenRound,
    OpenTable,
    RecordSpin,
    RecordSpinData,
    RoundSettled,
    TableOpenedData,
)
from contracts.vision import (
    VerificationRequested,
    VerificationRequestedData,
    VerificationResolved,
    VerificationResolvedData,
    hold_deadline,
)
from services.table.domain import KEEP_ROUNDS, TableSession
from tests.table.unit import T, bet, cmd, handle, hold, play, release, resolve

DECLARED = datetime(2026, 11, 21, 20, 1, tzinfo=UTC)
DEADLINE = hold_deadline(DECLARED)


def requested(round_id="RUL-01.1", check="chk-1", declared=DECLARED):
    return VerificationRequested(
        aggregate_id=check, sequence=3, occurred_at=declared, producer="vision-service",
        correlation_id=check, payload=VerificationRequestedData(
            table_id=T, round_id=round_id, kind="wheel", dealer_result="17", read_result="18",
            confidence=0.9, evidence_sha256="0" * 64, evidence_uri="e.png", reason="MISMATCH",
            detail="camera read 18", hold_deadline=hold_deadline(declared)))


def resolved(result, *, outcome="CORRECTED", round_id="RUL-01.1", check="chk-1",
             after=timedelta(minutes=5)):
    return VerificationResolved(
        aggregate_id=check, sequence=4, occurred_at=DECLARED + after, producer="vision-service",
        correlation_id=check, payload=VerificationResolvedData(
            table_id=T, round_id=round_id, kind="wheel", outcome=outcome, dealer_result="17",
            result=result, resolved_by="S7", note="CCTV camera 3", resolved_at=DECLARED + after,
            hold_deadline=DEADLINE, within_hold=after <= timedelta(minutes=30)))


def test_the_winning_payouts_of_a_round_under_verification_are_held(table):
    play(table, bet(bet_id="win", amount=1000), bet(bet_id="lose", numbers=("18",)), pocket="17")
    [held] = hold(table, requested())
    assert isinstance(held, PayoutsHeld)
    assert held.payload.bet_ids == ("win",) and held.payload.held.amount == 36_000
    assert held.payload.deadline == DEADLINE
    assert held.payload.rule == "seed 002 §1.3; seed 004 RG §6"
    assert hold(table, requested()) == []  # redelivered: held once


def test_upheld_releases_the_same_payouts_and_changes_no_settlement(table):
    play(table, bet(bet_id="win"), pocket="17")
    hold(table, requested())
    [released] = resolve(table, resolved("17", outcome="UPHELD"))
    assert isinstance(released, PayoutsReleased)
    p = released.payload
    assert (p.outcome, p.bet_ids, p.released.amount, p.within_hold) == (
        "UPHELD", ("win",), 36_000, True)
    assert p.released_by == "S7"
    assert resolve(table, resolved("17", outcome="UPHELD")) == []


def test_corrected_result_resettles_the_round_bet_by_bet_and_releases_the_right_winners(table):
    play(table, bet(bet_id="on17"), bet(bet_id="on18", numbers=("18",)),
         bet(bet_id="red", kind="red", numbers=()), pocket="17")   # 17 black, 18 red
    hold(table, requested())
    fixed, released = resolve(table, resolved("18"))
    assert isinstance(fixed, SettlementCorrected)
    p = fixed.payload
    assert (p.pocket_before, p.pocket_after, p.corrected_by) == ("17", "18", "S7")
    by_bet = {c.bet_id: c for c in p.corrections}
    assert (by_bet["on17"].paid_before.amount, by_bet["on17"].paid_after.amount) == (36_000, 0)
    assert (by_bet["on18"].paid_before.amount, by_bet["on18"].paid_after.amount) == (0, 36_000)
    assert (by_bet["red"].outcome_before, by_bet["red"].outcome_after) == ("lose", "win")
    assert by_bet["red"].paid_after.amount == 2000 and by_bet["red"].rule.startswith("seed ")
    assert p.paid_delta == 2000 and p.house_win_delta == -2000
    assert released.payload.outcome == "CORRECTED"
    assert set(released.payload.bet_ids) == {"on18", "red"}
    assert released.payload.released.amount == 38_000


def test_a_hold_expires_after_30_minutes_and_a_late_correction_still_resettles(table):
    play(table, bet(bet_id="on17"), pocket="17")
    hold(table, requested())
    assert release(table, DEADLINE - timedelta(seconds=10)) == []
    [expired] = release(table, DEADLINE - timedelta(seconds=3), margin=timedelta(seconds=5))
    assert expired.payload.outcome == "EXPIRED" and expired.payload.within_hold
    assert expired.payload.released.amount == 36_000 and expired.occurred_at < DEADLINE
    assert release(table, DEADLINE + timedelta(hours=1)) == []
    [fixed] = resolve(table, resolved("20", after=timedelta(minutes=45)))
    assert isinstance(fixed, SettlementCorrected) and fixed.payload.paid_delta == -36_000


def test_the_table_keeps_playing_while_a_hold_is_open(table):
    play(table, bet(bet_id="on17"), pocket="17")
    hold(table, requested())
    events = play(table, bet(bet_id="next", numbers=("5",)), pocket="5")
    assert isinstance(events[-1], RoundSettled) and events[-1].payload.round_number == 2
    [released] = resolve(table, resolved("17", outcome="UPHELD"))
    assert released.payload.round_id == "RUL-01.1"


def test_correction_to_zero_imprisons_and_lets_the_next_spin_decide(table):
    play(table, bet(bet_id="jail", kind="red", numbers=(), zero_option="prison"), pocket="3")
    hold(table, requested())
    [fixed, _] = resolve(table, resolved("0"))
    [fix] = fixed.payload.corrections
    assert (fix.outcome_before, fix.outcome_after, fix.decided_in) == ("win", "prison", None)
    assert fix.paid_after.amount == 0 and set(table.prisoners) == {"jail"}
    events = play(table, pocket="1")  # red: the stake is freed
    freed = next(e.payload for e in events if isinstance(e, BetSettled))
    assert (freed.bet_id, freed.outcome, freed.imprisoned_from) == ("jail", "push", "RUL-01.1")


def test_correction_to_zero_after_the_next_spin_uses_that_spin(table):
    play(table, bet(bet_id="jail", kind="red", numbers=(), zero_option="prison"), pocket="3")
    hold(table, requested())
    play(table, pocket="2")   # black: a stake in prison would have lost here
    [fixed, _] = resolve(table, resolved("0"))
    [fix] = fixed.payload.corrections
    assert (fix.outcome_after, fix.paid_after.amount, fix.decided_in) == ("lose", 0, "RUL-01.2")
    assert fix.paid_before.amount == 2000 and table.prisoners == {}


def test_correction_away_from_zero_frees_a_stake_the_wrong_result_imprisoned(table):
    play(table, bet(bet_id="jail", kind="red", numbers=(), zero_option="prison"), pocket="0")
    [not_held] = hold(table, requested())   # a stake in prison is no winning payout to hold
    assert not_held.payload.why == "NOTHING_TO_HOLD"
    play(table, pocket="1")   # the imprisoned stake was freed: paid 1000
    [fixed] = resolve(table, resolved("5"))   # red: the bet had simply won
    assert fixed.payload.after_payment is True
    [fix] = fixed.payload.corrections
    assert (fix.outcome_before, fix.paid_before.amount) == ("push", 1000)
    assert (fix.outcome_after, fix.paid_after.amount) == ("win", 2000)


def test_holds_and_corrections_are_rebuilt_from_the_log():
    table, log = TableSession(T), []
    for c in (cmd(OpenTable, payload=TableOpenedData(
                  game="roulette", variant="european", seating="open", profile="BO",
                  currency="BOB", min_bet=100, max_bet=50_000)),
              cmd(OpenRound), bet(bet_id="on17"), cmd(CloseBets),
              cmd(RecordSpin, payload=RecordSpinData(pocket="17"))):
        log += handle(table, c)
    log += hold(table, requested())
    log += resolve(table, resolved("18"))
    rebuilt = TableSession.rebuild(T, log)
    rnd = rebuilt.rounds["RUL-01.1"]
    assert rnd.pocket == "18" and rnd.resolved and not rnd.hold_open
    assert rnd.paid("on17") == ("lose", 0) and rebuilt.version == table.version
    assert resolve(rebuilt, resolved("18")) == []  # a redelivered resolution changes nothing


def test_unknown_rounds_and_wrong_kinds_of_result_are_ignored(table):
    play(table, bet(bet_id="on17"), pocket="17")
    assert hold(table, requested(round_id="RUL-09.4")) == []
    hold(table, requested())
    [released] = resolve(table, resolved("00"))   # not on a european wheel: nothing re-settled
    assert released.payload.outcome == "CORRECTED" and released.payload.bet_ids == ("on17",)


def test_old_rounds_are_forgotten_but_a_round_waiting_for_surveillance_is_kept(table):
    play(table, bet(bet_id="on17"), pocket="17")
    hold(table, requested())
    for _ in range(KEEP_ROUNDS + 5):
        play(table, pocket="1")
    assert "RUL-01.2" not in table.rounds and "RUL-01.1" in table.rounds
    assert len(table.rounds) <= KEEP_ROUNDS + 1


@pytest.mark.parametrize("after, within", [(timedelta(minutes=29), True),
                                           (timedelta(minutes=31), False)])
def test_release_says_whether_it_came_within_the_30_minutes(table, after, within):
    play(table, bet(bet_id="on17"), pocket="17")
    hold(table, requested())
    [released] = resolve(table, resolved("17", outcome="UPHELD", after=after))
    assert released.payload.within_hold is within


# ----- issue 12: the hold under faults ---------------------------------------------------------

def test_a_request_after_the_deadline_holds_nothing_and_is_a_review_after_payment(table):
    """The vision service, restarted with a backlog, asks after the deadline: the payouts were
    already due, so no hold starts; the record says the check is a review after payment."""
    play(table, bet(bet_id="win"), pocket="17")
    late = DEADLINE + timedelta(seconds=1)
    [not_held] = hold(table, requested(), now=late)
    assert isinstance(not_held, PayoutsNotHeld)
    p = not_held.payload
    assert (p.why, p.bet_ids, p.paid.amount, p.review_after_payment) == (
        "DEADLINE_PASSED", ("win",), 36_000, True)
    assert not_held.occurred_at == late and p.requested_at == DECLARED
    assert not table.rounds["RUL-01.1"].hold_open
    assert hold(table, requested(), now=late) == []     # redelivered: recorded once
    assert release(table, DEADLINE + timedelta(hours=1)) == []  # nothing to release
    [fixed] = resolve(table, resolved("18"), now=late + timedelta(minutes=3))
    assert isinstance(fixed, SettlementCorrected) and fixed.payload.after_payment is True


def test_a_request_exactly_at_the_deadline_holds_nothing(table):
    play(table, bet(bet_id="win"), pocket="17")
    [not_held] = hold(table, requested(), now=DEADLINE)
    assert isinstance(not_held, PayoutsNotHeld) and not_held.payload.why == "DEADLINE_PASSED"


def test_a_hold_is_recorded_at_the_time_the_table_started_it_not_the_declaration(table):
    play(table, bet(bet_id="win"), pocket="17")
    got = DECLARED + timedelta(minutes=2)
    [held] = hold(table, requested(), now=got)
    assert isinstance(held, PayoutsHeld) and held.occurred_at == got


def test_a_round_with_no_winning_payouts_starts_no_hold(table):
    play(table, bet(bet_id="lose", numbers=("18",)), pocket="17")
    [not_held] = hold(table, requested())
    assert isinstance(not_held, PayoutsNotHeld)
    assert (not_held.payload.why, not_held.payload.paid.amount) == ("NOTHING_TO_HOLD", 0)
    assert not any(isinstance(e, PayoutsHeld) for e in hold(table, requested()))


def test_a_resolve_decided_after_the_release_is_not_within_the_hold(table):
    """The officer typed the resolve at minute 5 while the vision service was down; the check
    reached the table after the hold had expired and been paid: the correction is after
    payment, whatever the command's time says."""
    play(table, bet(bet_id="on17"), pocket="17")
    hold(table, requested())
    [expired] = release(table, DEADLINE)
    assert expired.payload.outcome == "EXPIRED" and expired.payload.within_hold
    typed_at_minute_5 = resolved("18", after=timedelta(minutes=5))
    assert typed_at_minute_5.payload.within_hold   # what the vision service said
    [fixed] = resolve(table, typed_at_minute_5, now=DEADLINE + timedelta(seconds=90))
    assert isinstance(fixed, SettlementCorrected)
    assert fixed.payload.after_payment is True
    assert fixed.occurred_at == DEADLINE + timedelta(seconds=90)


def test_a_release_decided_after_the_deadline_is_late_whatever_the_command_time(table):
    """The table service was down over the deadline: the resolve it then applies releases the
    hold late, at the time it does so."""
    play(table, bet(bet_id="on17"), pocket="17")
    hold(table, requested())
    now = DEADLINE + timedelta(seconds=40)
    [released] = resolve(table, resolved("17", outcome="UPHELD", after=timedelta(minutes=5)),
                         now=now)
    assert isinstance(released, PayoutsReleased)
    assert released.payload.within_hold is False and released.occurred_at == now


def test_a_correction_decided_while_the_payouts_are_held_is_not_after_payment(table):
    play(table, bet(bet_id="on17"), pocket="17")
    hold(table, requested())
    fixed, released = resolve(table, resolved("18"))
    assert fixed.payload.after_payment is False and released.payload.within_hold


def test_a_round_under_review_after_payment_is_rebuilt_and_kept(table):
    play(table, bet(bet_id="win"), pocket="17")
    log = hold(table, requested(), now=DEADLINE + timedelta(minutes=1))
    for _ in range(KEEP_ROUNDS + 5):
        play(table, pocket="1")
    assert table.rounds["RUL-01.1"].not_held      # still there for a correction
    restored = TableSession(T).load_snapshot(table.version, table.snapshot())
    assert restored.rounds["RUL-01.1"].not_held
    assert hold(restored, requested(), now=DEADLINE + timedelta(minutes=2)) == []
    assert isinstance(log[0], PayoutsNotHeld)

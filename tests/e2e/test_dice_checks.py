"""Craps rolls checked on CCTV, on a real broker: the simulated dice camera renders each roll,
the stickman calls it (sometimes wrongly), the table settles what was called, and the vision
service reads the frame with OpenCV and checks the call against it. A wrong call or a frame that
cannot decide holds the roll's winning payouts for surveillance (seed 002 §1.3; seed 004 RG §6),
as at the wheel. Surveillance corrects one wrong call to the true dice and the table re-settles
that roll."""
from __future__ import annotations

import asyncio
import random

import pytest

import contracts
from contracts.payouts import PayoutsHeld, PayoutsNotHeld, SettlementCorrected
from contracts.table import BetSettled, DiceRolled
from contracts.topics import TABLE_EVENTS_TOPIC, VISION_CHECKS_TOPIC
from contracts.vision import ResultConfirmed, ResultRead, VerificationRequested
from services.simulator.app import simulate
from services.simulator.cameras import Cameras, DiceShot
from tests.e2e.floor import query, read_topic, running_services, wait_for
from tests.e2e.test_vision_checks import casino

ROLLS = 16


class RecordingCameras(Cameras):
    """The dice camera, remembering what each frame really shows and what the stickman called."""

    def __init__(self, frames_dir, calibrations_dir) -> None:
        super().__init__(frames_dir, dealer_error_rate=0.4, no_decision_rate=0.1,
                         calibrations_dir=calibrations_dir)
        self.truth: dict[str, tuple[int, int]] = {}
        self.unreadable: set[str] = set()

    def shoot_dice(self, table_id: str, correlation_id: str, rng: random.Random) -> DiceShot:
        shot = super().shoot_dice(table_id, correlation_id, rng)
        self.truth[correlation_id] = shot.true_dice
        if shot.case != "dice":
            self.unreadable.add(correlation_id)
        return shot


@pytest.fixture(scope="module")
def rolled(floor, tmp_path_factory):
    root = tmp_path_factory.mktemp("dice")
    db, evidence = root / "floor.duckdb", root / "evidence"
    cameras = RecordingCameras(root / "frames", floor.var_dir / "calibrations")

    async def play() -> None:
        async with running_services(floor, db, evidence=evidence):
            await simulate(floor, tables=1, rounds=ROLLS, rate=0, seed=3, game="craps",
                           cameras=cameras)
            await wait_for(lambda: query(db, "SELECT count(*) FROM round_checks WHERE status "
                                             "<> 'pending'") == [(ROLLS,)], 180,
                           "every roll checked")
            # ... and the table has answered every verification (held or not held): the
            # table service reads the checks after the projector may have seen them decided
            await asyncio.wait_for(table_answered(floor.bootstrap), 60)
            await surveillance_corrects_a_wrong_call(floor, db, cameras)

    asyncio.run(play())
    checks = [contracts.decode(r.value)
              for r in read_topic(floor.bootstrap, VISION_CHECKS_TOPIC.name)]
    table = [contracts.decode(r.value)
             for r in read_topic(floor.bootstrap, TABLE_EVENTS_TOPIC.name)]
    return cameras, checks, table


async def surveillance_corrects_a_wrong_call(floor, db, cameras: RecordingCameras) -> None:
    """The surveillance room corrects one wrong call to the dice the frame really shows
    (`casino surveillance resolve --corrected 3-4`); the table re-settles that roll."""
    wrong = sorted(c for c, called in query(db, "SELECT check_id, dealer_result FROM "
                                                "round_checks WHERE status = 'verification'")
                   if called != "-".join(map(str, sorted(cameras.truth[c]))))
    assert wrong, "the stickman's mistakes must give surveillance a call to correct"
    check, true = wrong[0], "-".join(map(str, sorted(cameras.truth[wrong[0]])))
    said = await casino("surveillance", "resolve", check, "--corrected", true, "--by", "SURV-1",
                        "--key", str(floor.identity_dir / "surveillance.key"),
                        "--bootstrap", floor.bootstrap)
    assert f"resolved: CORRECTED {true}" in said, said
    await wait_for(lambda: query(db, "SELECT count(*) FROM rounds r JOIN round_checks c USING "
                                     f"(round_id) WHERE c.check_id = '{check}' AND "
                                     "r.corrected_pocket IS NOT NULL") == [(1,)], 60,
                   "the corrected roll re-settled and projected")


def holds_answered(bootstrap: str) -> bool:
    """Every VerificationRequested has its PayoutsHeld or PayoutsNotHeld in the table's log."""
    asked = sum(isinstance(contracts.decode(r.value), VerificationRequested)
                for r in read_topic(bootstrap, VISION_CHECKS_TOPIC.name))
    answered = sum(isinstance(contracts.decode(r.value), (PayoutsHeld, PayoutsNotHeld))
                   for r in read_topic(bootstrap, TABLE_EVENTS_TOPIC.name))
    return answered >= asked


async def table_answered(bootstrap: str) -> None:
    while not await asyncio.to_thread(holds_answered, bootstrap):
        await asyncio.sleep(0.5)


def _called(table: list) -> dict[str, tuple[int, int]]:
    return {e.correlation_id: (min(e.payload.dice), max(e.payload.dice)) for e in table
            if isinstance(e, DiceRolled)}


def test_every_roll_is_checked_once(rolled):
    cameras, checks, table = rolled
    decided = [e.aggregate_id for e in checks
               if isinstance(e, (ResultConfirmed, VerificationRequested))]
    assert sorted(decided) == sorted(cameras.truth) == sorted(_called(table))


def test_a_wrong_call_is_never_confirmed(rolled):
    cameras, checks, table = rolled
    called = _called(table)
    wrong = {c for c, dice in called.items() if dice != tuple(sorted(cameras.truth[c]))}
    confirmed = {e.aggregate_id for e in checks if isinstance(e, ResultConfirmed)}
    verified = {e.aggregate_id: e for e in checks if isinstance(e, VerificationRequested)}
    assert wrong, "the stickman's mistakes must give the check something to catch"
    assert not wrong & confirmed
    assert wrong <= set(verified)
    assert confirmed, "right calls on readable frames are confirmed by the camera"
    for c in confirmed:
        assert called[c] == tuple(sorted(cameras.truth[c])) and c not in cameras.unreadable


def test_the_reader_reads_what_the_frame_shows_or_abstains(rolled):
    cameras, checks, _table = rolled
    reads = {e.correlation_id: e.payload.reading for e in checks if isinstance(e, ResultRead)}
    assert sorted(reads) == sorted(cameras.truth)
    for corr, reading in reads.items():
        if corr in cameras.unreadable:
            assert reading.no_decision, f"a cocked die must not be read: {reading}"
        elif not reading.no_decision:
            assert tuple(sorted(reading.values or ())) == tuple(sorted(cameras.truth[corr]))


def test_a_roll_under_verification_holds_its_winning_payouts(rolled):
    _cameras, checks, table = rolled
    verified = {e.aggregate_id for e in checks if isinstance(e, VerificationRequested)}
    round_of = {e.correlation_id: e.payload.round_id for e in table if isinstance(e, DiceRolled)}
    won: dict[str, int] = {}
    for e in table:
        if isinstance(e, BetSettled) and e.payload.paid.amount > 0:
            won[e.payload.round_id] = won.get(e.payload.round_id, 0) + e.payload.paid.amount
    held = {e.payload.round_id: e.payload.held.amount for e in table if isinstance(e, PayoutsHeld)}
    not_held = {e.payload.round_id: e.payload.why for e in table
                if isinstance(e, PayoutsNotHeld)}
    assert held, "some verified roll must have had winners to hold"
    for corr in verified:
        round_id = round_of[corr]
        if round_id in won:
            assert held[round_id] == won[round_id]
        else:
            assert not_held[round_id] == "NOTHING_TO_HOLD"


def test_a_corrected_roll_is_re_settled_on_the_true_dice(rolled):
    cameras, checks, table = rolled
    [fixed] = [e for e in table if isinstance(e, SettlementCorrected)]
    p = fixed.payload
    a, b = sorted(cameras.truth[fixed.correlation_id])
    assert p.pocket_after == f"{a}+{b}" and p.pocket_before != p.pocket_after
    held = {e.payload.round_id for e in table if isinstance(e, PayoutsHeld)}
    assert p.corrected_by == "SURV-1"
    assert p.after_payment is (p.round_id not in held)   # a roll with no winners held nothing
    assert p.paid_delta == sum(c.paid_after.amount - c.paid_before.amount
                               for c in p.corrections)
    assert all(c.rule.startswith("seed 000") for c in p.corrections)
    decided = {e.payload.bet_id for e in table
               if isinstance(e, BetSettled) and e.payload.round_id == p.round_id}
    assert {c.bet_id for c in p.corrections} <= decided

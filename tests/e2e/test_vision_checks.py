"""Cameras → vision service → checks → projector, on a real broker: every spin's dealer entry
is checked against a real OpenCV reading of a rendered CCTV frame of the wheel. Then the
surveillance room resolves verifications with `casino surveillance resolve`."""
from __future__ import annotations

import asyncio
import hashlib
import random
import sys
from datetime import timedelta
from pathlib import Path

import pytest

import contracts
from contracts.envelope import Actor
from contracts.payouts import PayoutsHeld, PayoutsReleased, SettlementCorrected
from contracts.table import RoundSettled
from contracts.topics import TABLE_EVENTS_TOPIC, VISION_CHECKS_TOPIC
from contracts.vision import (
    ResolutionRefused,
    ResolveVerification,
    ResolveVerificationData,
    ResultConfirmed,
    ResultRead,
    VerificationRequested,
    VerificationResolved,
)
from services.runtime.bus import Bus
from services.simulator.app import simulate
from services.simulator.cameras import Cameras, Shot
from tests.e2e.floor import query, read_topic, running_services, wait_for

TABLES, ROUNDS = 2, 10


class RecordingCameras(Cameras):
    """The simulated cameras, remembering what each frame really shows (the ground truth)."""

    def __init__(self, frames_dir: Path) -> None:
        super().__init__(frames_dir, dealer_error_rate=0.3, no_decision_rate=0.15)
        self.truth: dict[str, str] = {}
        self.moving: set[str] = set()

    def shoot(self, table_id: str, correlation_id: str, rng: random.Random) -> Shot:
        shot = super().shoot(table_id, correlation_id, rng)
        if shot.case != "pocket":
            self.moving.add(correlation_id)
        self.truth[correlation_id] = shot.true_pocket
        return shot


@pytest.fixture(scope="module")
def checked(floor, tmp_path_factory):
    root = tmp_path_factory.mktemp("vision")
    db, evidence = root / "floor.duckdb", root / "evidence"
    cameras = RecordingCameras(root / "frames")

    async def play() -> None:
        async with running_services(floor, db, evidence=evidence):
            await simulate(floor, tables=TABLES, rounds=ROUNDS, rate=0, seed=5, cameras=cameras)
            await wait_for(lambda: query(db, "SELECT count(*) FROM round_checks WHERE status "
                                             "<> 'pending'") == [(TABLES * ROUNDS,)], 240,
                           "every round checked")
            await surveillance_resolves(floor, db)

    asyncio.run(play())
    events = [contracts.decode(r.value)
              for r in read_topic(floor.bootstrap, VISION_CHECKS_TOPIC.name)]
    table_log = [contracts.decode(r.value)
                 for r in read_topic(floor.bootstrap, TABLE_EVENTS_TOPIC.name)]
    return events, cameras, db, evidence, table_log


RESOLVED = "SELECT check_id, outcome, resolved_result, resolved_by FROM round_checks " \
           "WHERE status = 'resolved' ORDER BY outcome"


async def surveillance_resolves(floor, db: Path) -> None:
    """Two verifications resolved with the CLI (one upheld, one corrected to what the camera
    read), and with the CLI and straight on the topic: a resolution of a camera-confirmed
    round (refused), one of an unknown round (dead-lettered), and a redelivered command (no
    effect)."""
    [(corrected, camera)] = query(db, "SELECT check_id, read_result FROM round_checks "
                                      "WHERE reason = 'MISMATCH' ORDER BY check_id LIMIT 1")
    [(upheld,)] = query(db, "SELECT check_id FROM round_checks WHERE status = 'verification' "
                            f"AND check_id <> '{corrected}' ORDER BY check_id LIMIT 1")
    [(confirmed,)] = query(db, "SELECT check_id FROM round_checks WHERE status = 'confirmed' "
                               "LIMIT 1")
    said = await casino("surveillance", "resolve", upheld, "--upheld", "--by", "SURV-1",
                        "--bootstrap", floor.bootstrap)
    assert "resolved: UPHELD" in said and "within the hold, by SURV-1" in said, said
    said = await casino("surveillance", "resolve", corrected, "--corrected", camera, "--by",
                        "SURV-2", "--note", "ball settled in the camera's pocket",
                        "--bootstrap", floor.bootstrap)
    assert f"resolved: CORRECTED {camera}" in said, said
    # The officer sees a refusal or a rejection at once, and the command fails.
    said = await casino("surveillance", "resolve", confirmed, "--upheld", "--by", "SURV-1",
                        "--bootstrap", floor.bootstrap, status=1)
    assert f"refused: target_id: round check {confirmed} was confirmed by camera" in said, said
    said = await casino("surveillance", "resolve", "no-such-round", "--upheld", "--by",
                        "SURV-1", "--bootstrap", floor.bootstrap, status=1)
    assert "rejected (unknown_aggregate): target_id: no round check 'no-such-round'" in said, said
    officer = Actor(employee_id="SURV-1", role="surveillance")
    again = [ResolveVerification(target_id=t, issued_by="test", actor=officer,
                                 payload=ResolveVerificationData(outcome="UPHELD"))
             for t in (confirmed, "no-such-round")]
    bus = Bus(floor, "surveillance-test")
    await bus.broker.connect()
    await bus.publish(again + again)  # each command twice: the second delivery does nothing
    await bus.broker.stop()
    await wait_for(lambda: len(query(db, RESOLVED)) == 2
                   and query(db, "SELECT count(*) FROM rejections WHERE code = "
                                 "'RESOLUTION_REFUSED'") == [(2,)]
                   and query(db, "SELECT count(*) FROM dead_letters WHERE source_topic = "
                                 "'floor.vision.commands'") == [(3,)]
                   and query(db, "SELECT count(*) FROM payout_holds WHERE release IN "
                                 "('UPHELD', 'CORRECTED')") == [(2,)], 60, "resolutions projected")


async def casino(*args: str, status: int = 0) -> str:
    """Run the `casino` command as a person would; its output, once it exits with `status`."""
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "services.cli.main", *args,
                                                stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await proc.communicate()
    assert proc.returncode == status, out.decode()
    return out.decode()


def test_every_round_is_decided_once(checked):
    events, cameras, _db, _ev, _log = checked
    outcomes = [e for e in events if isinstance(e, (ResultConfirmed, VerificationRequested))]
    assert sorted(e.aggregate_id for e in outcomes) == sorted(cameras.truth)


def test_the_reader_sees_what_the_frame_shows_and_never_guesses(checked):
    events, cameras, _db, _ev, _log = checked
    reads = [e for e in events if isinstance(e, ResultRead)]
    assert len(reads) == TABLES * ROUNDS
    for e in reads:
        r = e.payload.reading
        if e.correlation_id in cameras.moving:
            assert r.no_decision, "the ball was still moving: a person must call it"
        elif not r.no_decision:
            assert r.pocket == cameras.truth[e.correlation_id]
    decided = [e for e in reads if not e.payload.reading.no_decision]
    assert len(decided) >= (TABLES * ROUNDS - len(cameras.moving)) * 0.9


def test_confirmations_agree_and_verifications_say_why_with_a_30_minute_hold(checked):
    events, _cameras, _db, _ev, _log = checked
    confirmed = [e.payload for e in events if isinstance(e, ResultConfirmed)]
    requested = [e for e in events if isinstance(e, VerificationRequested)]
    assert confirmed and requested
    assert all(c.dealer_result == c.read_result for c in confirmed)
    for e in requested:
        p = e.payload
        if p.reason == "MISMATCH":
            assert p.read_result and p.read_result != p.dealer_result
        assert p.reason in ("MISMATCH", "NO_DECISION", "LOW_CONFIDENCE")
        assert p.rule == "seed 002 §1.3; seed 004 RG §6"
    assert any(e.payload.reason == "MISMATCH" for e in requested)


def test_hold_deadline_is_thirty_minutes_after_the_dealer_declared(checked):
    events, _cameras, db, _ev, _log = checked
    rows = query(db, "SELECT hold_deadline - declared_at FROM round_checks "
                     "WHERE status IN ('verification', 'resolved')")
    assert rows and all(r[0] == timedelta(minutes=30) for r in rows)


def test_evidence_is_the_exact_frame_and_its_hash_proves_it(checked):
    events, _cameras, _db, evidence, _log = checked
    for e in (e for e in events if isinstance(e, ResultRead)):
        sha = e.payload.evidence_sha256
        stored = Path(e.payload.evidence_uri)
        assert stored.is_relative_to(evidence)
        assert hashlib.sha256(stored.read_bytes()).hexdigest() == sha
        assert stored.read_bytes() == Path(e.payload.frame_uri).read_bytes()


def test_surveillance_upholds_and_corrects_and_the_holds_close(checked):
    events, _cameras, db, _ev, _log = checked
    resolved = {e.aggregate_id: e for e in events if isinstance(e, VerificationResolved)}
    assert sorted(e.payload.outcome for e in resolved.values()) == ["CORRECTED", "UPHELD"]
    for e in resolved.values():
        requested = next(r for r in events if isinstance(r, VerificationRequested)
                         and r.aggregate_id == e.aggregate_id)
        assert e.sequence == requested.sequence + 1 and e.correlation_id == e.aggregate_id
        assert e.actor is not None and e.actor.role == "surveillance"
        assert e.payload.within_hold
        assert e.payload.dealer_result == requested.payload.dealer_result
        if e.payload.outcome == "UPHELD":
            assert e.payload.result == e.payload.dealer_result
        else:
            assert e.payload.result == requested.payload.read_result != e.payload.dealer_result
    rows = {r[0]: r[1:] for r in query(db, RESOLVED)}
    assert {c: (e.payload.outcome, e.payload.result, e.payload.resolved_by)
            for c, e in resolved.items()} == rows
    open_ids = {r[0] for r in query(db, "SELECT check_id FROM round_checks "
                                        "WHERE status = 'verification'")}
    assert not open_ids & set(resolved)


def test_a_camera_confirmed_round_is_refused_once_and_an_unknown_one_dead_lettered(checked):
    events, _cameras, db, _ev, _log = checked
    refusals = [e for e in events if isinstance(e, ResolutionRefused)]
    # One per command (the CLI's and the test's own); the redelivered one refused nothing more.
    assert len({e.causation_id for e in refusals}) == len(refusals) == 2
    for refused in refusals:
        assert refused.payload.field == "target_id"
        assert "confirmed by camera" in refused.payload.reason
    [(code, reason)] = set(query(db, "SELECT code, reason FROM dead_letters "
                                     "WHERE source_topic = 'floor.vision.commands'"))
    assert code == "unknown_aggregate" and "no-such-round" in reason


def test_the_table_service_holds_winning_payouts_and_resettles_the_corrected_round(checked):
    events, _cameras, db, _ev, table_log = checked
    requested = {e.payload.round_id: e for e in events if isinstance(e, VerificationRequested)}
    held = {e.payload.round_id: e.payload for e in table_log if isinstance(e, PayoutsHeld)}
    assert held.keys() == requested.keys()
    settled = {e.payload.round_id: e.payload for e in table_log if isinstance(e, RoundSettled)}
    for round_id, h in held.items():
        assert h.deadline == requested[round_id].payload.hold_deadline
        assert h.check_id == requested[round_id].aggregate_id
        assert h.held.amount <= settled[round_id].paid.amount
    resolved = {e.payload.round_id: e.payload for e in events
                if isinstance(e, VerificationResolved)}
    released = {e.payload.round_id: e.payload for e in table_log if isinstance(e, PayoutsReleased)}
    assert {r: p.outcome for r, p in resolved.items()} == {
        r: p.outcome for r, p in released.items() if p.outcome != "EXPIRED"}
    [fixed] = [e.payload for e in table_log if isinstance(e, SettlementCorrected)]
    corrected = resolved[fixed.round_id]
    assert (fixed.pocket_before, fixed.pocket_after) == (corrected.dealer_result, corrected.result)
    assert fixed.paid_delta == sum(c.paid_after.amount - c.paid_before.amount
                                   for c in fixed.corrections)
    [(pocket, paid)] = query(db, "SELECT corrected_pocket, paid FROM rounds WHERE round_id = "
                                 f"'{fixed.round_id}'")
    assert pocket == corrected.result
    assert paid == settled[fixed.round_id].paid.amount + fixed.paid_delta

"""Cameras → vision service → checks → projector, on a real broker: every spin's dealer entry
is checked against a real OpenCV reading of a rendered CCTV frame of the wheel."""
from __future__ import annotations

import asyncio
import hashlib
import random
from datetime import timedelta
from pathlib import Path

import pytest

import contracts
from contracts.topics import VISION_CHECKS_TOPIC
from contracts.vision import ResultConfirmed, ResultRead, VerificationRequested
from services.simulator.app import simulate
from services.simulator.cameras import Shot, WheelCameras
from tests.e2e.floor import query, read_topic, running_services, wait_for

TABLES, ROUNDS = 2, 10


class RecordingCameras(WheelCameras):
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

    asyncio.run(play())
    events = [contracts.decode(r.value) for r in read_topic(floor.bootstrap, VISION_CHECKS_TOPIC.name)]
    return events, cameras, db, evidence


def test_every_round_is_decided_once(checked):
    events, cameras, _db, _ev = checked
    outcomes = [e for e in events if isinstance(e, (ResultConfirmed, VerificationRequested))]
    assert sorted(e.aggregate_id for e in outcomes) == sorted(cameras.truth)


def test_the_reader_sees_what_the_frame_shows_and_never_guesses(checked):
    events, cameras, _db, _ev = checked
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
    events, _cameras, _db, _ev = checked
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
    events, _cameras, db, _ev = checked
    rows = query(db, "SELECT hold_deadline - declared_at FROM round_checks WHERE status = 'verification'")
    assert rows and all(r[0] == timedelta(minutes=30) for r in rows)


def test_evidence_is_the_exact_frame_and_its_hash_proves_it(checked):
    events, _cameras, _db, evidence = checked
    for e in (e for e in events if isinstance(e, ResultRead)):
        sha = e.payload.evidence_sha256
        stored = Path(e.payload.evidence_uri)
        assert stored.is_relative_to(evidence)
        assert hashlib.sha256(stored.read_bytes()).hexdigest() == sha
        assert stored.read_bytes() == Path(e.payload.frame_uri).read_bytes()

"""The hold's time limit, end to end on a real broker: nobody resolves the verifications, and
the table service's timer releases the held winning payouts when the hold runs out («por un
lapso … que no podrá exceder de 30 minutos», seed 002 §1.3; seed 004 RG §6). The house here
holds for 15 seconds (`casino service vision --hold-minutes`), so the test need not wait 30
minutes; the timer and the events are the production ones."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from click.testing import CliRunner

import contracts
from contracts.payouts import PayoutsHeld, PayoutsNotHeld, PayoutsReleased
from contracts.topics import TABLE_EVENTS_TOPIC
from services.cli.main import casino
from services.simulator.app import simulate
from services.simulator.cameras import Cameras
from services.table.bootstrap import HOLD_MARGIN
from tests.e2e.floor import query, read_topic, running_services, wait_for

HOLD = timedelta(seconds=15)
ROUNDS = 8


def test_unresolved_holds_are_paid_when_the_house_hold_runs_out(floor, tmp_path):
    db, evidence = tmp_path / "floor.duckdb", tmp_path / "evidence"
    cameras = Cameras(tmp_path / "frames", dealer_error_rate=0.5, no_decision_rate=0.0)

    async def play() -> None:
        async with running_services(floor, db, evidence=evidence, hold_limit=HOLD):
            await simulate(floor, tables=1, rounds=ROUNDS, rate=0, seed=11, cameras=cameras)
            await wait_for(lambda: query(db, "SELECT count(*) FROM round_checks WHERE status "
                                             "<> 'pending'") == [(ROUNDS,)], 120,
                           "every round checked")
            await wait_for(lambda: _holds(db) == _verifications(db) > 0, 60,
                           "every round under verification held, then released by the timer")

    asyncio.run(play())
    log = [contracts.decode(r.value) for r in read_topic(floor.bootstrap, TABLE_EVENTS_TOPIC.name)]
    held = {e.payload.round_id: e for e in log if isinstance(e, PayoutsHeld)}
    released = {e.payload.round_id: e for e in log if isinstance(e, PayoutsReleased)}
    assert held, "the dealer's errors must have put some payouts on hold"
    assert set(released) == set(held)  # each hold released once
    # hold only what there is to withhold (issue 12): a round without winners holds nothing
    assert all(h.payload.held.amount > 0 for h in held.values())
    not_held = [e for e in log if isinstance(e, PayoutsNotHeld)]
    assert all(e.payload.why == "NOTHING_TO_HOLD" and e.payload.paid.amount == 0
               for e in not_held)
    assert len(held) + len(not_held) == _verifications(db)
    for round_id, hold in held.items():
        r = released[round_id].payload
        assert (r.outcome, r.released_by) == ("EXPIRED", "table-service")
        assert r.bet_ids == hold.payload.bet_ids and r.released == hold.payload.held
        # Paid by the deadline: the timer releases holds ending within its next two ticks.
        assert r.within_hold
        assert released[round_id].occurred_at <= hold.payload.deadline
        assert hold.payload.deadline - released[round_id].occurred_at <= HOLD_MARGIN + \
            timedelta(seconds=2)
    rows = query(db, "SELECT round_id, release, released, held, within_hold, "
                     "released_by FROM payout_holds WHERE not_held IS NULL ORDER BY round_id")
    assert [(r[0], r[1], r[2], r[4], r[5]) for r in rows] == \
        [(rid, "EXPIRED", held[rid].payload.held.amount, True, "table-service")
         for rid in sorted(held)]
    assert all(r[2] == r[3] for r in rows)  # released what was held


def test_with_the_vision_service_down_a_resolution_is_sent_and_the_officer_told(floor):
    # The services of the test above have stopped; the command waits on the topic for them.
    res = CliRunner().invoke(casino, ["surveillance", "resolve", "RUL-01.1", "--upheld",
                                      "--by", "SURV-9", "--wait", "2",
                                      "--bootstrap", floor.bootstrap])
    assert res.exit_code == 0, res.output
    assert "sent ResolveVerification" in res.output
    assert "no answer from the vision service within 2 s" in res.output


def _verifications(db) -> int:
    return query(db, "SELECT count(*) FROM round_checks WHERE status = 'verification'")[0][0]


def _holds(db) -> int:
    """Holds the projection shows released, and rounds with nothing to hold."""
    return query(db, "SELECT count(*) FROM payout_holds WHERE released_at IS NOT NULL "
                     "OR not_held IS NOT NULL")[0][0]

"""Bad input on the wire: each kind lands in the dead-letter topic with its reason and its
original bytes, bets out of the rules get reason events, and the services keep running —
also across a restart, and when the log shows a sequence gap."""
from __future__ import annotations

import asyncio
import json

import pytest

import contracts
from contracts.envelope import Actor, Event
from contracts.money import Money
from contracts.table import (
    BetSpec,
    CloseBets,
    OpenRound,
    OpenTable,
    PlaceBet,
    PlaceBetData,
    RecordSpin,
    RecordSpinData,
    RoundOpened,
    TableOpenedData,
)
from contracts.topics import DEAD_LETTER_TOPIC, TABLE_COMMANDS_TOPIC, TABLE_EVENTS_TOPIC
from tests.e2e.floor import produce_raw, query, read_topic, running_services, wait_for

T = "DLQ-01"
DEALER = Actor(employee_id="D7", role="dealer")


PIT = Actor(employee_id="PM7", role="pit_manager")


def cmd(cls, **kw):
    return cls(target_id=T, issued_by="test", actor=PIT if cls is OpenTable else DEALER, **kw)


def bet(amount: int, bet_id: str) -> PlaceBet:
    return cmd(PlaceBet, payload=PlaceBetData(bet_id=bet_id, seat=3, player_id="P9", bet=BetSpec(
        kind="straight", numbers=("7",), stake=Money(amount=amount, currency="BOB"))))


def table_events(bootstrap: str) -> list:
    return [e for e in (contracts.decode(r.value)
                        for r in read_topic(bootstrap, TABLE_EVENTS_TOPIC.name))
            if isinstance(e, Event) and e.aggregate_id == T]


def dead_letters(bootstrap: str) -> list:
    return [contracts.decode(r.value) for r in read_topic(bootstrap, DEAD_LETTER_TOPIC.name)]


@pytest.fixture(scope="module")
def session(floor, tmp_path_factory):
    """One table session with bad messages mixed in, then a restart of the services."""
    db = tmp_path_factory.mktemp("proj") / "floor.duckdb"
    valid = json.loads(contracts.encode(bet(1000, "x")))
    valid["payload"]["bet"]["stake"]["amount"] = -500
    bad = {
        "undecodable": b"\x00\x01 definitely not json",
        "unknown_type": json.dumps({"command_type": "TeleportChips", "schema_version": 1}).encode(),
        "invalid_payload": json.dumps(valid).encode(),
        "unknown_aggregate": contracts.encode(
            OpenRound(target_id="NO-SUCH-TABLE", issued_by="test")),
    }
    spin = cmd(RecordSpin, payload=RecordSpinData(pocket="7"))
    good = [cmd(OpenTable, payload=TableOpenedData(
                game="roulette", variant="european", seating="open", profile="BO",
                currency="BOB", min_bet=100, max_bet=50_000)),
            cmd(OpenRound), bet(1000, "ok-1"), bet(90_000, "too-big"), bet(50, "too-small"),
            cmd(CloseBets), bet(500, "late"), spin]

    async def play() -> None:
        async with running_services(floor, db):
            produce_raw(floor.bootstrap, TABLE_COMMANDS_TOPIC.name,
                        [(T.encode(), raw) for raw in bad.values()])
            produce_raw(floor.bootstrap, TABLE_COMMANDS_TOPIC.name,
                        [(T.encode(), contracts.encode(c)) for c in good])
            await wait_for(lambda: query(db, "SELECT count(*) FROM rounds "
                                             "WHERE settled_at IS NOT NULL") == [(1,)],
                           120, "the round settled and projected")
            await wait_for(lambda: len(query(db, "SELECT * FROM dead_letters")) >= len(bad), 60,
                           "dead letters projected")
        # Restart: the table must come back from the log, and a redelivered spin is a no-op.
        async with running_services(floor, db):
            produce_raw(floor.bootstrap, TABLE_COMMANDS_TOPIC.name,
                        [(T.encode(), contracts.encode(spin)),
                         (T.encode(), contracts.encode(cmd(OpenRound)))])
            await wait_for(lambda: any(isinstance(e, RoundOpened) and e.payload.round_number == 2
                                       for e in table_events(floor.bootstrap)),
                           120, "round 2 opened")

    asyncio.run(play())
    return {"bad": bad, "db": db}


def test_each_bad_message_is_dead_lettered_with_reason_and_original_bytes(floor, session):
    letters = {d.code: d for d in dead_letters(floor.bootstrap)}
    for code, raw in session["bad"].items():
        assert code in letters, f"no dead letter for {code}"
        assert letters[code].original() == raw
        assert letters[code].source_topic == TABLE_COMMANDS_TOPIC.name
        assert letters[code].service == "table-service"
    assert "payload.bet.stake.amount" in letters["invalid_payload"].reason
    assert "NO-SUCH-TABLE" in letters["unknown_aggregate"].reason


def test_over_limit_and_late_bets_get_reason_events_and_play_goes_on(floor, session):
    """BO plays an over-maximum bet for the maximum and hands the excess back (seed 002
    §1.2.1.1); under the minimum and after «no más apuestas» are refused."""
    events = table_events(floor.bootstrap)
    kinds = [e.event_type for e in events]
    assert kinds[:10] == ["TableOpened", "RoundOpened", "BetPlaced", "BetPlaced", "BetRejected",
                          "BetsClosed", "BetRejected", "SpinResulted", "BetSettled", "BetSettled"]
    big = events[3].payload
    assert (big.bet_id, big.bet.stake.amount, big.excess_returned.amount, big.limit_rule) == (
        "too-big", 50_000, 40_000, "seed 002 §1.2.1.1")
    under, late = [e.payload for e in events if e.event_type == "BetRejected"]
    assert (under.code, under.bet_id, under.rule) == ("UNDER_MINIMUM", "too-small",
                                                      "seed 002 §1.2.1.1")
    assert (late.code, late.bet_id) == ("BETTING_CLOSED", "late")
    settled = [e.payload for e in events if e.event_type == "BetSettled"]
    assert [(s.bet_id, s.paid.amount) for s in settled] == [("ok-1", 36_000),
                                                            ("too-big", 1_800_000)]


def test_restart_rebuilds_the_table_and_a_redelivered_spin_changes_nothing(floor, session):
    events = table_events(floor.bootstrap)
    assert [e.sequence for e in events] == list(range(1, len(events) + 1))
    assert sum(e.event_type == "SpinResulted" for e in events) == 1
    assert events[-1].event_type == "RoundOpened" and events[-1].payload.round_number == 2


def test_a_sequence_gap_in_the_log_is_reported_not_applied(floor, session):
    last = table_events(floor.bootstrap)[-1]
    forged = last.model_copy(update={"event_id": "forged-gap", "sequence": last.sequence + 5})
    db = session["db"]

    async def project_forged() -> None:
        async with running_services(floor, db):
            produce_raw(floor.bootstrap, TABLE_EVENTS_TOPIC.name,
                        [(T.encode(), contracts.encode(forged))])
            await wait_for(lambda: any(d.code == "sequence_gap"
                                       for d in dead_letters(floor.bootstrap)),
                           120, "the gap dead-lettered")

    asyncio.run(project_forged())
    gap = next(d for d in dead_letters(floor.bootstrap) if d.code == "sequence_gap")
    assert gap.service == "projector" and f"expected sequence {last.sequence + 1}" in gap.reason
    assert query(db, "SELECT count(*) FROM events WHERE event_id = 'forged-gap'") == [(0,)]
    assert query(db, f"SELECT sequence FROM positions WHERE aggregate_id = '{T}'") == [
        (last.sequence,)]

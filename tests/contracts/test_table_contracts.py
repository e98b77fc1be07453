"""Table contracts: the bet kinds are the engine's, and schema-1 TableOpened/OpenTable logs
decode into schema 2 through the upcaster."""
import json
from typing import Any, get_args

from contracts.codec import decode
from contracts.table import (
    BetKind,
    CommandRejected,
    CrapsBetKind,
    OpenTable,
    RouletteBetKind,
    TableOpened,
    TableWheel,
)
from services.rules.craps.bets import KINDS as CRAPS_KINDS
from services.rules.roulette import KINDS, WHEELS

# A TableOpened exactly as the table service wrote it before schema 2.
V1_OPENED: dict[str, Any] = {
    "event_id": "0b7e2c1a-5d4f-4f7e-9c2a-1f3e5d7c9b11", "event_type": "TableOpened",
    "schema_version": 1, "aggregate_type": "table", "aggregate_id": "RUL-01", "sequence": 1,
    "occurred_at": "2026-11-21T20:00:00Z", "recorded_at": "2026-11-21T20:00:00.120000Z",
    "producer": "table-service", "causation_id": "cmd-1", "correlation_id": "corr-1",
    "actor": {"employee_id": "PM001", "role": "pit_manager"},
    "payload": {"game": "roulette", "wheel": "american", "profile": "CL-ARICA",
                "currency": "CLP", "min_bet": 1000, "max_bet": 500000, "seats": 8},
}


def test_the_contract_lists_exactly_the_bet_kinds_the_engine_settles():
    assert set(get_args(RouletteBetKind)) == set(KINDS)
    assert set(get_args(CrapsBetKind)) == set(CRAPS_KINDS)
    assert set(get_args(BetKind)) == set(KINDS) | set(CRAPS_KINDS)


def test_the_contract_opens_every_wheel_the_engine_knows():
    assert set(get_args(TableWheel)) == set(WHEELS)


def test_a_schema_1_table_opened_decodes_as_schema_2_with_the_wheel_as_variant():
    event = decode(json.dumps(V1_OPENED).encode())
    assert isinstance(event, TableOpened) and event.schema_version == 2
    p = event.payload
    assert (p.game, p.variant, p.wheel, p.profile, p.currency) == (
        "roulette", "american", "american", "CL-ARICA", "CLP")
    assert (p.min_bet, p.max_bet, p.seats, p.bet_limits) == (1000, 500000, 8, {})
    assert p.seating == "open"   # schema-1 tables never seated anyone: replay unchanged
    assert event.event_id == V1_OPENED["event_id"] and event.sequence == 1
    assert event.actor is not None and event.actor.role == "pit_manager"


def test_a_schema_1_open_table_command_decodes_as_schema_2():
    raw = {"command_id": "cmd-1", "command_type": "OpenTable", "schema_version": 1,
           "target_id": "RUL-01", "issued_at": "2026-11-21T20:00:00Z", "issued_by": "sim",
           "correlation_id": "c", "payload": {"wheel": "european", "profile": "BO",
                                              "currency": "BOB", "min_bet": 100,
                                              "max_bet": 50000}}
    command = decode(json.dumps(raw).encode())
    assert isinstance(command, OpenTable) and command.schema_version == 2
    assert (command.payload.game, command.payload.variant) == ("roulette", "european")


def test_a_broken_schema_1_message_is_reported_against_schema_1():
    bad = {**V1_OPENED, "payload": {**V1_OPENED["payload"], "wheel": "triple"}}
    try:
        decode(json.dumps(bad).encode())
    except Exception as err:  # DecodeError
        assert "payload.wheel" in str(err)
    else:
        raise AssertionError("a wheel that never existed decoded")


def test_an_old_command_rejected_without_a_code_still_decodes():
    raw = {"event_type": "CommandRejected", "schema_version": 1, "aggregate_type": "table",
           "aggregate_id": "RUL-01", "sequence": 3, "occurred_at": "2026-11-21T20:00:00Z",
           "producer": "table-service", "correlation_id": "c",
           "payload": {"command_id": "x", "command_type": "OpenRound", "field": "command_type",
                       "reason": "round RUL-01.1 is still betting"}}
    event = decode(json.dumps(raw).encode())
    assert isinstance(event, CommandRejected) and event.payload.code == "REFUSED"

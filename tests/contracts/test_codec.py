"""Decoding never guesses: every failure names its code and the field."""
import json
from datetime import UTC, datetime
from typing import Any

import pytest

import contracts
from contracts.codec import DecodeError, decode, encode
from contracts.envelope import REGISTRY, Actor
from contracts.money import Money, format_money
from contracts.table import BetSpec, PlaceBet, PlaceBetData, TableOpened, TableOpenedData


def place_bet(**bet) -> PlaceBet:
    spec: dict[str, Any] = dict(kind="split", numbers=("17", "20"),
                                stake=Money(amount=1000, currency="BOB"))
    spec.update(bet)
    return PlaceBet(target_id="RUL-01", issued_by="test",
                    payload=PlaceBetData(bet_id="b1", seat=2, player_id="P1", bet=BetSpec(**spec)))


def test_round_trip_keeps_every_field():
    cmd = place_bet()
    again = decode(encode(cmd))
    assert again == cmd and isinstance(again, PlaceBet)
    assert again.payload.bet.stake.amount == 1000


def test_event_round_trip_with_actor():
    ev = TableOpened(aggregate_id="RUL-01", sequence=1,
                     occurred_at=datetime(2026, 11, 21, 20, tzinfo=UTC),
                     producer="table-service", correlation_id="c1",
                     actor=Actor(employee_id="PM1", role="pit_manager"),
                     payload=TableOpenedData(game="roulette", variant="european", seating="open",
                                             profile="BO", currency="BOB",
                                             min_bet=100, max_bet=50000))
    assert decode(encode(ev)) == ev


@pytest.mark.parametrize("raw, code", [
    (b"\x00\xffnot json", "undecodable"),
    (b"", "undecodable"),
    (b"[1, 2]", "undecodable"),
    (b'{"event_type": "TableExploded", "schema_version": 1}', "unknown_type"),
    (b'{"hello": 1}', "unknown_type"),
])
def test_bad_bytes_are_classified(raw, code):
    with pytest.raises(DecodeError) as err:
        decode(raw)
    assert err.value.code == code


def test_unknown_version_is_unknown_type():
    obj = json.loads(encode(place_bet()))
    obj["schema_version"] = 99
    with pytest.raises(DecodeError) as err:
        decode(json.dumps(obj).encode())
    assert err.value.code == "unknown_type" and "99" in err.value.reason


@pytest.mark.parametrize("path, value, field", [
    (("payload", "bet", "stake", "amount"), -5, "payload.bet.stake.amount"),
    (("payload", "bet", "stake", "amount"), 10.5, "payload.bet.stake.amount"),
    (("payload", "bet", "stake", "currency"), "bolivianos", "payload.bet.stake.currency"),
    (("payload", "seat"), 0, "payload.seat"),
    (("payload", "bet", "kind"), "lucky", "payload.bet.kind"),
    (("payload", "bet", "numbers"), ["37"], "payload.bet.numbers.0"),
])
def test_invalid_payload_names_the_field(path, value, field):
    obj = json.loads(encode(place_bet()))
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(DecodeError) as err:
        decode(json.dumps(obj).encode())
    assert err.value.code == "invalid_payload"
    assert field in err.value.reason


def test_chips_must_add_up_to_the_stake():
    with pytest.raises(ValueError, match="chips"):
        place_bet(chips=({"denomination": 500, "count": 1},))
    ok = place_bet(chips=({"denomination": 500, "count": 2},))
    assert ok.payload.bet.chips[0].value == 1000


def test_a_chip_outside_the_chip_set_is_refused():
    with pytest.raises(ValueError, match="not a chip denomination"):
        place_bet(stake=Money(amount=700, currency="BOB"),
                  chips=({"denomination": 700, "count": 1},))


def test_every_registered_type_sits_on_exactly_one_topic():
    for (name, _version) in REGISTRY:
        assert sum(name in t.type_names for t in contracts.TOPICS.values()) == 1, name


def test_money_formatting_is_exact():
    assert format_money(123450, "BOB") == "1,234.50 BOB"
    assert format_money(-5, "BOB") == "-0.05 BOB"
    assert format_money(15000, "CLP") == "15,000 CLP"


def test_the_fast_path_and_the_full_path_agree():
    """decode validates the usual message straight from its bytes; whatever that path cannot
    vouch for goes through the full one, with the same result or error."""
    from contracts.codec import _decode
    cmd = place_bet()
    assert decode(encode(cmd)) == _decode(encode(cmd)) == cmd
    spaced = json.dumps(json.loads(encode(cmd)), indent=2).encode()
    assert decode(spaced) == cmd
    # the type given only inside a nested object is not the message's type
    nested = json.loads(encode(cmd))
    del nested["command_type"]
    nested["payload"]["bet"]["command_type"] = "PlaceBet"
    with pytest.raises(DecodeError) as err:
        decode(json.dumps(nested).encode())
    assert err.value.code == "unknown_type"
    # invalid UTF-8 inside an otherwise well-formed message
    broken = encode(cmd).replace(b'"P1"', b'"P\xff"')
    with pytest.raises(DecodeError) as err:
        decode(broken)
    assert err.value.code == "undecodable"

"""`casino events dump|tail` against a real embedded broker: decoded records, an undecodable
record shown as an error object (exit 1), --key, --limit, following new records."""
from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from contracts.codec import encode
from contracts.deadletter import DeadLetter
from contracts.table import OpenRound, RoundOpened, RoundOpenedData, TableOpened, TableOpenedData
from contracts.topics import TOPICS
from tests.cli.tools import casino_program, json_lines, run
from tests.e2e.floor import produce_raw

TOPIC = "floor.table.events"
DEAD = "floor.deadletter"   # one partition: the order is the log's
AT = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def opened(table: str) -> TableOpened:
    return TableOpened(aggregate_id=table, sequence=1, occurred_at=AT, producer="test",
                       correlation_id=f"c-{table}", payload=TableOpenedData(
                           game="roulette", variant="european", profile="BO",
                           currency="BOB", min_bet=100, max_bet=50_000))


def round_opened(table: str, number: int) -> RoundOpened:
    return RoundOpened(aggregate_id=table, sequence=1 + number, occurred_at=AT, producer="test",
                       correlation_id=f"r-{table}-{number}",
                       payload=RoundOpenedData(round_id=f"{table}-r{number}", round_number=number))


@pytest.fixture(scope="module")
def loaded(bootstrap: str) -> Iterator[str]:
    """floor.table.events with RUL-01 (3 events), RUL-02 (1), and on key BAD one record that is
    not JSON and one command (a type this topic does not carry)."""
    produce_raw(bootstrap, TOPIC, [
        (b"RUL-01", encode(opened("RUL-01"))), (b"RUL-02", encode(opened("RUL-02"))),
        (b"RUL-01", encode(round_opened("RUL-01", 1))), (b"BAD", b"\xff not json"),
        (b"RUL-01", encode(round_opened("RUL-01", 2))),
        (b"BAD", encode(OpenRound(target_id="BAD", issued_by="test")))])
    yield bootstrap


def test_dump_prints_every_record_decoded_and_the_undecodable_ones_as_errors(loaded: str) -> None:
    result = run("events", "dump", "--topic", TOPIC, "--bootstrap", loaded, "--json")
    assert result.exit_code == 1
    assert result.stderr == "2 of 6 record(s) did not decode\n"
    records = json_lines(result.stdout)
    assert len(records) == 6
    errors = [r for r in records if "error" in r]
    assert [set(r) for r in errors] == [{"partition", "offset", "key", "error"}] * 2
    assert sorted(r["error"]["code"] for r in errors) == ["undecodable", "wrong_topic"]
    wrong = next(r for r in errors if r["error"]["code"] == "wrong_topic")
    assert wrong["error"]["reason"].startswith("OpenRound is not carried by floor.table.events")
    bad = next(r for r in errors if r["error"]["code"] == "undecodable")
    assert bad["error"]["reason"].startswith("not JSON")
    assert all(isinstance(r["partition"], int) and isinstance(r["offset"], int) for r in records)
    good = [r["message"] for r in records if "message" in r]
    assert sorted((m["aggregate_id"], m["sequence"]) for m in good) == [
        ("RUL-01", 1), ("RUL-01", 2), ("RUL-01", 3), ("RUL-02", 1)]


def test_key_filters_and_keeps_the_table_order(loaded: str) -> None:
    result = run("events", "dump", "--topic", TOPIC, "--bootstrap", loaded, "--json",
                 "--key", "RUL-01")
    assert result.exit_code == 0, result.stderr
    messages = [r["message"] for r in json_lines(result.stdout)]
    assert [(m["event_type"], m["sequence"]) for m in messages] == [
        ("TableOpened", 1), ("RoundOpened", 2), ("RoundOpened", 3)]


def test_text_lines_are_compact_and_limit_stops_early(loaded: str) -> None:
    result = run("events", "dump", "--topic", TOPIC, "--bootstrap", loaded, "--key", "RUL-01",
                 "--limit", "2")
    assert result.exit_code == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first.split()[1:6] == ["2026-11-25", "20:00:00", "TableOpened", "RUL-01", "#1"]
    assert "game=roulette variant=european profile=BO currency=BOB" in first
    assert second.endswith("RoundOpened            RUL-01         #2     round_id=RUL-01-r1 "
                           "round_number=1")
    errors = run("events", "dump", "--topic", TOPIC, "--bootstrap", loaded, "--key", "BAD")
    assert errors.exit_code == 1
    assert [line.split()[1:3] for line in errors.stdout.splitlines()] == [
        ["ERROR", "undecodable:"], ["ERROR", "wrong_topic:"]]


def test_unknown_topics_are_refused_listing_the_known_ones() -> None:
    result = run("events", "dump", "--topic", "orders")
    assert result.exit_code == 2
    known = ", ".join(sorted(TOPICS))
    assert "floor.table.commands, floor.table.events" in known
    assert f"'orders' is not a floor topic; known: {known}" in result.stderr


def dead_letter(offset: int) -> DeadLetter:
    return DeadLetter(service="test", source_topic=TOPIC, partition=0, offset=offset,
                      code="undecodable", reason="not JSON", original_b64="eA==")


def test_tail_follows_new_records_only(bootstrap: str) -> None:
    """A real process on a topic of its own: it says when it follows, then prints only what
    arrives after that."""
    # Old records, in one batch: Tansu's end_offsets() would point inside it (not shown).
    produce_raw(bootstrap, DEAD, [(TOPIC.encode(), encode(dead_letter(n))) for n in (0, 1, 2)])
    tail = subprocess.Popen([*casino_program(), "events", "tail", "--topic", DEAD,
                             "--bootstrap", bootstrap, "--json", "--limit", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert tail.stderr is not None and "following" in tail.stderr.readline()
        produce_raw(bootstrap, DEAD, [(TOPIC.encode(), encode(dead_letter(n))) for n in (3, 4)])
        out, err = tail.communicate(timeout=60)
    finally:
        tail.kill()
        tail.wait()
    assert tail.returncode == 0, err
    assert [(r["offset"], r["message"]["offset"]) for r in json_lines(out)] == [(3, 3), (4, 4)]

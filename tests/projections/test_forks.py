"""Ids with a stated scope, and forks made loud, on a real DuckDB file.

- A bet id is unique within its round: two tables both using bet id "b1" are both reported.
- An identical redelivery is a silent no-op; a different event at a sequence already applied
  (a second writer of the table), or one whose hash chain link does not hold, is refused and
  recorded as a StreamForked alarm with both hashes; the table's figures are then unreliable
  until a supervisor's StreamForkResolved, which only an allowed role may issue.
"""
from __future__ import annotations

from typing import Any

import duckdb
import pytest

from contracts import decode as decode_message
from contracts import encode
from contracts.envelope import Event
from services.cli.audit import resolution
from services.projections import store
from services.projections.dashboard import render
from services.projections.projector import (
    ForbiddenResolution,
    ProjectionBatch,
    StreamForked,
    apply_events,
)
from services.projections.report import fork_report, render_forks, table_report
from services.table.domain import TableSession
from tests.cli.test_report_tables import one_round


def decode(data: bytes) -> Any:
    """The message in `data` (an event, in these tests: each reads its own fields)."""
    return decode_message(data)


def received(events: list[Event]) -> list[Any]:
    """The events as a consumer gets them: decoded from the bytes that were published."""
    return [decode(encode(e)) for e in events]


def test_two_tables_using_the_same_bet_id_are_both_reported(tmp_path):
    with store.connect(tmp_path / "floor.duckdb") as con:
        apply_events(con, received(one_round("RUL-01") + one_round("RUL-02")))
        figures = {f.table_id: f for f in table_report(con)}
        bets = con.execute("SELECT table_id, round_id, paid FROM bets WHERE bet_id = 'b1' "
                           "ORDER BY table_id").fetchall()
    assert bets == [("RUL-01", "RUL-01.1", 36_000), ("RUL-02", "RUL-02.1", 36_000)]
    assert {t: (f.rounds, f.wagered, f.paid) for t, f in figures.items()} == {
        "RUL-01": (1, 1000, 36_000), "RUL-02": (1, 1000, 36_000)}


OLD_BETS = """CREATE TABLE bets (
    bet_id VARCHAR PRIMARY KEY, round_id VARCHAR, table_id VARCHAR, seat INTEGER,
    player_id VARCHAR, kind VARCHAR, selection VARCHAR, stake BIGINT, currency VARCHAR,
    placed_at TIMESTAMPTZ, paid BIGINT, net BIGINT, outcome VARCHAR, rule VARCHAR,
    settled_at TIMESTAMPTZ, excess_returned BIGINT, limit_rule VARCHAR);
INSERT INTO bets (bet_id, round_id, table_id, stake, paid) VALUES ('b1', 'OLD.1', 'OLD', 500, 0);
CREATE TABLE positions (aggregate_id VARCHAR PRIMARY KEY, sequence BIGINT);
INSERT INTO positions VALUES ('OLD', 7);"""


def test_an_older_file_opens_and_its_bets_are_keyed_by_round(tmp_path):
    path = tmp_path / "old.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(OLD_BETS)
    with store.connect(path) as con:
        key = con.execute("SELECT constraint_column_names FROM duckdb_constraints() WHERE "
                          "table_name = 'bets' AND constraint_type = 'PRIMARY KEY'").fetchall()
        assert [list(k) for (k,) in key] == [["round_id", "bet_id"]]
        assert con.execute("SELECT bet_id, round_id, stake FROM bets").fetchall() == [
            ("b1", "OLD.1", 500)]
        assert con.execute("SELECT * FROM positions").fetchall() == [("OLD", 7, None)]
        apply_events(con, received(one_round("RUL-01")))   # and the projector writes to it
        assert con.execute("SELECT count(*) FROM bets WHERE bet_id = 'b1'").fetchall() == [(2,)]


def second_writer(events: list[Event], upto: int) -> list[Event]:
    """What a second instance of the table service would have written after the first
    `upto` events: the same commands' decisions, as different events at the same sequences."""
    twin = TableSession(events[0].aggregate_id)
    for e in events[:upto]:
        twin.apply(e)
    theirs = one_round(events[0].aggregate_id)[upto:]
    for e in theirs:   # the same decisions, made again: new ids, new times, a new chain
        twin.trigger(type(e), e.payload, e)
    return twin.collect()


def project(path, events: list[Event]) -> list[StreamForked]:
    """Each event in its own transaction, as the bus's one-by-one path does; the refusals."""
    refused = []
    for event in events:
        with store.connect(path) as con:
            con.begin()
            batch = ProjectionBatch(con)
            try:
                batch.apply(event)
            except StreamForked as fork:
                refused.append(fork)
            batch.flush()
            con.commit()
    return refused


def test_an_identical_redelivery_raises_no_alarm(tmp_path):
    path, events = tmp_path / "floor.duckdb", received(one_round("RUL-01"))
    assert project(path, events) == []
    assert project(path, received(events[2:])) == []
    with store.connect(path) as con:
        assert fork_report(con) == []
        [figures] = table_report(con)
        assert figures.reliable and figures.rounds == 1


def test_a_fork_is_quarantined_with_both_hashes_and_flags_the_table(tmp_path):
    path, ours = tmp_path / "floor.duckdb", received(one_round("RUL-01"))
    theirs = received(second_writer(ours, 3))
    assert [e.sequence for e in theirs] == [e.sequence for e in ours[3:]]
    assert project(path, ours + received(one_round("RUL-02"))) == []
    refused = project(path, theirs)
    assert len(refused) == len(theirs) and all(r.code == "fork" for r in refused)
    assert (refused[0].kept, refused[0].refused) == (ours[3].hash, theirs[0].hash)
    assert f"kept hash {ours[3].hash}, refused hash {theirs[0].hash}" in str(refused[0])
    with store.connect(path) as con:
        forks = fork_report(con)
        figures = {f.table_id: f for f in table_report(con)}
    assert {(f.aggregate_id, f.sequence, f.kind) for f in forks} == {
        ("RUL-01", e.sequence, "fork") for e in theirs}
    assert not figures["RUL-01"].reliable and figures["RUL-02"].reliable
    assert figures["RUL-01"].to_dict()["reliable"] is False
    assert (figures["RUL-01"].rounds, figures["RUL-01"].wagered) == (1, 1000)  # the first kept
    assert "UNRELIABLE" in render_forks(forks) and "RUL-01" in render_forks(forks)


def test_a_broken_link_is_treated_like_a_fork(tmp_path):
    """The forked writer's next event arriving before the true one: it is at the next
    sequence, but names another predecessor than the chain's head."""
    path, ours = tmp_path / "floor.duckdb", received(one_round("RUL-01"))
    theirs = received(second_writer(ours, 3))
    assert project(path, ours[:4]) == []
    [refused] = project(path, theirs[1:2])
    assert refused.code == "broken_chain"
    assert (refused.kept, refused.refused) == (ours[3].hash, theirs[1].prev_hash)
    assert project(path, ours[4:]) == []   # the true successor still applies
    with store.connect(path) as con:
        [alarm] = fork_report(con)
        assert alarm.kind == "broken_link" and alarm.sequence == theirs[1].sequence


def test_a_modified_event_is_refused_at_its_sequence(tmp_path):
    path, ours = tmp_path / "floor.duckdb", received(one_round("RUL-01"))
    spin = next(i for i, e in enumerate(ours) if e.event_type == "SpinResulted")
    forged = decode(encode(ours[spin]).replace(b'"pocket":"17"', b'"pocket":"18"'))
    assert project(path, ours[:spin]) == []
    [refused] = project(path, [forged])
    assert refused.code == "broken_chain" and refused.refused == ours[spin].hash


def test_a_supervisors_resolution_clears_the_flag_and_a_dealers_is_refused(tmp_path):
    path, ours = tmp_path / "floor.duckdb", received(one_round("RUL-01"))
    project(path, ours + received(second_writer(ours, 3)))
    dealers = received([resolution("RUL-01", "looked at it", "D1", "dealer")])
    with store.connect(path) as con, pytest.raises(ForbiddenResolution, match="dealer"):
        apply_events(con, dealers)
    with store.connect(path) as con:
        assert not table_report(con)[0].reliable
    pit = received([resolution("RUL-01", "second instance; first version kept", "PM1",
                               "pit_manager")])
    project(path, pit)
    with store.connect(path) as con:
        [figures] = table_report(con)
        forks = fork_report(con)
        assert figures.reliable
        assert forks and all(f.resolved_by == "PM1" for f in forks)
        assert fork_report(con, open_only=True) == []
        assert con.execute("SELECT table_id, role, forks FROM fork_resolutions").fetchall() == [
            ("RUL-01", "pit_manager", len(forks))]


def test_the_dashboard_marks_a_forked_table_until_it_is_resolved(tmp_path):
    path, ours = tmp_path / "floor.duckdb", received(one_round("RUL-01"))
    project(path, ours)
    assert "no fork, no broken chain" in render(path).decode()
    project(path, received(second_writer(ours, 3)))
    page = render(path).decode()
    section = page[page.index('id="stream-forks"'):page.index("</section>")]
    assert "UNRELIABLE for RUL-01" in section and ours[3].hash[:16] in section
    with store.connect(path) as con:   # a hostile reason is shown as text
        con.execute("UPDATE stream_forks SET reason = '<script>alert(1)</script>'")
    assert "<script>alert" not in render(path).decode()
    project(path, received([resolution("RUL-01", "checked", "S1", "surveillance")]))
    page = render(path).decode()
    assert "stream-forks" not in page and "resolved)" in page


def test_a_bet_id_is_unique_within_its_round_and_may_come_back_in_a_later_one(tmp_path):
    """The scope the table service enforces (DUPLICATE_BET within the round) is the key the
    projection uses: the id again in the same round is refused, in the next round accepted."""
    from contracts.table import BetRejected, OpenRound
    from tests.runtime.test_chain import opening, play
    from tests.table.unit import bet, cmd, handle

    table, log = opening()
    log += play(table, "b1", pocket="17")            # wins 35 to 1
    second = play(table, "b1", pocket="3")           # the same id, next round: loses
    handle(table, cmd(OpenRound))
    [placed] = handle(table, bet(bet_id="x"))
    [refused] = handle(table, bet(bet_id="x"))
    assert placed.event_type == "BetPlaced"
    assert isinstance(refused, BetRejected) and refused.payload.code == "DUPLICATE_BET"
    with store.connect(tmp_path / "floor.duckdb") as con:
        apply_events(con, received(log + second))
        rows = con.execute("SELECT round_id, paid FROM bets WHERE bet_id = 'b1' "
                           "ORDER BY round_id").fetchall()
    assert rows == [(f"{table.id}.1", 36_000), (f"{table.id}.2", 0)]


def test_history_from_before_the_chain_projects_and_the_chain_starts_after_it(tmp_path):
    """Events written before the chain (no hash fields) project as before; the session's next
    events start the chain, and an identical copy of an old event is still a no-op."""
    import json as json_

    from tests.runtime.test_chain import play

    def unhashed(e: Event) -> Any:
        body = json_.loads(encode(e))
        del body["hash"], body["prev_hash"]
        return decode(json_.dumps(body).encode())

    old = [unhashed(e) for e in one_round("RUL-01")]
    table = TableSession("RUL-01")
    for e in old:
        table.apply(e)
    new = received(play(table, "b2", pocket="3"))
    assert new[0].prev_hash is None and new[1].prev_hash == new[0].hash
    path = tmp_path / "floor.duckdb"
    assert project(path, old + new + old[2:4]) == []
    with store.connect(path) as con:
        [figures] = table_report(con)
        heads = con.execute("SELECT head FROM positions").fetchall()
    assert figures.reliable and figures.rounds == 2 and heads == [(new[-1].hash,)]

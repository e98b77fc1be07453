"""Ids with a stated scope, a tamper-evident log and loud forks, on the real broker with the
real table service, projector and DuckDB file (issue 12's probes):

- two tables both use bet id "b1": both are projected and reported;
- a rewritten copy of one table's event is published straight to its topic: the projector
  quarantines it (dead letter `fork` with both hashes, a StreamForked alarm), the report marks
  that table `reliable: false`, and `casino audit verify` fails at that record's offset while
  the other table's chains still verify;
- a dealer's resolution is refused; a pit manager's clears the flag.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

from contracts import decode, encode
from contracts.deadletter import DeadLetter
from contracts.envelope import Actor, Command, Event
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
    TableOpenedData,
)
from contracts.topics import (
    AUDIT_TOPIC,
    DEAD_LETTER_TOPIC,
    TABLE_COMMANDS_TOPIC,
    TABLE_EVENTS_TOPIC,
)
from services.cli.audit import read_and_verify, resolution
from services.projections import store
from services.projections.report import table_report
from services.runtime.settings import Settings
from tests.cli.tools import run
from tests.e2e.floor import produce_raw, query, read_topic, running_services, wait_for

DEALER = Actor(employee_id="D1", role="dealer")
PIT = Actor(employee_id="PM1", role="pit_manager")
CONFIG = TableOpenedData(game="roulette", variant="european", seating="open", profile="BO",
                         currency="BOB", min_bet=100, max_bet=50_000)
TABLES = ("FORK-A", "FORK-B")


def one_round(table_id: str) -> list[Command]:
    def cmd(cls, actor=DEALER, **kw):
        return cls(target_id=table_id, issued_by="test", actor=actor, **kw)
    return [cmd(OpenTable, actor=PIT, payload=CONFIG), cmd(OpenRound),
            cmd(PlaceBet, payload=PlaceBetData(bet_id="b1", seat=1, player_id="P1", bet=BetSpec(
                kind="straight", numbers=("17",), stake=Money(amount=1000, currency="BOB")))),
            cmd(CloseBets), cmd(RecordSpin, payload=RecordSpinData(pocket="17"))]


def report(db: Path) -> dict[str, dict]:
    """`casino report tables --json` (in this process, while the projector runs in it, the
    file is opened as the projector opens it: DuckDB refuses a second configuration)."""
    with store.connect(db) as con:
        return {f.table_id: json.loads(json.dumps(f.to_dict())) for f in table_report(con)}


def test_same_bet_id_at_two_tables_then_a_rewritten_event_is_loud(floor: Settings, tmp_path):
    db = tmp_path / "floor.duckdb"
    bootstrap = floor.bootstrap

    def settled() -> bool:
        return query(db, "SELECT count(*) FROM rounds WHERE settled_at IS NOT NULL") == [(2,)]

    def flagged() -> bool:
        return query(db, "SELECT count(*) FROM stream_forks") == [(1,)]

    def resolved() -> bool:
        return query(db, "SELECT count(*) FROM fork_resolutions") == [(1,)]

    async def scenario() -> None:
        async with running_services(floor, db):
            produce_raw(bootstrap, TABLE_COMMANDS_TOPIC.name,
                        [(c.key.encode(), encode(c)) for t in TABLES for c in one_round(t)])
            await wait_for(settled, 60, "both tables' rounds projected")
            # -- a rewritten copy of FORK-A's spin, published straight to the topic
            records = [r for r in read_topic(bootstrap, TABLE_EVENTS_TOPIC.name)
                       if r.key == b"FORK-A"]
            spin = next(r for r in records if b'"SpinResulted"' in r.value)
            produce_raw(bootstrap, TABLE_EVENTS_TOPIC.name, [(
                b"FORK-A", spin.value.replace(b'"pocket":"17"', b'"pocket":"18"'))])
            await wait_for(flagged, 60, "the StreamForked alarm")
            state["figures"] = report(db)
            state["verify"] = await read_and_verify(bootstrap)
            state["verify_b"] = await read_and_verify(bootstrap, "FORK-B")
            state["spin"] = spin
            # -- a dealer's resolution (an attacker can publish one) is refused; a pit's holds
            produce_raw(bootstrap, AUDIT_TOPIC.name, [
                (b"FORK-A", encode(resolution("FORK-A", "mine", "D1", "dealer"))),
                (b"FORK-A", encode(resolution("FORK-A", "first version holds", "PM1",
                                              "pit_manager")))])
            await wait_for(resolved, 60, "the resolution projected")

    state: dict = {}
    asyncio.run(scenario())

    # both tables' bet "b1" are in the report
    assert query(db, "SELECT table_id FROM bets WHERE bet_id = 'b1' ORDER BY table_id") == [
        ("FORK-A",), ("FORK-B",)]
    figures = state["figures"]
    assert {t: (f["rounds"], f["wagered"], f["paid"]) for t, f in figures.items()} == {
        "FORK-A": (1, 1000, 36_000), "FORK-B": (1, 1000, 36_000)}
    assert (figures["FORK-A"]["reliable"], figures["FORK-B"]["reliable"]) == (False, True)

    # the quarantined copy: a dead letter naming both hashes, the original kept
    spin = decode(state["spin"].value)
    assert isinstance(spin, Event)
    letters = [decode(r.value) for r in read_topic(bootstrap, DEAD_LETTER_TOPIC.name)]
    [fork] = [d for d in letters if isinstance(d, DeadLetter) and d.code == "fork"]
    assert f"kept hash {spin.hash}" in fork.reason and fork.key == "FORK-A"
    [forbidden] = [d for d in letters if isinstance(d, DeadLetter) and d.code == "forbidden"]
    assert "dealer may not resolve" in forbidden.reason
    assert query(db, "SELECT pocket FROM rounds WHERE table_id = 'FORK-A'") == [("17",)]

    # casino audit verify: fails at the rewritten record; FORK-B alone still verifies
    verified = state["verify"]
    first = verified.first_break()
    assert not verified.ok and first is not None
    assert (first.aggregate_id, first.sequence, first.kind) == ("FORK-A", spin.sequence, "fork")
    assert first.offset > state["spin"].offset and first.expected == spin.hash
    assert state["verify_b"].ok and state["verify_b"].hashed > 0
    cli = run("audit", "verify", "--bootstrap", bootstrap, "--json")
    assert cli.exit_code == 1 and json.loads(cli.stdout)["first_break"]["offset"] == first.offset

    # resolved by the pit manager: reliable again, as `casino report tables --json` says
    cli = run("report", "tables", "--db", str(db), "--json")
    rows = {r["table_id"]: r for r in map(json.loads, cli.stdout.splitlines())}
    assert cli.exit_code == 0 and rows["FORK-A"]["reliable"] is True
    assert query(db, "SELECT resolved_by FROM stream_forks") == [("PM1",)]

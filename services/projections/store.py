"""The projection database (a DuckDB file): schema and short-lived connections.

A file written by an older version opens as it is: the schema only adds (CREATE ... IF NOT
EXISTS, ALTER ... ADD COLUMN IF NOT EXISTS), and the one key that changed (bets, now keyed by
round and bet id) is moved over when a writer first opens the file: older files need no
rebuild. (Rebuilding from the log would also need the projector's consumer-group offsets reset
to the beginning, since the file's `positions` start over.)

DuckDB lets one process write a file, or several read it, never both at once. So the projector
holds the file only while it is busy (see app.ProjectorService), and readers in other processes
(`casino report`) retry briefly when they meet the writer's lock.
"""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    event_id VARCHAR PRIMARY KEY, event_type VARCHAR, aggregate_id VARCHAR, sequence BIGINT,
    occurred_at TIMESTAMPTZ, recorded_at TIMESTAMPTZ, producer VARCHAR, body JSON);
CREATE TABLE IF NOT EXISTS positions (aggregate_id VARCHAR PRIMARY KEY, sequence BIGINT);
CREATE TABLE IF NOT EXISTS tables (
    table_id VARCHAR PRIMARY KEY, game VARCHAR, wheel VARCHAR, profile VARCHAR,
    currency VARCHAR, min_bet BIGINT, max_bet BIGINT, opened_at TIMESTAMPTZ,
    closed_at TIMESTAMPTZ);
CREATE TABLE IF NOT EXISTS rounds (
    round_id VARCHAR PRIMARY KEY, table_id VARCHAR, round_number BIGINT,
    opened_at TIMESTAMPTZ, closed_at TIMESTAMPTZ, pocket VARCHAR, settled_at TIMESTAMPTZ,
    bet_count BIGINT, wagered BIGINT, paid BIGINT, house_win BIGINT);
-- A bet id is unique within its round (contracts/envelope.py), round ids floor-wide: bets are
-- keyed by both. A file from before keyed them by bet id alone; `_rekey_bets` moves its rows.
CREATE TABLE IF NOT EXISTS bets (
    bet_id VARCHAR, round_id VARCHAR, table_id VARCHAR, seat INTEGER,
    player_id VARCHAR, kind VARCHAR, selection VARCHAR, stake BIGINT, currency VARCHAR,
    placed_at TIMESTAMPTZ, paid BIGINT, net BIGINT, outcome VARCHAR, rule VARCHAR,
    settled_at TIMESTAMPTZ, PRIMARY KEY (round_id, bet_id));
CREATE TABLE IF NOT EXISTS rejections (
    event_id VARCHAR PRIMARY KEY, table_id VARCHAR, round_id VARCHAR, bet_id VARCHAR,
    command_type VARCHAR, code VARCHAR, field VARCHAR, reason VARCHAR, rule VARCHAR,
    rejected_at TIMESTAMPTZ);
CREATE TABLE IF NOT EXISTS round_checks (
    check_id VARCHAR PRIMARY KEY, table_id VARCHAR, round_id VARCHAR, kind VARCHAR,
    dealer_result VARCHAR, declared_at TIMESTAMPTZ, read_result VARCHAR, no_decision BOOLEAN,
    confidence DOUBLE, evidence_sha256 VARCHAR, frame_uri VARCHAR, status VARCHAR,
    reason VARCHAR, detail VARCHAR, hold_deadline TIMESTAMPTZ, decided_at TIMESTAMPTZ);
-- The surveillance room's resolution (VerificationResolved); added later, so older files get
-- the columns when a writer opens them.
ALTER TABLE round_checks ADD COLUMN IF NOT EXISTS outcome VARCHAR;
ALTER TABLE round_checks ADD COLUMN IF NOT EXISTS resolved_result VARCHAR;
ALTER TABLE round_checks ADD COLUMN IF NOT EXISTS resolved_by VARCHAR;
ALTER TABLE round_checks ADD COLUMN IF NOT EXISTS resolved_at TIMESTAMPTZ;
ALTER TABLE round_checks ADD COLUMN IF NOT EXISTS within_hold BOOLEAN;
ALTER TABLE round_checks ADD COLUMN IF NOT EXISTS resolution_note VARCHAR;
-- Payout holds and corrections of the table service (PayoutsHeld, PayoutsReleased,
-- SettlementCorrected); a corrected round keeps the dealer's pocket and gains the CCTV one.
CREATE TABLE IF NOT EXISTS payout_holds (
    round_id VARCHAR PRIMARY KEY, table_id VARCHAR, check_id VARCHAR, reason VARCHAR,
    held_bets INTEGER, held BIGINT, currency VARCHAR, held_at TIMESTAMPTZ,
    deadline TIMESTAMPTZ, released_at TIMESTAMPTZ, release VARCHAR, released BIGINT,
    within_hold BOOLEAN, released_by VARCHAR);
CREATE TABLE IF NOT EXISTS settlement_corrections (
    round_id VARCHAR, bet_id VARCHAR, table_id VARCHAR, seat INTEGER, player_id VARCHAR,
    kind VARCHAR, stake BIGINT, paid_before BIGINT, paid_after BIGINT, outcome_before VARCHAR,
    outcome_after VARCHAR, rule VARCHAR, decided_in VARCHAR, corrected_by VARCHAR,
    corrected_at TIMESTAMPTZ, PRIMARY KEY (round_id, bet_id));
ALTER TABLE rounds ADD COLUMN IF NOT EXISTS corrected_pocket VARCHAR;
ALTER TABLE rounds ADD COLUMN IF NOT EXISTS paid_delta BIGINT;
-- Table sessions of any game (TableOpened schema 2): the variant (roulette: the wheel, also
-- kept in `wheel`), seats, seating and the per-kind limits (JSON, kind -> {min_bet, max_bet}).
ALTER TABLE tables ADD COLUMN IF NOT EXISTS variant VARCHAR;
ALTER TABLE tables ADD COLUMN IF NOT EXISTS seats INTEGER;
ALTER TABLE tables ADD COLUMN IF NOT EXISTS seating VARCHAR;
ALTER TABLE tables ADD COLUMN IF NOT EXISTS bet_limits JSON;
-- A stake over the maximum placed for the maximum: the excess handed back, and its rule.
ALTER TABLE bets ADD COLUMN IF NOT EXISTS excess_returned BIGINT;
ALTER TABLE bets ADD COLUMN IF NOT EXISTS limit_rule VARCHAR;
-- Who sat where (PlayerSeated / PlayerLeft); a seat freed for not playing names its rule.
CREATE TABLE IF NOT EXISTS seatings (
    table_id VARCHAR, seat INTEGER, player_id VARCHAR, seated_at TIMESTAMPTZ,
    left_at TIMESTAMPTZ, left_reason VARCHAR, rounds_not_played INTEGER, rule VARCHAR);
-- Issue 12: the time the table answered a verification request; a round it held nothing for
-- (PayoutsNotHeld: DEADLINE_PASSED or NOTHING_TO_HOLD, a review after payment); whether a
-- correction came after the round's payouts had gone out.
ALTER TABLE payout_holds ADD COLUMN IF NOT EXISTS answered_at TIMESTAMPTZ;
ALTER TABLE payout_holds ADD COLUMN IF NOT EXISTS not_held VARCHAR;
ALTER TABLE rounds ADD COLUMN IF NOT EXISTS corrected_after_payment BOOLEAN;
-- A corrected craps roll (SettlementCorrected schema 3): the bets it cannot re-settle exactly
-- (the state the wrong call left for later rolls), for the pit manager to decide; and what the
-- wrong call changed in the game's state (the point, the shooter), in words.
CREATE TABLE IF NOT EXISTS pit_manager_reviews (
    round_id VARCHAR, bet_id VARCHAR, table_id VARCHAR, seat INTEGER, player_id VARCHAR,
    kind VARCHAR, stake BIGINT, outcome_called VARCHAR, paid_called BIGINT,
    outcome_true VARCHAR, paid_true BIGINT, later_round VARCHAR, later_paid BIGINT,
    rule VARCHAR, reason VARCHAR, corrected_by VARCHAR, corrected_at TIMESTAMPTZ,
    PRIMARY KEY (round_id, bet_id));
ALTER TABLE rounds ADD COLUMN IF NOT EXISTS correction_note VARCHAR;
-- The latest health report of each service instance (floor.health), for the dashboard.
CREATE TABLE IF NOT EXISTS service_health (
    service VARCHAR, instance VARCHAR, reported_at TIMESTAMPTZ, healthy BOOLEAN,
    stuck_consumers JSON, lagging_partitions JSON, every_seconds DOUBLE, status_url VARCHAR,
    PRIMARY KEY (service, instance));
CREATE TABLE IF NOT EXISTS dead_letters (
    dead_letter_id VARCHAR PRIMARY KEY, failed_at TIMESTAMPTZ, service VARCHAR,
    source_topic VARCHAR, "partition" INTEGER, "offset" BIGINT, code VARCHAR, reason VARCHAR);
-- The hash chain (contracts/chain.py): each projected event's digest (its hash, for a hashed
-- event), and each aggregate's chain head. Rows from before have none: a copy of such an event
-- counts as a redelivery, and the aggregate's chain is checked from its next event on.
ALTER TABLE events ADD COLUMN IF NOT EXISTS digest VARCHAR;
ALTER TABLE positions ADD COLUMN IF NOT EXISTS head VARCHAR;
-- StreamForked alarms: an event at a sequence already projected with other content (`fork`),
-- or one whose chain link does not hold (`broken_link`). The table's figures are unreliable
-- while one is unresolved; a supervisor's StreamForkResolved resolves them.
CREATE TABLE IF NOT EXISTS stream_forks (
    aggregate_id VARCHAR, sequence BIGINT, table_id VARCHAR, kind VARCHAR,
    kept_hash VARCHAR, refused_hash VARCHAR, event_id VARCHAR, event_type VARCHAR,
    reason VARCHAR, detected_at TIMESTAMPTZ, resolved_at TIMESTAMPTZ, resolved_by VARCHAR,
    resolution_id VARCHAR, PRIMARY KEY (aggregate_id, sequence, refused_hash));
CREATE TABLE IF NOT EXISTS fork_resolutions (
    resolution_id VARCHAR PRIMARY KEY, table_id VARCHAR, resolved_by VARCHAR, role VARCHAR,
    note VARCHAR, forks INTEGER, resolved_at TIMESTAMPTZ);
"""


_SCHEMA_READY: set[str] = set()  # files whose schema this process has already ensured


def _is_lock_conflict(err: duckdb.Error) -> bool:
    return "lock" in str(err).lower()


def waiting_flag(path: Path) -> Path:
    """The file a process waiting for the database's lock creates: the projector, which holds
    the file while batches keep coming, gives it up after the batch it is writing."""
    return path.with_name(path.name + ".waiting")


def open_db(path: Path, *, read_only: bool = False,
            wait_seconds: float = 10.0) -> duckdb.DuckDBPyConnection:
    """Open the projection file, waiting up to `wait_seconds` for another process's lock to go
    away. A writer gets the schema created (once per file per process)."""
    deadline = time.monotonic() + wait_seconds
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only)
            break
        except duckdb.Error as err:
            if not _is_lock_conflict(err) or time.monotonic() > deadline:
                raise
            waiting_flag(path).touch()  # asks the projector to step aside after its batch
            time.sleep(0.05)
    waiting_flag(path).unlink(missing_ok=True)
    if not read_only and str(path) not in _SCHEMA_READY:
        con.execute(SCHEMA)
        _rekey_bets(con)
        _SCHEMA_READY.add(str(path))
    return con


def _rekey_bets(con: duckdb.DuckDBPyConnection) -> None:
    """A file from before keyed `bets` by bet id alone (DuckDB cannot change a primary key in
    place): its rows move to a table keyed by (round_id, bet_id), in one transaction."""
    key = con.execute("SELECT constraint_column_names FROM duckdb_constraints() "
                      "WHERE table_name = 'bets' AND constraint_type = 'PRIMARY KEY' "
                      "AND database_name = current_database()").fetchone()
    if key is None or list(key[0]) != ["bet_id"]:
        return
    columns = [name for (name,) in con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'bets' "
        "AND database_name = current_database() ORDER BY column_index").fetchall()]
    listed = ", ".join(f'"{c}"' for c in columns)
    types = dict(con.execute("SELECT column_name, data_type FROM duckdb_columns() WHERE "
                             "table_name = 'bets' AND database_name = current_database()"
                             ).fetchall())
    con.begin()
    try:
        con.execute("CREATE TABLE bets_by_round (" + ", ".join(
            f'"{c}" {types[c]}' for c in columns) + ", PRIMARY KEY (round_id, bet_id))")
        con.execute(f"INSERT INTO bets_by_round ({listed}) SELECT {listed} FROM bets")
        con.execute("DROP TABLE bets")
        con.execute("ALTER TABLE bets_by_round RENAME TO bets")
        con.commit()
    except BaseException:
        con.rollback()
        raise


@contextlib.contextmanager
def connect(path: Path, *, read_only: bool = False,
            wait_seconds: float = 10.0) -> Iterator[duckdb.DuckDBPyConnection]:
    con = open_db(path, read_only=read_only, wait_seconds=wait_seconds)
    try:
        yield con
    finally:
        con.close()

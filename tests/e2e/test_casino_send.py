"""`casino send` as a dealer terminal: a round played from a JSON Lines script through the real
table service, and read back with `casino events dump` (both as programs)."""
from __future__ import annotations

import asyncio
import json
import time

from tests.cli.tools import json_lines, run_process
from tests.e2e.floor import running_services

T = "SEND-01"
DEALER = {"employee_id": "D7", "role": "dealer"}
PIT = {"employee_id": "PM1", "role": "pit_manager"}   # only a supervisor opens a table


def line(command_type: str, actor: dict = DEALER, **payload) -> str:
    body = {"command_type": command_type, "target_id": T, "actor": actor}
    return json.dumps({**body, "payload": payload} if payload else body)


SCRIPT = "\n".join([
    "# one round at SEND-01: 1 000 on 17, and 17 comes out",
    line("OpenTable", actor=PIT, game="roulette", variant="european", profile="BO",
         currency="BOB", min_bet=100, max_bet=50_000),
    line("SeatPlayer", seat=2, player_id="P1"),   # seating is enforced: bets need a seat
    line("OpenRound"),
    line("PlaceBet", bet_id="b-17", seat=2, player_id="P1",
         bet={"kind": "straight", "numbers": ["17"], "stake": {"amount": 1000, "currency": "BOB"}}),
    line("CloseBets"),
    line("RecordSpin", pocket="17"),
]) + "\n"


async def table_log(bootstrap: str, until: str, timeout: float = 90) -> list[dict]:
    """The table's events as `casino events dump --json` shows them, once `until` is there."""
    deadline = time.monotonic() + timeout
    while True:
        dumped = await asyncio.to_thread(run_process, "events", "dump", "--topic",
                                         "floor.table.events", "--key", T, "--json",
                                         bootstrap=bootstrap)
        assert dumped.returncode == 0, dumped.stderr
        messages = [r["message"] for r in json_lines(dumped.stdout)]
        if any(m["event_type"] == until for m in messages) or time.monotonic() > deadline:
            return messages
        await asyncio.sleep(1)


def test_a_round_sent_from_a_script_is_played_and_settled(floor, tmp_path) -> None:
    async def scenario() -> tuple:
        async with running_services(floor, tmp_path / "floor.duckdb"):
            sent = await asyncio.to_thread(run_process, "send", "-", stdin=SCRIPT,
                                           bootstrap=floor.bootstrap)
            return sent, await table_log(floor.bootstrap, until="RoundSettled")

    sent, messages = asyncio.run(scenario())
    assert sent.returncode == 0, sent.stdout + sent.stderr
    assert [a.split()[:4] for a in sent.stdout.splitlines()] == [
        ["line", str(n), "accepted", kind] for n, kind in
        [("2:", "OpenTable"), ("3:", "SeatPlayer"), ("4:", "OpenRound"), ("5:", "PlaceBet"),
         ("6:", "CloseBets"), ("7:", "RecordSpin")]]
    assert [m["event_type"] for m in messages] == [
        "TableOpened", "PlayerSeated", "RoundOpened", "BetPlaced", "BetsClosed", "SpinResulted",
        "BetSettled", "RoundSettled"]
    settled = next(m["payload"] for m in messages if m["event_type"] == "BetSettled")
    assert (settled["outcome"], settled["paid"]["amount"]) == ("win", 36_000)
    assert settled["rule"].startswith("seed 000 §4.1.4.2")

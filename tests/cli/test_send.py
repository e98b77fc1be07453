"""`casino send` against a real embedded broker: every line answered, the valid ones on the
topic (read back with `casino events dump --json`), the invalid ones refused with the line,
field and reason."""
from __future__ import annotations

import json
from pathlib import Path

from services.cli.send import current_versions
from tests.cli.tools import json_lines, run, run_process

TABLE = "RUL-01"
OPEN_TABLE = {"command_type": "OpenTable", "target_id": TABLE,
              "actor": {"employee_id": "PM1", "role": "pit_manager"},
              "payload": {"game": "roulette", "variant": "european", "profile": "BO",
                          "currency": "BOB", "min_bet": 100, "max_bet": 50_000}}
OPEN_ROUND = {"command_type": "OpenRound", "target_id": TABLE, "command_id": "cmd-round-1",
              "issued_by": "terminal-7"}


def place_bet(amount: int) -> dict:
    return {"command_type": "PlaceBet", "target_id": TABLE,
            "payload": {"bet_id": f"bet-{amount}", "seat": 1, "player_id": "P1",
                        "bet": {"kind": "straight", "numbers": ["17"],
                                "stake": {"amount": amount, "currency": "BOB"}}}}


EVENT = {"event_type": "TableClosed", "schema_version": 1, "aggregate_id": TABLE}
MAX_BYTES = 400

LINES = [
    "# a dealer terminal's script",                                   # 1 skipped
    json.dumps(OPEN_TABLE),                                           # 2 accepted
    "",                                                               # 3 skipped
    json.dumps(OPEN_ROUND),                                           # 4 accepted
    json.dumps({"command_type": "SpinWheel", "target_id": TABLE}),    # 5 unknown type
    json.dumps({"command_type": "RecordSpin", "target_id": TABLE}),   # 6 missing payload
    json.dumps(place_bet(-100)),                                      # 7 bad stake
    json.dumps(EVENT),                                                # 8 an event
    json.dumps({**OPEN_ROUND, "note": "x" * MAX_BYTES}),              # 9 too long
    "{not json",                                                      # 10
    json.dumps(place_bet(500)),                                       # 11 accepted
]
OVERLONG = len(LINES[8].encode())

REFUSALS = {
    # every registered command, as the refusal lists them (new commands join the list)
    5: ("command_type", "'SpinWheel' is not a known command; known: " +
        ", ".join(sorted(current_versions()))),
    6: ("payload", "Field required"),
    7: ("payload.bet.stake.amount", "Input should be greater than or equal to 0"),
    8: ("event_type", "'TableClosed' is not a command: casino send publishes commands (a line "
                      "needs command_type)"),
    9: ("(line)", f"{OVERLONG} bytes, over --max-bytes {MAX_BYTES}"),
    10: ("(line)", "not JSON: Expecting property name enclosed in double quotes: line 1 "
                   "column 2 (char 1)"),
}


def test_valid_lines_are_sent_and_invalid_ones_refused_with_line_field_and_reason(
        bootstrap: str, tmp_path: Path) -> None:
    script = tmp_path / "commands.jsonl"
    script.write_text("\n".join(LINES) + "\n")

    result = run("send", str(script), "--bootstrap", bootstrap, "--json",
                 "--max-bytes", str(MAX_BYTES))

    assert result.exit_code == 1
    assert result.stderr == "6 line(s) refused\n"
    answers = json_lines(result.stdout)
    assert [a["line"] for a in answers] == [2, 4, 5, 6, 7, 8, 9, 10, 11]
    refusals = {a["line"]: (a["field"], a["reason"]) for a in answers if a["status"] == "refused"}
    assert refusals == REFUSALS
    accepted = [a for a in answers if a["status"] == "accepted"]
    assert [a["command_type"] for a in accepted] == ["OpenTable", "OpenRound", "PlaceBet"]
    assert accepted[1]["command_id"] == "cmd-round-1"
    assert {a["topic"] for a in accepted} == {"floor.table.commands"}
    assert len({a["partition"] for a in accepted}) == 1          # keyed by the table id
    assert [a["offset"] for a in accepted] == sorted(a["offset"] for a in accepted)

    dumped = run("events", "dump", "--topic", "floor.table.commands", "--bootstrap", bootstrap,
                 "--json", "--key", TABLE)
    assert dumped.exit_code == 0, dumped.stderr
    records = json_lines(dumped.stdout)
    assert [r["message"]["command_id"] for r in records] == [a["command_id"] for a in accepted]
    assert [(r["partition"], r["offset"], r["key"]) for r in records] == [
        (a["partition"], a["offset"], TABLE) for a in accepted]
    first, second, third = (r["message"] for r in records)
    assert first["issued_by"] == "casino-send" and first["schema_version"] == 2
    assert second["issued_by"] == "terminal-7"                    # given values are kept
    assert third["payload"]["bet"]["stake"] == {"amount": 500, "currency": "BOB"}


def test_text_answers_name_the_line_the_field_and_the_reason_without_a_broker(
        tmp_path: Path) -> None:
    """Refused lines never reach Kafka, so this needs no broker (nothing is valid)."""
    script = tmp_path / "bad.jsonl"
    script.write_text("\n".join(LINES[4:8]) + "\n")
    result = run("send", str(script), "--bootstrap", "127.0.0.1:1")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"line {n - 4}: refused {field}: {reason}"
        for n, (field, reason) in REFUSALS.items() if n <= 8]


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("send", str(tmp_path / "missing.jsonl")).exit_code == 2
    assert run("send", "-", "--max-bytes", "0", stdin="").exit_code == 2
    assert run("send").exit_code == 2


def test_the_installed_program_reads_stdin_and_dump_filters_by_key(bootstrap: str) -> None:
    """As a script runs it: `casino send -` fed by a pipe, the broker from the environment."""
    lines = [{"command_type": "OpenRound", "target_id": table, "command_id": f"pipe-{table}"}
             for table in ("RUL-21", "RUL-22", "RUL-21")]
    lines[2]["command_id"] = "pipe-RUL-21-again"
    sent = run_process("send", "-", stdin="\n".join(map(json.dumps, lines)) + "\n",
                       bootstrap=bootstrap)
    assert sent.returncode == 0, sent.stderr
    assert [line.split()[:4] for line in sent.stdout.splitlines()] == [
        ["line", "1:", "accepted", "OpenRound"], ["line", "2:", "accepted", "OpenRound"],
        ["line", "3:", "accepted", "OpenRound"]]

    dumped = run_process("events", "dump", "--topic", "floor.table.commands", "--key", "RUL-21",
                         "--json", bootstrap=bootstrap)
    assert dumped.returncode == 0, dumped.stderr
    assert [r["message"]["command_id"] for r in json_lines(dumped.stdout)] == [
        "pipe-RUL-21", "pipe-RUL-21-again"]


def test_odd_types_are_refused_not_crashed_on(tmp_path: Path) -> None:
    script = tmp_path / "odd.jsonl"
    script.write_text('{"command_type": ["OpenRound"]}\n[1, 2]\n'
                      '{"command_type": "OpenRound", "target_id": "T", "schema_version": [1]}\n')
    result = run("send", str(script), "--bootstrap", "127.0.0.1:1", "--json")
    assert result.exit_code == 1
    assert [(a["line"], a["field"]) for a in json_lines(result.stdout)] == [
        (1, "command_type"), (2, "(line)"), (3, "schema_version")]

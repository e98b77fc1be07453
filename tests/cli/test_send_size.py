"""`casino send` refuses a command over its topic's message size limit where it enters, naming
the biggest field and the limit (contracts/topics.py); no broker is needed, since nothing is
sent."""
from __future__ import annotations

import json
from pathlib import Path

from contracts.codec import encode
from contracts.envelope import Command
from contracts.table import TableClosedData
from contracts.topics import TABLE_COMMANDS_TOPIC
from services.cli.send import biggest_field, current_versions, over_size_limit, validate
from tests.cli.tools import json_lines, run

LIMIT = TABLE_COMMANDS_TOPIC.max_message_bytes
PIT = {"employee_id": "PM1", "role": "pit_manager"}


def close_table(reason_bytes: int) -> str:
    return json.dumps({"command_type": "CloseTable", "target_id": "RUL-01", "actor": PIT,
                       "payload": {"reason": "x" * reason_bytes}})


def test_a_command_over_its_topic_limit_is_refused_naming_the_biggest_field_and_the_limit(
        tmp_path: Path) -> None:
    script = tmp_path / "big.jsonl"
    script.write_text(close_table(LIMIT) + "\n")     # valid by the contracts, too big to send
    result = run("send", str(script), "--bootstrap", "127.0.0.1:1", "--json")
    assert result.exit_code == 1
    [answer] = json_lines(result.stdout)
    assert answer["status"] == "refused" and answer["field"] == "payload.reason"
    assert f"over the {LIMIT}-byte message limit of floor.table.commands" in answer["reason"]
    assert f"its biggest field payload.reason is {LIMIT + 2} bytes" in answer["reason"]


def test_a_command_at_the_limit_passes_and_one_byte_more_is_refused() -> None:
    versions = current_versions()
    base = validate(1, close_table(0).encode(), versions)
    assert isinstance(base, Command)
    pad = LIMIT - len(encode(base)) - len(b"RUL-01")
    at_limit = base.model_copy(update={"payload": TableClosedData(reason="x" * pad)})
    over = base.model_copy(update={"payload": TableClosedData(reason="x" * (pad + 1))})
    assert over_size_limit(1, at_limit) is None
    refusal = over_size_limit(1, over)
    assert refusal is not None and refusal.field == "payload.reason"
    assert (refusal.reason or "").startswith(f"the command is {LIMIT + 1} bytes")


def test_biggest_field_names_the_dotted_path_of_the_largest_value() -> None:
    assert biggest_field({"a": "xx", "b": {"c": "x" * 10, "d": [1, "y" * 20]}}) == ("b.d.1", 22)
    assert biggest_field("plain") == ("(line)", 7)

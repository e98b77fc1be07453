"""services/cli/README.md describes every `casino` subcommand (a new one must be added)."""
from __future__ import annotations

from contracts.envelope import Command
from contracts.table import BetRejected, CommandRejected
from services.cli.main import SUBCOMMANDS
from services.cli.send import Answer, current_versions, validate
from services.table.domain import TableSession
from tests.cli.tools import ROOT, run
from tests.table.unit import handle


def test_every_subcommand_has_a_section_in_the_cli_readme() -> None:
    text = (ROOT / "services" / "cli" / "README.md").read_text(encoding="utf-8")
    assert sorted(n for n in SUBCOMMANDS if f"### `casino {n}" not in text) == []


def test_casino_help_lists_send_and_events() -> None:
    listed = run("--help").stdout
    assert "send " in listed and "events " in listed


def test_the_readme_script_is_valid_and_played_without_a_refusal() -> None:
    """The `casino send` example of services/cli/README.md matches the contracts and the table
    service's rules (actors, seats): every line validates, and a table session accepts it."""
    text = (ROOT / "services" / "cli" / "README.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith('{"command_type"')]
    assert len(lines) >= 4
    versions = current_versions()
    checked = [validate(n, line.encode(), versions) for n, line in enumerate(lines, start=1)]
    assert [c for c in checked if isinstance(c, Answer)] == []
    commands = [c for c in checked if isinstance(c, Command)]
    table = TableSession(commands[0].target_id)
    events = [e for c in commands for e in handle(table, c)]
    assert not [e for e in events if isinstance(e, CommandRejected | BetRejected)]
    assert type(events[-1]).__name__ == "RoundSettled"

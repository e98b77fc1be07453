"""services/cli/README.md describes every `casino` subcommand (a new one must be added)."""
from __future__ import annotations

from services.cli.main import SUBCOMMANDS
from tests.cli.tools import ROOT, run


def test_every_subcommand_has_a_section_in_the_cli_readme() -> None:
    text = (ROOT / "services" / "cli" / "README.md").read_text(encoding="utf-8")
    assert sorted(n for n in SUBCOMMANDS if f"### `casino {n}" not in text) == []


def test_casino_help_lists_send_and_events() -> None:
    listed = run("--help").stdout
    assert "send " in listed and "events " in listed

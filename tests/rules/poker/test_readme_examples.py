"""The request examples in services/rules/poker/README.md settle as documented."""
from __future__ import annotations

import json
import re
from pathlib import Path

from services.rules.api import explain_request, settle_request

README = Path(__file__).resolve().parents[3] / "services" / "rules" / "poker" / "README.md"


def examples() -> list[dict]:
    blocks = re.findall(r"```json\n(.*?)```", README.read_text(), re.S)
    return [json.loads(chunk) for block in blocks for chunk in block.split("\n\n") if chunk.strip()]


def test_every_readme_example_settles_and_explains():
    found = examples()
    assert len(found) == 5
    for req in found:
        result = settle_request(req)
        assert result["ok"], (req, result.get("errors"))
        lines = explain_request(req)
        assert lines[0].startswith(("Caribbean", "Póker ARICA", "Poker Tres Cartas", "Go Poker"))
        assert sum("seed " in line for line in lines) >= len(result["bets"])


def test_first_example_figures():
    req = examples()[0]
    result = settle_request(req)
    # seat 1 pair wins ANTE 1:1 + BET 1:1 (6,000); seat 3 folds (ANTE lost); seat 4 void (500 back)
    assert result["totals"] == {"staked": 4500, "paid": 6500, "house_win": -2000}
    assert [s["result"] for s in result["seats"]] == ["win", "fold", "void"]
    assert result["progressive"]["seats"][0]["status"] == "no_prize"


def test_limits_example_figures_and_explain_lines():
    req = next(r for r in examples() if "limits" in r)
    result = settle_request(req)
    got = [(b["seat"], b["kind"], b["paid"], b.get("excess_returned", 0),
            b.get("under_minimum", False)) for b in result["bets"]]
    assert got == [(1, "ante", 11000, 1000, False), (1, "bet", 62000, 2000, False),
                   (2, "ante", 0, 0, True), (2, "bet", 0, 0, True)]
    row = result["progressive"]["seats"][0]
    assert (row["award"], row["units_played"], row["excess_units_returned"]) == (50000, 2, 1)
    text = README.read_text()
    documented = text[text.index("## Table limits"):text.index("## Switches")]
    block = re.findall(r"```text\n(.*?)```", documented, re.S)[0]
    lines = explain_request(req)
    for line in block.splitlines():
        assert line in lines, line

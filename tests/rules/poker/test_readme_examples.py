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
    assert len(found) == 4
    for req in found:
        result = settle_request(req)
        assert result["ok"], (req, result.get("errors"))
        lines = explain_request(req)
        assert lines[0].startswith(("Caribbean", "Póker ARICA Plus", "Poker Tres Cartas", "Go Poker"))
        assert sum("seed " in line for line in lines) >= len(result["bets"])


def test_first_example_figures():
    req = examples()[0]
    result = settle_request(req)
    # seat 1 pair wins ANTE 1:1 + BET 1:1 (6,000); seat 3 folds (ANTE lost); seat 4 void (500 back)
    assert result["totals"] == {"staked": 4500, "paid": 6500, "house_win": -2000}
    assert [s["result"] for s in result["seats"]] == ["win", "fold", "void"]
    assert result["progressive"]["seats"][0]["status"] == "no_prize"

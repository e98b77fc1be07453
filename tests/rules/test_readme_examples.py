"""Every request example in services/rules/README.md settles: the documentation cannot drift."""
import json

import pytest

from services.rules.api import settle_request
from tests.rules.readme import blocks, readme

README = readme()


def examples() -> list[dict]:
    found = []
    for block in blocks(README, "json"):
        for text in (block, *block.strip().splitlines()):  # one object, or JSON Lines
            try:
                obj = json.loads(text)
            except json.JSONDecodeError:
                continue
            if isinstance(obj, dict) and "game" in obj and "ok" not in obj:
                found.append(obj)
    return found


def test_the_readme_shows_every_game():
    games = {e["game"] for e in examples()}
    assert {"roulette", "craps", "baccarat", "blackjack", "poker", "trente_quarante"} <= games


@pytest.mark.parametrize("request_", examples(), ids=lambda r: f"{r['game']}-{r.get('profile')}")
def test_readme_example_settles_with_rule_references(request_):
    out = settle_request(request_)
    assert out["ok"], out.get("errors")
    assert json.dumps(out).count("seed 0") >= 1

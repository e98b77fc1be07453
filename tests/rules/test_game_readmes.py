"""A game README's worked examples settle and explain exactly as printed, so the
documentation finance and surveillance read cannot drift from the engine.

Each README listed here opens with: a request and its response, a table-limits request and
the part of its response it documents (```json blocks 1-4), and the explain lines of the
first request (the first ```text block)."""
from __future__ import annotations

import json

import pytest

from services.rules.api import explain_request, settle_request
from tests.rules.readme import blocks, readme

GAMES = ["craps", "trente_quarante"]


def json_blocks(game: str) -> list:
    return [json.loads(b) for b in blocks(readme(game), "json")]


@pytest.mark.parametrize("game", GAMES)
def test_readme_request_gives_the_readme_response(game):
    request, response = json_blocks(game)[:2]
    assert settle_request(request) == response


@pytest.mark.parametrize("game", GAMES)
def test_readme_limits_example_gives_the_documented_bets_and_totals(game):
    request, documented = json_blocks(game)[2:4]
    out = settle_request(request)
    assert {k: out[k] for k in documented} == documented


@pytest.mark.parametrize("game", GAMES)
def test_explain_gives_every_line_the_readme_prints(game):
    lines = explain_request(json_blocks(game)[0])
    documented = [x for x in blocks(readme(game), "text")[0].splitlines() if x.strip()]
    assert documented
    for line in documented:
        assert line in lines, line

"""The README example settles as documented; explain tells the coup."""
from __future__ import annotations

import json

from services.rules.api import explain_request, settle_request
from tests.rules.readme import blocks as readme_blocks, readme

README = readme("trente_quarante")


def blocks(lang: str) -> list[str]:
    return readme_blocks(README, lang)


def test_readme_request_gives_the_readme_response():
    request, response = (json.loads(b) for b in blocks("json")[:2])
    assert settle_request(request) == response


def test_readme_limits_example_gives_the_documented_bets_and_totals():
    request, documented = (json.loads(b) for b in blocks("json")[2:4])
    out = settle_request(request)
    assert {k: out[k] for k in documented} == documented


def test_explain_matches_the_readme_lines():
    lines = explain_request(json.loads(blocks("json")[0]))
    for line in (x for x in blocks("text")[0].splitlines() if x.strip()):
        assert line in lines, line
    assert "Switches: tq_color_card=winning_row, rounding=down" in lines


def test_explain_of_a_31_tie():
    lines = explain_request({"game": "trente_quarante", "profile": "BO", "decks": 8,
                             "cards": ["KS", "KH", "KC", "AD", "KD", "KC", "5H", "6S"],
                             "bets": [{"id": "a", "kind": "rojo", "amount": 100}]})
    assert "Both rows at 31: the 31 tie — every bet is blocked (seed 000 §2.4.5.2)" in lines
    assert any(line.startswith("a rojo 100: 31 tie: ROJO is blocked") and "A-19" in line
               for line in lines)

"""Craps README extras (its shared examples: tests/rules/test_game_readmes.py); explain tells
the story roll by roll."""
from __future__ import annotations

import json

from services.rules.api import explain_request
from tests.rules.readme import blocks as readme_blocks
from tests.rules.readme import readme

README = readme("craps")


def blocks(lang: str) -> list[str]:
    return readme_blocks(README, lang)


def test_readme_limits_example_explains_the_limits_and_the_returned_excess():
    # (the example itself settles as printed: tests/rules/test_game_readmes.py)
    lines = explain_request(json.loads(blocks("json")[2]))
    assert "Limits: default 500–5000, odds 100–2000" in lines
    assert any("paid 5400 (net +2400), of which 1000 over the maximum returned (seed 002 "
               "§1.2.1.1)" in line for line in lines)


def test_readme_python_snippet_runs():
    scope: dict = {}
    exec(blocks("python")[0], scope)  # noqa: S102 — our own README
    assert scope["report"].results[0].paid == 3000          # 1500 increased, won 1:1
    assert scope["table"].bets == ()


def test_explain_names_the_profile_and_the_quote_reading_and_totals():
    lines = explain_request(json.loads(blocks("json")[0]))
    assert lines[0].startswith("Profile BO") and "craps_quote_reading=to_one" in lines[2]
    assert lines[-1] == "Totals: staked 3200, paid 8600, house -5400 (bets still on the layout " \
                        "are not decided yet)"


def test_explain_shows_void_rolls_withdrawals_and_seven_out():
    lines = explain_request({
        "game": "craps", "profile": "CL-ARICA", "variant": "mini_craps", "point": 5,
        "bets": [{"id": "p", "kind": "pass_line", "amount": 100},
                 {"id": "h", "kind": "hardway", "number": 4, "amount": 100}],
        "rolls": [{"void": "slid"}, {"dice": [3, 4], "remove": ["h"]}]})
    text = "\n".join(lines)
    assert "variant Mini Craps — seed 004 IV §1.3" in text
    assert "Roll 1: void (slid) — «tirada nula»: no bet is decided" in text
    assert "before roll 2: h hardway: withdrawn before roll 2: paid 100 (net +0)" in text
    assert "seven out: the shooter's turn ends" in text
    assert "p pass_line 5 (100): 7 came before the 5: Línea de pase (Win) loses -> paid 0" in text

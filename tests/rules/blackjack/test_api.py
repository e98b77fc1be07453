"""The game through the rules API and the registry (a fresh process must know the switches)."""
from __future__ import annotations

import json
import subprocess
import sys

from services.rules.api import explain_request, settle_request
from services.rules.core.profiles import get_profile
from services.rules.registry import get_game

REQUEST = {"id": "r-7", "game": "blackjack", "profile": "BO", "switches": {"bj_double": "any"},
           "boxes": [{"seat": 1, "bet": 100, "actions": ["double"]}],
           "cards": ["6H", "7D", "6S", "10C", "QD"]}


def test_registered_under_its_name_for_its_three_profiles():
    game = get_game("blackjack", get_profile("BO"))
    assert game.name == "blackjack" and game.profiles == {"BO", "CL-ARICA", "LIVE-GG"}


def test_settle_request_echoes_the_id_and_returns_json():
    out = settle_request(REQUEST)
    assert out["id"] == "r-7" and out["ok"] is True
    assert out["bets"][0]["stake"] == 200 and out["totals"]["house_win"] == 200
    json.dumps(out)   # JSON-able


def test_switches_are_known_in_a_fresh_process():
    code = ("import json,sys; from services.rules.api import settle_request; "
            "print(json.dumps(settle_request(json.loads(sys.argv[1]))))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(REQUEST)], check=True,
                          capture_output=True, text=True)
    assert json.loads(done.stdout)["ok"] is True


def test_errors_come_back_as_fields():
    out = settle_request({**REQUEST, "cards": ["6H", "7D", "6S", "10C", "QD", "XX"]})
    assert out["ok"] is False and out["errors"][0]["field"] == "cards[5]"


def test_explain_request_starts_with_the_profile():
    lines = explain_request(REQUEST)
    assert lines[0] == "Blackjack classic, profile BO, 6 decks"
    assert any("double on 12 — allowed (any first two cards" in line for line in lines)

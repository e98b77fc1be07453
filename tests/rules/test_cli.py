"""`casino rules settle | edges | explain` through click's CliRunner."""
from __future__ import annotations

import json
from fractions import Fraction

from click.testing import CliRunner

from services.cli.main import casino
from services.rules import cli
from services.rules.core.refs import RuleRef
from services.rules.registry import EdgeRow

GOOD = {"id": "a", "game": "roulette", "profile": "BO", "wheel": "european",
        "bets": [{"kind": "split", "numbers": ["17", "20"], "amount": 1000}],
        "outcome": {"pocket": "17"}}


def run(*args, input=None):
    return CliRunner().invoke(casino, ["rules", *args], input=input)


def lines_of(result):
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_good_batch_exits_0_with_one_line_per_request():
    second = {**GOOD, "id": "b", "outcome": {"pocket": "5"}}
    result = run("settle", input=f"{json.dumps(GOOD)}\n\n{json.dumps(second)}\n")
    assert result.exit_code == 0, result.output
    out = lines_of(result)
    assert [(o["id"], o["ok"], o["bets"][0]["paid"]) for o in out] == [("a", True, 18000),
                                                                       ("b", True, 0)]
    assert out[0]["bets"][0]["rule"] == "seed 000 §4.1.4.2 item 2"


def test_mixed_batch_goes_on_after_bad_lines_and_exits_1(tmp_path):
    bad_bet = {**GOOD, "id": "c", "bets": [{"kind": "street", "numbers": ["1", "2", "4"],
                                            "amount": 10}]}
    unknown_game = {**GOOD, "id": "d", "game": "pachinko"}
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join([json.dumps(GOOD), "{not json", json.dumps(bad_bet),
                               json.dumps(unknown_game), json.dumps(GOOD)]) + "\n")
    result = run("settle", str(path))
    assert result.exit_code == 1
    out = lines_of(result)
    assert [o["ok"] for o in out] == [True, False, False, False, True]
    assert out[1]["errors"][0]["field"] == "line"
    assert "invalid JSON" in out[1]["errors"][0]["reason"]
    assert out[1]["line"] == 2
    assert out[2]["id"] == "c" and out[2]["errors"][0]["field"] == "bets[0].numbers"
    assert out[3]["errors"][0]["field"] == "game"


def test_edges_table_and_json():
    result = run("edges", "--profile", "CL-ARICA", "--game", "roulette")
    assert "five_number" in result.stdout and "+7.8947 %" in result.stdout
    assert "3/38" in result.stdout
    result = run("edges", "--profile", "BO", "--json", "--game", "roulette",
                 "--switch", "roulette_zero_even_chance=prison")
    rows = [r for r in lines_of(result) if r["game"] == "roulette"]
    prison = [r for r in rows if r["bet"] == "red"]
    assert [r["variant"] for r in prison] == ["european, zero: half_back", "european, zero: prison"]
    assert prison[1]["edge_exact"] == "19/1369" and prison[1]["flagged"] is False


def test_edges_rejects_a_bad_switch():
    result = run("edges", "--profile", "BO", "--game", "roulette",
                 "--switch", "roulette_zero_even_chance=maybe")
    assert result.exit_code == 2 and "switches.roulette_zero_even_chance" in result.output
    assert run("edges", "--profile", "BO", "--switch", "novalue").exit_code == 2


def test_every_game_is_iterated_and_a_missing_package_is_reported_not_fatal(monkeypatch):
    # only roulette and a package that does not exist: the other games' edges are theirs to test
    monkeypatch.setattr(cli, "GAME_PACKAGES", {"roulette": "services.rules.roulette",
                                               "pachinko": "services.rules.pachinko"})
    result = run("edges", "--profile", "AR-RUL")
    assert result.exit_code == 0
    assert "pachinko: not yet available" in result.stderr
    assert "roulette" in result.stdout and "none flagged" in result.stdout


def test_flagged_rows_carry_the_marker():
    rows = [EdgeRow("craps", "x", "fair bet", Fraction(0), "exact enumeration", RuleRef("000")),
            EdgeRow("craps", "x", "house bet", Fraction(1, 36), "exact enumeration",
                    RuleRef("000"))]
    text = cli._table(rows).splitlines()
    assert text[2].endswith(f"<-- {cli.FLAG}") and cli.FLAG not in text[3]


def test_explain_prints_the_reasoning_and_fails_cleanly():
    result = run("explain", input=json.dumps(GOOD, indent=2))
    assert result.exit_code == 0 and "17 wins split: paid 17:1" in result.stdout
    result = run("explain", input=json.dumps({**GOOD, "outcome": {"pocket": "37"}}))
    assert result.exit_code == 1 and "outcome.pocket" in result.stderr
    assert run("explain", input="{").exit_code == 1


def test_every_command_has_help():
    for cmd in ([], ["settle"], ["edges"], ["explain"]):
        result = run(*cmd, "--help")
        assert result.exit_code == 0 and "Usage" in result.output


def test_edges_json_writes_simulated_rows_too():
    # blackjack edges are simulated (numpy): a numpy bool in "flagged" once crashed --json
    result = run("edges", "--profile", "LIVE-GG", "--game", "blackjack", "--json")
    assert result.exit_code == 0, result.output
    rows = lines_of(result)
    assert rows and all(isinstance(r["flagged"], bool) for r in rows)
    assert any(r["edge_exact"] is None and "simulation" in r["method"] for r in rows)


def test_edges_table_says_why_each_flagged_row_is_flagged():
    result = run("edges", "--profile", "BO", "--game", "craps")
    assert result.exit_code == 0
    tail = result.stdout.split("flagged CHECK PAY TABLE:")[1].splitlines()
    assert len([t for t in tail if t.strip()]) == 5
    assert all("craps_quote_reading=for_one" in t for t in tail if t.strip())


def test_edges_say_which_switches_a_silent_profile_needs_and_exit_1():
    # BO baccarat: the pay table is in no seed (seed 002 §2.2.7), so no edge without switches
    result = run("edges", "--profile", "BO", "--game", "baccarat", "--game", "roulette")
    assert result.exit_code == 1
    assert "roulette" in result.stdout  # the other games still get their rows
    assert "baccarat: not computed" in result.stdout and "--switch" in result.stdout
    assert "baccarat_commission" in result.stderr
    switches = ["--switch", "baccarat_commission=5%", "--switch", "baccarat_tie_pays=8:1",
                "--switch", "baccarat_player_pays=1:1"]
    result = run("edges", "--profile", "BO", "--game", "baccarat", *switches)
    assert result.exit_code == 0 and "not computed" not in result.output


def test_a_byte_order_mark_does_not_fail_the_first_line(tmp_path):
    # files saved by Windows editors start with a UTF-8 BOM
    path = tmp_path / "batch.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\r\n")
    result = run("settle", str(path))
    assert result.exit_code == 0, result.output
    assert lines_of(result)[0]["ok"] is True
    explained = CliRunner().invoke(casino, ["rules", "explain", str(path)])
    assert explained.exit_code == 0 and "17 wins split" in explained.stdout


def test_a_mixed_batch_over_every_kind_of_bad_input_names_field_and_reason(tmp_path):
    """The issue's bad-input list, one line each between good lines of other games; the batch
    goes on and the exit code says some lines failed."""
    bj = {"game": "blackjack", "profile": "BO", "variant": "classic",
          "boxes": [{"seat": 1, "bet": 1000, "actions": ["stand"]}],
          "cards": ["10H", "9S", "10D", "8C"]}
    bac = {"game": "baccarat", "profile": "LIVE-GG", "variant": "live",
           "bets": [{"kind": "banker", "amount": 1000}], "cards": ["9H", "KS", "3C", "5D", "8S"]}
    roul = {"game": "roulette", "profile": "BO", "outcome": {"pocket": "1"}}
    cases = [  # (request, field, words)
        (bj, None, None),
        ({**GOOD, "game": "keno"}, "game", "unknown game"),
        ({**GOOD, "profile": "XX"}, "profile", "unknown profile"),
        ({**roul, "bets": [{"kind": "quint", "amount": 100}]}, "bets[0].kind", "unknown bet"),
        ({**roul, "bets": [{"kind": "corner", "numbers": ["1", "2", "3", "4"], "amount": 100}]},
         "bets[0].numbers", "not a corner"),
        ({**roul, "outcome": {"pocket": "00"}, "bets": [{"kind": "red", "amount": 100}]},
         "outcome.pocket", "not a pocket"),
        ({**roul, "bets": [{"kind": "red", "amount": -100}]}, "bets[0].amount", "negative"),
        ({**roul, "bets": [{"kind": "red", "amount": 100.5}]}, "bets[0].amount", "fractional"),
        ({**bac, "cards": ["1X", "KS", "3C", "5D"]}, "cards[0]", "not a card"),
        ({**bac, "cards": ["AS"] * 6, "shoe": {"previous_cards": ["AS"] * 3}}, "cards[5]",
         "impossible sequence"),
        ({**bj, "cards": ["KS"] * 7}, "cards[6]", "impossible sequence"),
        ({**bac, "profile": "LIVE-GG", "limits": {"minimum": 100, "maximum": 500}},
         "bets[0].amount", "outside the table limits"),
        (bac, None, None),
    ]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(json.dumps(r) for r, _, _ in cases) + "\n")
    result = run("settle", str(path))
    assert result.exit_code == 1
    out = lines_of(result)
    assert len(out) == len(cases)
    for got, (_, field, words) in zip(out, cases):
        if field is None:
            assert got["ok"] is True and all("rule" in b for b in got["bets"])
            continue
        assert got["ok"] is False and got["errors"][0]["field"] == field, got
        assert words in got["errors"][0]["reason"], got

"""Table limits in Treinta y Cuarenta (seed 002 §1.2.1.1; domain.md §1.2, A-2).

The playing stake (at most the maximum) wins 1:1, is lost, half returned or imprisoned; the
excess comes back when the bet is decided. Figures are worked by hand.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.api import explain_request
from tests.rules.trente_quarante.helpers import error, every_bet, ok, request
from tests.rules.trente_quarante.test_properties import coups

ROJO_WINS = ["5H", "10S", "10C", "8D", "9C", "KD", "2H", "10H"]     # NEGRO 33, ROJO 31
REFAIT = ["KS", "KH", "KC", "AD", "KD", "KC", "5H", "6S"]           # 31 tie
ANCAR = ["KS", "KH", "KC", "3D", "KD", "KC", "5H", "8S"]            # 33 a 33
LIMITS = {"minimum": 500, "maximum": 5000}
RULE = "seed 002 §1.2.1.1"


def bets_by_id(out: dict) -> dict[str, dict]:
    return {b["id"]: b for b in out["bets"] if b["kind"] != "insurance"}


def test_winning_and_losing_over_maximum():
    out = ok(ROJO_WINS, [{"id": "r", "kind": "rojo", "amount": 8000},
                         {"id": "n", "kind": "negro", "amount": 8000}], limits=LIMITS)
    got = bets_by_id(out)
    # ROJO: 5000 plays and wins 1:1, 3000 returned; NEGRO: 5000 lost, 3000 returned
    assert (got["r"]["outcome"], got["r"]["paid"], got["r"]["excess_returned"]) == \
        ("win", 13000, 3000)
    assert (got["n"]["outcome"], got["n"]["paid"], got["n"]["net"]) == ("lose", 3000, -5000)
    for b in got.values():
        assert b["limit_rule"] == RULE and "3000 over the table maximum returned" in b["detail"]
    assert out["totals"] == {"staked": 16000, "paid": 16000, "house_win": 0}


def test_under_minimum_is_settled_on_the_stake_and_flagged():
    got = bets_by_id(ok(ROJO_WINS, [{"id": "i", "kind": "inverso", "amount": 300},
                                    {"id": "c", "kind": "color", "amount": 300}],
                        limits=LIMITS))
    assert (got["i"]["outcome"], got["i"]["paid"], got["i"]["under_minimum"]) == ("win", 600, True)
    assert (got["c"]["outcome"], got["c"]["paid"], got["c"]["under_minimum"]) == ("lose", 0, True)
    assert "jefe de sala" in got["i"]["detail"] and "A-2" in got["i"]["detail"]


def test_neutral_tie_returns_everything_and_still_says_what_played():
    got = bets_by_id(ok(ANCAR, [{"id": "r", "kind": "rojo", "amount": 8000}], limits=LIMITS))
    assert (got["r"]["outcome"], got["r"]["paid"], got["r"]["excess_returned"]) == \
        ("push", 8000, 3000)


def test_prison_keeps_the_whole_amount_and_the_limit_applies_when_decided():
    out = ok(REFAIT, [{"id": "r", "kind": "rojo", "amount": 8000}], limits=LIMITS)
    jailed = bets_by_id(out)["r"]
    assert (jailed["outcome"], jailed["paid"], jailed["imprisoned_stake"]) == ("prison", 0, 8000)
    assert "3000 over the table maximum, returned when the bet is decided" in jailed["detail"]
    assert out["state"]["prison"] == [{"id": "r", "kind": "rojo", "amount": 8000,
                                       "imprisoned": True}]
    assert out["totals"] == {"staked": 0, "paid": 0, "house_win": 0}
    # next coup, ROJO wins: freed (5000 back) + 3000 excess
    freed = bets_by_id(ok(ROJO_WINS, out["state"]["prison"], limits=LIMITS))["r"]
    assert (freed["outcome"], freed["paid"], freed["excess_returned"]) == ("push", 8000, 3000)
    # or it loses: only the excess comes back
    lost = bets_by_id(ok(ROJO_WINS, [dict(out["state"]["prison"][0], kind="negro")],
                         limits=LIMITS))["r"]
    assert (lost["outcome"], lost["paid"]) == ("lose", 3000)


def test_surrender_and_insurance_are_taken_on_the_playing_stake():
    jailed = {"id": "r", "kind": "rojo", "amount": 8001, "imprisoned": True}
    out = ok(None, [dict(jailed, surrender=True)], limits=LIMITS)
    assert bets_by_id(out)["r"]["paid"] == 2500 + 3001          # half of 5000 + the excess
    out = ok(REFAIT, [dict(jailed, insured=True)], limits=LIMITS)
    premium = next(b for b in out["bets"] if b["kind"] == "insurance")
    assert premium["stake"] == 50 and "on the 5000 that plays" in premium["detail"]
    # a second 31 tie, insured: half of the 5000 kept, plus the excess
    assert bets_by_id(out)["r"]["paid"] == 2500 + 3001


@pytest.mark.parametrize("limits, field, words", [
    ([500, 5000], "limits", "minimum"),
    ({"minimum": 6000, "maximum": 5000}, "limits", "0 <= minimum <= maximum"),
    ({"maximum": 5000}, "limits.minimum", "integer amount"),
    ({"minimum": 1, "maximum": "lots"}, "limits.maximum", "not a number"),
    ({"minimum": 1, "maximum": 5000, "rojo": {"minimum": 1, "maximum": 2}}, "limits.rojo",
     "unknown field"),
])
def test_limits_errors_name_the_field(limits, field, words):
    got, reason = error(ROJO_WINS, every_bet(), limits=limits)
    assert got == field and words in reason, reason


def test_limits_errors_come_with_the_other_errors():
    from services.rules.api import settle_request
    out = settle_request(request(ROJO_WINS, [{"kind": "rojo", "amount": -1}], decks=5,
                                 limits={"minimum": 9, "maximum": 1}))
    assert [e["field"] for e in out["errors"]] == ["decks", "bets[0].amount", "limits"]


def test_reject_and_cascade_overrides():
    field, reason = error(ROJO_WINS, [{"kind": "rojo", "amount": 100}, {"kind": "negro",
                                                                         "amount": 9000}],
                          limits=LIMITS, switches={"over_max": "reject"})
    assert field == "bets[0].amount" and "outside the table limits 500–5000" in reason
    field, reason = error(ROJO_WINS, every_bet(), limits=LIMITS,
                          switches={"over_max": "ar_cascade"})
    assert field == "switches.over_max" and "roulette" in reason


def test_explain_shows_the_limits():
    lines = explain_request(request(ROJO_WINS, [{"id": "r", "kind": "rojo", "amount": 8000}],
                                    limits=LIMITS))
    assert "Limits: 500–5000 per bet" in lines
    assert any(line.startswith("r rojo 8000: ROJO wins, paid 1:1; 3000 over the table maximum "
                               "returned, 5000 played (seed 002 §1.2.1.1) -> win, paid 13000")
               for line in lines)


@settings(max_examples=80, deadline=None)
@given(coups(), st.lists(st.integers(1, 10**6), min_size=4, max_size=4),
       st.integers(1, 10**6), st.integers(0, 10**6), st.booleans())
def test_limits_conserve_stakes_and_pay_exactly_the_capped_bet_plus_the_excess(
        coup, amounts, high, low, jailed):
    """With limits = the capped amounts without limits, plus the excess (prison: decided
    later, so nothing is returned yet)."""
    decks, cards = coup
    bets = [dict(b, amount=a, imprisoned=jailed) for b, a in zip(every_bet(), amounts)]
    limits = {"minimum": min(low, high), "maximum": high}
    got = ok(cards, bets, decks=decks, limits=limits)
    plain = ok(cards, [dict(b, amount=min(b["amount"], high)) for b in bets], decks=decks)
    amount = {b["id"]: b["amount"] for b in bets}
    assert sum(b["stake"] for b in got["bets"]) == sum(amounts)
    for b, p in zip(got["bets"], plain["bets"]):
        assert (b["id"], b["outcome"]) == (p["id"], p["outcome"])
        if b["outcome"] == "prison":
            assert b["paid"] == 0 and b["imprisoned_stake"] == amount[b["id"]]
            continue
        excess = max(0, amount[b["id"]] - high)
        assert b["paid"] == p["paid"] + excess and b.get("excess_returned", 0) == excess
        assert b.get("under_minimum", False) == (amount[b["id"]] < limits["minimum"])
    assert got["totals"]["house_win"] == plain["totals"]["house_win"]
    decided = [b for b in got["bets"] if b["outcome"] != "prison"]
    assert got["totals"]["staked"] == sum(b["stake"] for b in decided)

"""Each rule of seed 000 §2.4: rows, winner, COLOR/INVERSO, ties, the 31 tie, insurance."""
from __future__ import annotations

import pytest

from tests.rules.trente_quarante.helpers import every_bet, ok, outcomes

# NEGRO: KS 9H 7C 5D = 31; ROJO: QH JD 8S 4C = 32 -> NEGRO wins; first cards KS (black), QH (red)
NEGRO_WINS = ["KS", "9H", "7C", "5D", "QH", "JD", "8S", "4C"]
# NEGRO: 5H 10S 10C 8D = 33; ROJO: 9C KD 2H 10H = 31 -> ROJO wins; first cards 5H (red), 9C (black)
ROJO_WINS = ["5H", "10S", "10C", "8D", "9C", "KD", "2H", "10H"]
# both 34
TIE_34 = ["KS", "KH", "4C", "QS", "9D", "KD", "JC", "5H"]
# both 31
REFAIT = ["KS", "KH", "KC", "AD", "KD", "KC", "5H", "6S"]


def test_rows_are_dealt_negro_first_until_31_and_figures_count_10():
    out = ok(NEGRO_WINS, every_bet())
    assert out["coup"]["negro"] == {"cards": ["KS", "9H", "7C", "5D"], "total": 31}
    assert out["coup"]["rojo"] == {"cards": ["QH", "JD", "8S", "4C"], "total": 32}


def test_a_row_can_end_at_40():
    # 30 then a ten makes 40, still a valid row total.
    out = ok(["KS", "KH", "KC", "10D", "KD", "KC", "AH", "KS"], every_bet())
    assert out["coup"]["negro"]["total"] == 40 and out["coup"]["rojo"]["total"] == 31
    assert outcomes(out)["rojo"] == ("win", 2000)


def test_aces_count_one():
    out = ok(["AS"] * 6 + ["KH", "KH", "KS"] + ["AD", "KD", "KC", "KH"], every_bet(), decks=8)
    assert out["coup"]["negro"]["cards"] == ["AS"] * 6 + ["KH", "KH", "KS"]
    assert out["coup"]["negro"]["total"] == 36 and out["coup"]["rojo"]["total"] == 31


def test_row_closest_to_31_wins_even_money():
    got = outcomes(ok(NEGRO_WINS, every_bet()))
    assert got["negro"] == ("win", 2000) and got["rojo"] == ("lose", 0)
    got = outcomes(ok(ROJO_WINS, every_bet()))
    assert got["rojo"] == ("win", 2000) and got["negro"] == ("lose", 0)


@pytest.mark.parametrize("cards, reading, color_wins", [
    (NEGRO_WINS, "winning_row", True),    # NEGRO won, its first card KS is black
    (NEGRO_WINS, "first_row", True),      # the first card of the NEGRO row: the same card
    (ROJO_WINS, "winning_row", False),    # ROJO won, its first card 9C is black: inverso
    (ROJO_WINS, "first_row", True),       # NEGRO's first card 5H is red, ROJO won: color
])
def test_color_inverso_per_reading_of_a17(cards, reading, color_wins):
    out = ok(cards, every_bet(), switches={"tq_color_card": reading})
    got = outcomes(out)
    assert got["color"] == (("win", 2000) if color_wins else ("lose", 0))
    assert got["inverso"] == (("lose", 0) if color_wins else ("win", 2000))
    assert out["coup"]["winning"][1] == ("color" if color_wins else "inverso")


def test_default_color_card_is_the_winning_rows_first_card():
    out = ok(ROJO_WINS, every_bet())
    assert out["coup"]["color_card"] == "9C" and outcomes(out)["inverso"][0] == "win"


def test_tie_other_than_31_is_neutral():
    out = ok(TIE_34, every_bet())
    assert out["coup"]["result"] == "tie" and out["coup"]["negro"]["total"] == 34
    assert set(outcomes(out).values()) == {("push", 1000)}
    assert out["totals"]["house_win"] == 0 and out["state"]["prison"] == []


def test_31_tie_blocks_every_bet_in_prison():
    out = ok(REFAIT, every_bet())
    assert out["coup"]["result"] == "refait"
    assert set(outcomes(out).values()) == {("prison", 0)}
    assert all(b["imprisoned_stake"] == 1000 and "A-19" in b["rule_note"] for b in out["bets"])
    assert out["totals"] == {"staked": 0, "paid": 0, "house_win": 0}
    assert out["state"]["prison"] == [{"id": k, "kind": k, "amount": 1000, "imprisoned": True}
                                      for k in ("rojo", "negro", "color", "inverso")]


def prisoner(kind, **flags):
    return [{"id": "p", "kind": kind, "amount": 1000, "imprisoned": True, **flags}]


def test_prisoner_is_freed_when_its_option_wins_and_lost_otherwise():
    assert outcomes(ok(NEGRO_WINS, prisoner("negro")))["p"] == ("push", 1000)
    assert outcomes(ok(NEGRO_WINS, prisoner("rojo")))["p"] == ("lose", 0)


def test_prisoner_stays_through_a_neutral_tie():
    out = ok(TIE_34, prisoner("color"))
    assert outcomes(out)["p"] == ("prison", 0)
    assert out["state"]["prison"] == [{"id": "p", "kind": "color", "amount": 1000,
                                       "imprisoned": True}]


def test_second_31_tie_loses_an_uninsured_prisoner():
    assert outcomes(ok(REFAIT, prisoner("rojo")))["p"] == ("lose", 0)


def test_insurance_costs_1_percent_and_saves_half_on_a_second_31_tie():
    out = ok(REFAIT, prisoner("rojo", insured=True))
    premium, bet = out["bets"]
    assert (premium["kind"], premium["stake"], premium["paid"]) == ("insurance", 10, 0)
    assert (bet["outcome"], bet["paid"]) == ("half_back", 500)
    assert out["totals"] == {"staked": 1010, "paid": 500, "house_win": 510}


def test_insurance_is_paid_even_when_not_needed():
    out = ok(NEGRO_WINS, prisoner("negro", insured=True))
    assert [(b["kind"], b["paid"]) for b in out["bets"]] == [("insurance", 0), ("negro", 1000)]


def test_insurance_premium_on_a_small_stake_rounds_down():
    out = ok(REFAIT, [{"id": "p", "kind": "rojo", "amount": 150, "imprisoned": True,
                       "insured": True}])
    assert out["bets"][0]["stake"] == 1          # 1.5 -> 1 under rounding=down
    out = ok(REFAIT, [{"id": "p", "kind": "rojo", "amount": 150, "imprisoned": True,
                       "insured": True}], switches={"rounding": "half_up"})
    assert out["bets"][0]["stake"] == 2


def test_surrender_returns_half_without_needing_cards():
    out = ok(None, [{"id": "p", "kind": "inverso", "amount": 1001, "imprisoned": True,
                     "surrender": True}])
    assert outcomes(out)["p"] == ("half_back", 500)   # the odd unit stays with the house
    assert "coup" not in out


def test_surrender_alongside_a_coup():
    out = ok(ROJO_WINS, [*prisoner("negro", surrender=True), {"id": "n", "kind": "rojo",
                                                               "amount": 100}])
    assert outcomes(out) == {"p": ("half_back", 500), "n": ("win", 200)}

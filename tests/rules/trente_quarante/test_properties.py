"""Properties over random coups dealt from a shuffled shoe (hypothesis)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.trente_quarante.helpers import every_bet, ok, outcomes, rows, value

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@st.composite
def coups(draw):
    decks = draw(st.sampled_from([6, 7, 8]))
    shoe = [r + s for r in RANKS for s in "SHDC"] * decks
    draw(st.randoms(use_true_random=False)).shuffle(shoe)
    negro, rojo = rows(shoe)
    return decks, negro + rojo


@settings(max_examples=200, deadline=None)
@given(coups(), st.integers(1, 10**7), st.sampled_from(["winning_row", "first_row"]))
def test_every_coup_settles_consistently(coup, amount, reading):
    decks, cards = coup
    out = ok(cards, every_bet(amount), decks=decks, switches={"tq_color_card": reading})
    negro, rojo = rows(cards)
    tn, tr = sum(map(value, negro)), sum(map(value, rojo))
    assert (out["coup"]["negro"]["total"], out["coup"]["rojo"]["total"]) == (tn, tr)
    assert 31 <= tn <= 40 and 31 <= tr <= 40
    got = outcomes(out)
    assert all(paid >= 0 for _, paid in got.values())
    if tn == tr == 31:
        assert {o for o, _ in got.values()} == {"prison"}
    elif tn == tr:
        assert set(got.values()) == {("push", amount)}
    else:
        winner, loser = ("negro", "rojo") if tn < tr else ("rojo", "negro")
        assert got[winner] == ("win", 2 * amount) and got[loser] == ("lose", 0)
        card = (negro if reading == "first_row" or winner == "negro" else rojo)[0]
        same = (card[-1] in "HD") == (winner == "rojo")
        assert got["color" if same else "inverso"] == ("win", 2 * amount)
        assert got["inverso" if same else "color"] == ("lose", 0)
    # stake conservation: the house wins exactly what the players lose
    assert out["totals"]["house_win"] == sum(amount - p for o, p in got.values() if o != "prison")

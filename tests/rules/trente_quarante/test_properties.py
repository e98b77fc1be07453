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


@st.composite
def mixed_bets(draw):
    """Fresh, imprisoned, imprisoned+insured and surrendering bets on any option (seed 000
    §2.4.5.2: the 31 tie, «esperar la siguiente jugada», the 1 % «asegurar»)."""
    out = []
    for i in range(draw(st.integers(1, 8))):
        bet = {"id": f"b{i}", "kind": draw(st.sampled_from(["rojo", "negro", "color", "inverso"])),
               "amount": draw(st.integers(1, 10**6))}
        state = draw(st.sampled_from(["fresh", "imprisoned", "insured", "surrender"]))
        if state != "fresh":
            bet["imprisoned"] = True
        if state == "insured":
            bet["insured"] = True
        if state == "surrender":
            bet["surrender"] = True
        out.append(bet)
    return out


@settings(max_examples=150, deadline=None)
@given(coups(), mixed_bets(), st.randoms(use_true_random=False))
def test_mixed_states_conserve_money_and_ignore_bet_order(coup, bets, rnd):
    decks, cards = coup
    out = ok(cards, bets, decks=decks)
    decided = [b for b in out["bets"] if b["outcome"] != "prison"]
    assert all(b["paid"] >= 0 and b["net"] == b["paid"] - b["stake"] for b in out["bets"])
    # every minor unit staked and decided is either paid back or kept by the house
    assert out["totals"]["staked"] == sum(b["stake"] for b in decided)
    assert out["totals"]["paid"] == sum(b["paid"] for b in decided)
    assert out["totals"]["house_win"] == out["totals"]["staked"] - out["totals"]["paid"]
    shuffled = bets[:]
    rnd.shuffle(shuffled)
    again = ok(cards, shuffled, decks=decks)
    key = lambda r: sorted((b["id"], b["kind"], b["outcome"], b["stake"], b["paid"])  # noqa: E731
                           for b in r["bets"])
    assert key(again) == key(out) and again["totals"] == out["totals"]

"""Exact edges: the engine's vectorised enumeration against an independent recursive one.

The oracle below walks the shoe card by card with plain integers (no numpy, no grid) and the
drawing table transcribed from the seed (seed_tables.py). Both must give identical Fractions.
Published values (8 decks: banker 1.0579 %, player 1.2351 %, tie 14.36 %) are asserted only as
a cross-check of what we computed.
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

import services.rules.baccarat  # noqa: F401
from services.rules.baccarat import edges
from services.rules.baccarat.coup import play
from services.rules.baccarat.variants import variants_for
from services.rules.core.cards import Card
from services.rules.core.errors import RulesError
from services.rules.core.profiles import get_profile
from services.rules.registry import get_game
from tests.rules.baccarat import seed_tables as seed

BO_SWITCHES = {"baccarat_commission": "5%", "baccarat_tie_pays": "8:1",
               "baccarat_player_pays": "1:1"}


def oracle(decks: int, draw_at_5: bool = True) -> tuple[Fraction, Fraction, Fraction]:
    """P(Punto wins), P(Banca wins), P(tie) by walking every draw from the full shoe."""
    counts = [16 * decks] + [4 * decks] * 9
    n = 52 * decks
    acc = {"p": 0, "b": 0, "t": 0}

    def record(p: int, b: int, weight: int) -> None:
        acc["p" if p > b else "b" if b > p else "t"] += weight

    def take(v: int) -> int:
        w = counts[v]
        counts[v] -= 1
        return w

    def rest(first4: list[int], w4: int) -> None:
        p = (first4[0] + first4[2]) % 10
        b = (first4[1] + first4[3]) % 10
        if p in seed.NATURALS or b in seed.NATURALS:
            return record(p, b, w4 * (n - 4) * (n - 5))
        if p in seed.PUNTO_DRAWS_ON and (p != 5 or draw_at_5):
            for x in range(10):
                w5 = w4 * take(x)
                if w5:
                    p3 = (p + x) % 10
                    if seed.banca_draws(b, x):
                        for y in range(10):
                            record(p3, (b + y) % 10, w5 * counts[y])
                    else:
                        record(p3, b, w5 * (n - 5))
                counts[x] += 1
        elif b <= 5:
            for y in range(10):
                record(p, (b + y) % 10, w4 * counts[y] * (n - 5))
        else:
            record(p, b, w4 * (n - 4) * (n - 5))

    def deal(prefix: list[int], weight: int) -> None:
        if len(prefix) == 4:
            return rest(prefix, weight)
        for v in range(10):
            w = take(v)
            if w:
                deal(prefix + [v], weight * w)
            counts[v] += 1

    deal([], 1)
    total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert sum(acc.values()) == total
    return Fraction(acc["p"], total), Fraction(acc["b"], total), Fraction(acc["t"], total)


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_enumeration_matches_independent_oracle(decks):
    o = edges.odds(decks)
    assert (o.player, o.banker, o.tie) == oracle(decks)
    assert o.player + o.banker + o.tie == 1


def test_chemin_stand_at_5_matches_oracle():
    o = edges.odds(8, "stand")
    assert (o.player, o.banker, o.tie) == oracle(8, draw_at_5=False)


def test_known_8_and_6_deck_edges_live_profile():
    rows = {r.bet: r for r in get_game("baccarat").edges(get_profile("LIVE-GG"))}
    assert set(rows) == {"player", "banker", "tie"}
    assert all(isinstance(r.edge, Fraction) and "exact enumeration" in r.method
               for r in rows.values())
    # published 8-deck figures (Wizard of Odds): banker 1.0579 %, player 1.2351 %, tie 14.3596 %
    assert abs(float(rows["banker"].edge) - 0.010579) < 5e-7
    assert abs(float(rows["player"].edge) - 0.012351) < 5e-7
    assert abs(float(rows["tie"].edge) - 0.143596) < 5e-7
    six = edges.odds(6)
    b6 = -(six.banker * Fraction(19, 20) - six.player)
    assert abs(float(b6) - 0.010558) < 5e-7  # published 6-deck banker edge 1.0558 %


def test_cl_commission_10_percent_raises_the_banker_edge_by_5_percent_of_banker_wins():
    cl = {(r.variant, r.bet): r.edge for r in get_game("baccarat").edges(get_profile("CL-ARICA"))}
    assert set(cl) == {(v, b) for v in ("punto_banca", "mini") for b in ("player", "banker", "tie")}
    o = edges.odds(6)
    assert cl[("mini", "banker")] == -(o.banker * Fraction(9, 10) - o.player)
    assert cl[("mini", "banker")] - Fraction(1, 20) * o.banker == \
        -(o.banker * Fraction(19, 20) - o.player)
    assert cl[("mini", "tie")] == -(8 * o.tie - (1 - o.tie))


def test_bo_edges_need_the_missing_pay_table():
    with pytest.raises(RulesError) as err:
        get_game("baccarat").edges(get_profile("BO"))
    assert [e.field for e in err.value.errors] == ["profile"] * 3
    assert all(name in str(err.value) for name in BO_SWITCHES)
    rows = get_game("baccarat").edges(get_profile("BO", BO_SWITCHES))
    variants = {r.variant for r in rows}
    assert variants == {"punto_banca", "midi", "mini", "chemin_de_fer/draw",
                        "chemin_de_fer/stand", "chemin_de_fer/punto_optimal"}
    assert not any(r.bet == "tie" for r in rows if r.variant.startswith("chemin"))


def test_chemin_optimal_choice_is_at_least_as_good_for_punto():
    draw, stand, best = (edges.odds(8, p) for p in ("draw", "stand", "punto_optimal"))
    ev = {name: o.player - o.banker for name, o in (("draw", draw), ("stand", stand),
                                                     ("best", best))}
    assert ev["best"] >= max(ev["draw"], ev["stand"])
    assert ev["best"] > ev["draw"]  # seeing Banca's two cards face up is worth something


def test_vectorised_rules_agree_with_the_settlement_engine():
    """The grid's outcome for random sequences equals play() on the same cards."""
    rng = random.Random(7)
    v, _ = edges._sequences(1)
    live = variants_for(get_profile("LIVE-GG"))["live"]
    for _policy, draw in (("draw", True), ("stand", False)):
        p, b = edges._results(v, draw)
        for index in rng.sample(range(edges.SEQUENCES), 1500):
            values = [int(v[k][index]) for k in range(6)]
            cards = [Card(x if x else 13, "SHDC"[k % 4]) for k, x in enumerate(values)]
            chemin = variants_for(get_profile("BO", BO_SWITCHES))["chemin_de_fer"]
            p0, b0 = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
            natural = p0 >= 8 or b0 >= 8
            need = seed.cards_needed(p0, b0, values[4], draw_at_5=draw)
            coup = (play(cards[:need], chemin, draw) if p0 == 5 and not natural
                    else play(cards[:need], live))
            assert (coup.punto_total, coup.banca_total) == (p[index], b[index])

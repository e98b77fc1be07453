"""House edges: exact side bets, the simulated main bet, and the simulator checked round by
round against the settlement engine (two independent implementations of the rules)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from services.rules.blackjack.autoplay import PolicyDecider, basic_strategy_policy
from services.rules.blackjack.edges import even_money_edge, insurance_edge, insurance_ten_edge
from services.rules.blackjack.game import BlackjackGame
from services.rules.blackjack.play import play_round
from services.rules.blackjack.request import parse_request
from services.rules.blackjack.rules import rules_for
from services.rules.blackjack.simulate import simulate, simulate_rounds
from services.rules.blackjack.strategy import (
    DOUBLE,
    HIT,
    STAND,
    SURRENDER,
    compute_strategy,
    dealer_distribution,
)
from services.rules.core.cards import Card
from services.rules.core.profiles import get_profile


def test_exact_insurance_even_money_and_ten_insurance():
    assert insurance_edge(6) == Fraction(23, 311)       # 2·96/311 − 215/311 = −23/311
    assert insurance_edge(8) == Fraction(31, 415)
    assert even_money_edge(6) == Fraction(12, 309)      # 1 − 3/2 · (1 − 95/309)
    assert insurance_ten_edge(6) == Fraction(167, 311)  # 5·24/311 − 287/311


@pytest.mark.parametrize("profile,bets", [
    ("BO", ["classic/main", "challenge21/main", "perfect_pairs/perfect pairs",
            "classic/insurance", "classic/even money (instead of waiting)"]),
    ("CL-ARICA", ["classic/main with promotions", "classic/main without promotions",
                  "perfect_pairs/perfect pairs", "classic/insurance",
                  "classic/even money (instead of waiting)",
                  "classic/insurance against a 10 (promotion)"]),
    ("LIVE-GG", ["classic/main", "classic/insurance"]),
])
def test_edge_rows_of_each_profile(profile, bets):
    rows = BlackjackGame(edge_hands=4000).edges(get_profile(profile))
    assert [f"{r.variant}/{r.bet}" for r in rows] == bets
    for row in rows:
        d = row.to_dict()
        assert d["rule"].startswith("seed 00")
        if "simulation" in row.method:
            assert "4,000 rounds" in row.method and "95% CI ±" in row.method
            assert isinstance(row.edge, float) and abs(row.edge) < 0.2
        else:
            assert isinstance(row.edge, Fraction) and d["edge_exact"] == str(row.edge)


def test_simulation_is_reproducible_and_its_interval_shrinks_with_hands():
    rules = rules_for(get_profile("BO"))
    a, b = simulate(rules, 20_000, seed=1), simulate(rules, 20_000, seed=1)
    c = simulate(rules, 80_000, seed=2)
    assert a.mean == b.mean and a.std == b.std
    assert 0.4 < c.ci95 / a.ci95 < 0.6           # ≈ 1/2 for four times the hands
    assert 1.0 < a.std < 1.25                     # a blackjack round's spread per unit bet


def test_cl_promotions_are_worth_about_a_percent_to_the_player():
    sim = simulate(rules_for(get_profile("CL-ARICA")), 60_000, seed=3)
    # the jack-of-spades blackjack alone: 2·(24/312)·(6/311)·4 = 1.19 %
    assert 0.008 < sim.mean - sim.mean_main < 0.018


PAIRED = [
    ("BO", "classic", {}), ("BO", "challenge21", {}), ("CL-ARICA", "classic", {}),
    ("LIVE-GG", "classic", {}),
    ("BO", "classic", {"bj_immediate_pay": "not_ace", "bj_resplit_aces": "yes"}),
    ("CL-ARICA", "classic", {"bj_surrender": "any", "bj_dealer_soft17": "stand"}),
    ("LIVE-GG", "classic", {"bj_split_aces": "normal", "bj_max_splits": "3",
                            "bj_double_after_split": "yes", "bj_decks": "2"}),
]


@pytest.mark.parametrize("profile,variant,switches", PAIRED)
def test_simulator_and_engine_agree_round_by_round(profile, variant, switches):
    rules = rules_for(get_profile(profile, switches), variant)
    policy = basic_strategy_policy(compute_strategy(rules))
    shoes, nets = simulate_rounds(rules, 700, seed=11)
    unit = 200
    box = {"seat": 1, **({"bets": [unit] * 3} if rules.challenge21 else {"bet": unit})}
    for ids, net in zip(shoes, nets):
        cards = [str(Card(i % 13 + 1, "SHDC"[i // 13])) for i in ids]
        rnd = parse_request({"variant": variant, "boxes": [box], "cards": cards}, rules)
        played = play_round(rnd, rules, PolicyDecider(policy), shoe_continues=True)
        engine = sum(b.paid - b.stake for b in played.bets) / (unit * (3 if rules.challenge21
                                                                       else 1))
        assert engine == pytest.approx(net, abs=1e-12), cards


def test_basic_strategy_follows_each_profiles_rules():
    bo = compute_strategy(rules_for(get_profile("BO")))
    live = compute_strategy(rules_for(get_profile("LIVE-GG")))
    cl = compute_strategy(rules_for(get_profile("CL-ARICA")))
    assert bo.hard[0, 16, 10] == SURRENDER and bo.hard[0, 16, 1] == HIT   # not vs an ace
    assert bo.hard[0, 11, 10] == HIT          # no hole card: a dealer blackjack takes doubles
    assert live.hard[0, 11, 6] == DOUBLE and live.hard[0, 16, 10] == HIT
    assert (bo.soft[0, 18, 4], live.soft[0, 18, 4]) == (STAND, DOUBLE)   # 9-11 only vs any
    assert cl.soft[0, 19, 6] == DOUBLE        # A+8 counts 9 and H17 favours it
    assert not bo.split[0, 8, 10] and live.split[0, 8, 1]
    assert np.all(bo.hard[2] != DOUBLE) and np.all(bo.hard[2] != SURRENDER)


def test_dealer_distribution_is_a_distribution_and_h17_busts_more():
    for up in range(1, 11):
        s17, h17 = dealer_distribution(up, False), dealer_distribution(up, True)
        assert sum(s17) == pytest.approx(1) and sum(h17) == pytest.approx(1)
    assert dealer_distribution(1, True)[5] > dealer_distribution(1, False)[5]
    # the classic infinite-deck S17 bust probabilities for up cards 2-6 and 9
    published = {2: 0.3536, 3: 0.3739, 4: 0.3945, 5: 0.4164, 6: 0.4232, 9: 0.2284}
    for up, bust in published.items():
        assert dealer_distribution(up, False)[5] == pytest.approx(bust, abs=0.00006)

"""Hypothesis properties: payouts never negative, stakes conserved, order independence,
evaluator consistency, and conservation of the progressive pool."""
from __future__ import annotations

import json
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.api import settle_request
from services.rules.core.profiles import get_profile
from services.rules.poker import HandClass, Winner, split_pool
from services.rules.poker.evaluator import card_from_index, evaluate, evaluate3
from services.rules.poker.variants import VARIANTS

GAMES = [("BO", "draw"), ("BO", "caribbean"), ("BO", "three_card"), ("BO", "go"),
         ("CL-ARICA", "arica"), ("CL-ARICA", "arica_plus")]
SWITCHES = {"poker_three_card_ante_on_win": ["paid_1_to_1", "returned"],
            "poker_three_card_high_card_win": ["paid_1_to_1", "returned"],
            "poker_go_settlement": ["pay_table", "vs_dealer"],
            "poker_bet_when_dealer_unqualified": ["returned", "lost"]}


def names(cards):
    return [str(card_from_index(c)) for c in cards]


@st.composite
def rounds(draw):
    profile, variant = draw(st.sampled_from(GAMES))
    spec = VARIANTS[variant]
    deck = list(draw(st.permutations(range(52))))
    take = lambda n: [deck.pop() for _ in range(n)]  # noqa: E731
    switches = {k: draw(st.sampled_from(v)) for k, v in SWITCHES.items()}
    req = {"game": "poker", "profile": profile, "variant": variant, "switches": switches,
           "dealer": {"cards": names(take(spec.cards))}, "seats": []}
    for number in draw(st.lists(st.integers(1, 6), min_size=1, max_size=6, unique=True)):
        if len(deck) < spec.cards:
            break
        ante = draw(st.integers(1, 10**6))
        seat = {"seat": number, "cards": names(take(spec.cards)), "ante": ante}
        goes = draw(st.booleans())
        if variant == "go":
            seat["go"] = [draw(st.integers(1, 10**6))
                          for _ in range(2 if goes else draw(st.integers(0, 1)))]
        elif goes:
            seat["bet"] = 2 * ante if profile == "CL-ARICA" else draw(st.integers(1, 10**6))
        if not goes:
            seat["fold"] = True
        may_change = variant == "draw" or (variant == "arica_plus" and goes)
        if may_change and len(deck) >= 2 * spec.cards and draw(st.booleans()):
            seat["discarded"] = names(take(draw(st.integers(1, min(spec.max_discards, 2)))))
        req["seats"].append(seat)
    return req


def stakes_in(req):
    total = 0
    for s in req["seats"]:
        total += s["ante"] + s.get("bet", 0) + sum(s.get("go", []))
        if req["variant"] == "arica_plus" and s.get("discarded"):
            total += s["ante"]  # the bought card's price
    return total


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_payouts_are_never_negative_and_stakes_are_conserved(req):
    result = settle_request(req)
    assert result["ok"], result.get("errors")
    json.dumps(result)  # plain JSON types only
    assert all(b["paid"] >= 0 and b["rule"].startswith("seed ") for b in result["bets"])
    assert result["totals"]["staked"] == stakes_in(req)
    assert result["totals"]["house_win"] == result["totals"]["staked"] - result["totals"]["paid"]
    for b in result["bets"]:
        expected = {"lose": b["paid"] == 0, "push": b["paid"] == b["stake"],
                    "void": b["paid"] == b["stake"], "win": b["paid"] > b["stake"]}
        assert expected[b["outcome"]], b


@settings(max_examples=150, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_settlement_does_not_depend_on_seat_or_card_order(req, rnd):
    shuffled = {**req, "seats": [dict(s, cards=rnd.sample(s["cards"], len(s["cards"])))
                                 for s in rnd.sample(req["seats"], len(req["seats"]))]}
    shuffled["dealer"] = {"cards": rnd.sample(req["dealer"]["cards"], len(req["dealer"]["cards"]))}
    key = lambda r: sorted((b["seat"], b["kind"], b["paid"], b["outcome"]) for b in r["bets"])  # noqa: E731
    assert key(settle_request(req)) == key(settle_request(shuffled))


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)))
def test_best_of_seven_is_the_best_five_card_subset(deck):
    seven = list(deck[:7])
    best = evaluate(seven)
    assert best == max(evaluate(list(five)) for five in combinations(seven, 5))
    assert evaluate(list(deck[:6])) <= evaluate(list(deck[:7]))


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.permutations(range(4)))
def test_values_do_not_depend_on_suits_being_renamed(deck, suit_map):
    rename = lambda cs: [c // 4 * 4 + suit_map[c % 4] for c in cs]  # noqa: E731
    assert evaluate(list(deck[:7])) == evaluate(rename(deck[:7]))
    assert evaluate(list(deck[:5])) == evaluate(rename(deck[:5]))
    assert evaluate3(*deck[:3]) == evaluate3(*rename(deck[:3]))


PRIZE_CLASSES = [HandClass.STRAIGHT, HandClass.FLUSH, HandClass.FULL_HOUSE,
                 HandClass.FOUR_OF_A_KIND, HandClass.STRAIGHT_FLUSH, HandClass.ROYAL_FLUSH,
                 HandClass.PAIR]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["BO", "CL-ARICA"]),
       st.lists(st.tuples(st.sampled_from(PRIZE_CLASSES), st.integers(1, 50)),
                min_size=1, max_size=6),
       st.integers(0, 10**9), st.integers(1, 10_000), st.randoms(use_true_random=False))
def test_pool_split_conserves_money_and_ignores_listing_order(profile_id, hands, pool, unit, rnd):
    profile = get_profile(profile_id)
    winners = [Winner(seat, cls, units) for seat, (cls, units) in enumerate(hands, start=1)]
    split = split_pool(profile, winners, pool, unit)
    assert all(a.amount >= 0 for a in split.awards)
    assert split.pool_after >= 0
    assert split.pool_after == pool - split.paid + split.shortfall
    reordered = split_pool(profile, rnd.sample(winners, len(winners)), pool, unit)
    assert sorted((a.winner.seat, a.amount) for a in reordered.awards) == \
        sorted((a.winner.seat, a.amount) for a in split.awards)
    shares = [a.amount for a in split.awards if a.winner.hand_class == HandClass.ROYAL_FLUSH]
    if shares:
        assert max(shares) - min(shares) <= max(0, len(shares) - 1) and split.pool_after == 0

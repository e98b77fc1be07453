"""Properties over random rounds: dealt from a shuffled shoe, decisions taken at random among
the legal ones (the engine checks them), insurance and even money offered at random."""
from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.api import settle_request
from services.rules.blackjack.autoplay import autoplay, random_policy
from services.rules.blackjack.hand import ACE
from services.rules.blackjack.rules import rules_for
from services.rules.core.cards import full_shoe
from services.rules.core.money import apply_fraction
from services.rules.core.profiles import get_profile

CONFIGS = [("BO", "classic"), ("BO", "perfect_pairs"), ("BO", "challenge21"),
           ("CL-ARICA", "classic"), ("CL-ARICA", "perfect_pairs"), ("LIVE-GG", "classic")]


@st.composite
def rounds(draw):
    profile_id, variant = draw(st.sampled_from(CONFIGS))
    rules = rules_for(get_profile(profile_id), variant)
    seats = draw(st.lists(st.integers(1, rules.seats), min_size=1, max_size=4, unique=True))
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    boxes = []
    for seat in seats:
        stakes = [rng.randrange(1, 500) for _ in range(rng.choice((2, 3)))]
        box = {"seat": seat, **({"bets": stakes} if rules.challenge21 else {"bet": stakes[0]})}
        if rules.perfect_pairs and rng.random() < 0.5:
            box["perfect_pairs"] = rng.randrange(1, 50)
        boxes.append(box)
    shoe = list(full_shoe(rules.decks))
    rng.shuffle(shoe)
    base = {"id": "p", "game": "blackjack", "profile": profile_id, "variant": variant,
            "boxes": boxes}

    def offers(box, up, natural):
        stakes = box.get("bets") or [box["bet"]]
        if up.rank != ACE:
            return {}
        if natural and rules.even_money and rng.random() < 0.5:
            return {"even_money": True}
        if rng.random() < 0.5:
            return {}
        half = [apply_fraction(s, Fraction(1, 2), rules.rounding) for s in stakes]
        amounts = half if rules.insurance_exact else [rng.randrange(0, h + 1) for h in half]
        return {"insurance": amounts if rules.challenge21 else amounts[0]}

    return autoplay(base, shoe[:120], rules, random_policy(rng), offers), rng


def _settle(request):
    out = settle_request(request)
    assert out["ok"], out
    return out


def _expected_staked(request) -> int:
    total = 0
    for box in request["boxes"]:
        stakes = box.get("bets") or [box["bet"]]
        extra = sum(1 for a in box["actions"] if a in ("split", "double"))
        total += sum(stakes) * (1 + extra) + box.get("perfect_pairs", 0)
        insurance = box.get("insurance", 0)
        total += sum(insurance) if isinstance(insurance, list) else insurance
    return total


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_payouts_never_negative_and_stakes_conserved(generated):
    request, _ = generated
    out = _settle(request)
    for bet in out["bets"]:
        assert bet["paid"] >= 0 and bet["stake"] >= 0
        assert bet["net"] >= -bet["stake"]
        assert bet["paid"] <= 26 * bet["stake"] or bet["kind"] == "promotion"
    assert out["totals"]["staked"] == _expected_staked(request)
    assert out["totals"]["staked"] - out["totals"]["paid"] == out["totals"]["house_win"]
    assert {h["state"] for h in out["hands"]} <= {"stood", "bust", "surrendered", "blackjack",
                                                  "even_money"}
    rounds_of = {b["seat"]: len(b.get("bets") or [1]) for b in request["boxes"]}
    hands = [(h["seat"], h["hand"]) for h in out["hands"]]
    mains = [(b["seat"], b["hand"], b.get("round", 1)) for b in out["bets"] if b["kind"] == "main"]
    assert sorted(mains) == sorted({(s, h, r) for s, h in hands
                                    for r in range(1, rounds_of[s] + 1)})


@settings(max_examples=100, deadline=None)
@given(rounds())
def test_settlement_does_not_depend_on_the_order_of_the_boxes(generated):
    request, rng = generated
    shuffled = dict(request, boxes=list(reversed(request["boxes"])))
    rng.shuffle(shuffled["boxes"])
    first, second = _settle(request), _settle(shuffled)
    assert first["bets"] == second["bets"] and first["totals"] == second["totals"]


@settings(max_examples=100, deadline=None)
@given(rounds())
def test_main_bet_pays_only_the_seed_ratios(generated):
    request, _ = generated
    rounding = get_profile(request["profile"]).rounding
    for bet in _settle(request)["bets"]:
        if bet["kind"] != "main":
            continue
        s = bet["stake"]
        allowed = {0, s, 2 * s, s + rounding.apply(Fraction(3 * s, 2)),
                   rounding.apply(Fraction(s, 2))}
        assert bet["paid"] in allowed, bet


@settings(max_examples=100, deadline=None)
@given(rounds(), st.integers(0, 10_000))
def test_a_burned_face_up_card_anywhere_changes_nothing_else(generated, where):
    request, _ = generated
    if request["profile"] == "LIVE-GG":
        return   # no card irregularities at a live table (seed 003 BJ §4.1)
    cards = request["cards"]
    position = where % len(cards)   # before the last card: the round still needs it
    decks = rules_for(get_profile(request["profile"]), request["variant"]).decks
    spare = next(str(c) for c in full_shoe(1) if cards.count(str(c)) < decks)
    marked = {"card": spare, "irregularity": "face_up"}   # the shoe counts stay possible
    burned = dict(request, cards=cards[:position] + [marked] + cards[position:])
    first, second = _settle(request), _settle(burned)
    assert first["bets"] == second["bets"] and first["totals"] == second["totals"]
    assert second["burned"][0]["card"] == marked["card"]

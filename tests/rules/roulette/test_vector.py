"""The numpy path gives exactly the plain path's results."""
from __future__ import annotations

import random

import pytest

from services.rules.core.limits import TableLimits
from services.rules.core.profiles import get_profile
from services.rules.roulette import RouletteBet, settle_bets
from services.rules.roulette.vector import (
    OUTCOMES,
    Unsupported,
    encode,
    pockets_array,
    settle_batch,
    settle_vector,
)
from tests.rules.roulette import oracle


def random_bets(rng: random.Random, profile_id: str, n: int, jail: bool) -> list[RouletteBet]:
    wheel = oracle.WHEEL[profile_id]
    kinds = list(oracle.PAYS[profile_id])
    out = []
    for _ in range(n):
        kind = rng.choice(kinds)
        amount = rng.choice([1, 7, 55, 101, 999, 2500, 10001])
        if kind in oracle.EVEN:
            option = rng.choice([None, "half_back", "prison"]) if jail else None
            imprisoned = jail and option is None and rng.random() < 0.3
            out.append(RouletteBet(kind, amount, zero_option=option, imprisoned=imprisoned))
        elif kind in ("dozen", "column", "two_dozens", "two_columns"):
            out.append(RouletteBet(kind, amount, (), rng.choice((1, 2) if "two" in kind
                                                                else (1, 2, 3))))
        else:
            group = rng.choice(sorted(oracle.groups(wheel, kind), key=sorted))
            out.append(RouletteBet(kind, amount, tuple(group)))
    return out


@pytest.mark.parametrize("profile_id,switches,limits", [
    ("BO", {}, None), ("BO", {"rounding": "half_up"}, TableLimits(5, 3000)),
    ("BO", {"roulette_zero_even_chance": "prison"}, None),
    ("AR-RUL", {}, None), ("CL-ARICA", {}, TableLimits(1, 2000)), ("LIVE-GG", {}, None)])
def test_vector_equals_plain(profile_id, switches, limits):
    rng = random.Random(f"{profile_id}{switches}")
    profile = get_profile(profile_id, switches)
    wheel = oracle.WHEEL[profile_id]
    bets = random_bets(rng, profile_id, 400, profile.switch("roulette_zero_even_chance") != "lose")
    batch = encode(profile, wheel, bets, limits)
    for pocket in oracle.pockets(wheel):
        plain = settle_bets(profile, wheel, bets, pocket, limits)
        paid, codes = settle_batch(profile, batch, pockets_array(batch.wheel, pocket, len(bets)))
        assert paid.tolist() == [r.paid for r in plain]
        assert [OUTCOMES[c] for c in codes] == [r.outcome for r in plain]


def test_one_pocket_per_bet():
    profile = get_profile("BO")
    bets = random_bets(random.Random(1), "BO", 500, True)
    pockets = [random.Random(i).choice(oracle.pockets("european")) for i in range(500)]
    paid, _ = settle_vector(profile, "european", bets, pockets)
    assert paid == [settle_bets(profile, "european", [b], p)[0].paid
                    for b, p in zip(bets, pockets)]


def test_what_the_vector_path_does_not_model_is_refused():
    with pytest.raises(Unsupported):
        settle_vector(get_profile("BO"), "european", [RouletteBet("voisins", 900)], "0")
    with pytest.raises(Unsupported):
        settle_vector(get_profile("AR-RUL"), "european",
                      [RouletteBet("straight", 5000, ("1",))], "1", TableLimits(1, 100))

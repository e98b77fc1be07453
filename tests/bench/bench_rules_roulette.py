"""Roulette settlement throughput: the plain (reference) path and the numpy path.

The numpy path settles encoded bets (services.rules.roulette.vector); encoding validates each
bet through the plain path's own functions, so it is timed separately. Before timing, both
paths are checked to give identical results on the same bets.
"""
from __future__ import annotations

import random

import numpy as np

from services.rules.core.limits import TableLimits
from services.rules.core.profiles import get_profile
from services.rules.roulette import WHEELS, RouletteBet, settle_bets
from services.rules.roulette.vector import OUTCOMES, encode, pockets_array, settle_batch
from tests.bench.timing import best

PROFILE = get_profile("BO")
WHEEL = WHEELS["european"]
LIMITS = TableLimits(100, 500_000)


def random_bets(rng: random.Random, n: int) -> list[RouletteBet]:
    groups = {"straight": [frozenset({p}) for p in WHEEL.pockets], "split": WHEEL.splits,
              "street": WHEEL.streets, "corner": WHEEL.corners, "six_line": WHEEL.six_lines}
    inside = {k: sorted(sorted(g) for g in v) for k, v in groups.items()}
    out = []
    for _ in range(n):
        kind = rng.choice(["straight", "split", "street", "corner", "six_line", "dozen",
                           "column", "two_dozens", "red", "black", "odd", "even", "low", "high"])
        amount = rng.choice([100, 250, 500, 1000, 2500, 10_000, 750_000])
        if kind in inside:
            out.append(RouletteBet(kind, amount, tuple(rng.choice(inside[kind]))))
        elif kind in ("dozen", "column", "two_dozens"):
            out.append(RouletteBet(kind, amount, (), rng.choice((1, 2) if kind == "two_dozens"
                                                                 else (1, 2, 3))))
        else:
            out.append(RouletteBet(kind, amount, zero_option=rng.choice([None, "prison"])))
    return out




def _check_identical(bets: list[RouletteBet], pockets: list[str]) -> int:
    batch = encode(PROFILE, "european", bets, LIMITS)
    paid, codes = settle_batch(PROFILE, batch, pockets_array(WHEEL, pockets, len(bets)))
    for i, (bet, pocket) in enumerate(zip(bets, pockets)):
        plain = settle_bets(PROFILE, "european", [bet], pocket, LIMITS)[0]
        if (plain.paid, plain.outcome) != (int(paid[i]), OUTCOMES[codes[i]]):
            raise AssertionError(f"vector and plain paths differ on {bet} at {pocket}")
    return len(bets)


def run() -> str:
    rng = random.Random(2026)
    sample = random_bets(rng, 20_000)
    checked = _check_identical(sample, [rng.choice(WHEEL.pockets) for _ in sample])

    plain_s = best(lambda: settle_bets(PROFILE, "european", sample, "17", LIMITS))
    encode_s = best(lambda: encode(PROFILE, "european", sample, LIMITS))

    n = 1_000_000
    batch = encode(PROFILE, "european", random_bets(rng, n), LIMITS)
    pockets = np.array([rng.randrange(len(WHEEL.pockets)) for _ in range(n)], dtype=np.uint64)
    vector_s = best(lambda: settle_batch(PROFILE, batch, pockets), repeats=5)

    rows = [
        ("plain path: `settle_bets` (validate + settle, BetResult per bet)", len(sample), plain_s),
        ("numpy path, encoding only: `vector.encode` (validation per bet)", len(sample), encode_s),
        ("numpy path, settling encoded bets: `vector.settle_batch`", n, vector_s),
        ("numpy path end to end (encode + settle, per bet)", len(sample),
         encode_s + vector_s * len(sample) / n),
    ]
    table = "\n".join(f"| {what} | {count:,} | {secs * 1000:,.1f} ms | {count / secs:,.0f} |"
                      for what, count, secs in rows)
    return f"""Roulette bet settlements per second on one core (profile BO, European wheel,
table limits 100–500,000 so some stakes are over the maximum; a random mix of all 14 plain bet
kinds and 7 stake sizes, half the even chances choosing prison; one random pocket per bet for
the numpy path, pocket 17 for the plain path). Best of 3 runs (5 for settle_batch) over 1,000,000
distinct random encoded bets. Before timing, {checked:,} random bets
were settled by both paths with identical paid amounts and outcomes.

| what | bets | time | bets/s |
|---|---:|---:|---:|
{table}

Target ≥ 1,000,000 settlements/s through the numpy path: the settle_batch row. Encoding (the
per-bet validation in Python) dominates end to end; it is paid once per bet placed, while a
batch can be settled against any number of pockets.
"""

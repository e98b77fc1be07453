"""Benchmark: craps settlement throughput and the time of the exact edge computations
(craps; trente et quarante, with the finite-shoe simulation beside the exact model).

`make bench ONLY=rules_craps`. Figures are wall-clock on a shared machine: medians of repeats.
"""
from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable

from services.rules.api import settle_request
from services.rules.core.profiles import get_profile
from services.rules.craps.bets import Bet
from services.rules.craps.dice import ALL_ROLLS
from services.rules.craps.paytable import PayTable
from services.rules.craps.table import CrapsTable
from services.rules.registry import get_game
from services.rules.trente_quarante.edges import coup_law, simulate_shoe

COUPS = 1_500_000  # per shoe size: a 95 % CI of about ±0.025 points on P(31 tie)
LAYOUT = [("pass_line", None), ("dont_pass", None), ("field", None), ("any_seven", None),
          ("horn", None), ("big_6", None), ("place", 6), ("place", 9), ("place_to_lose", 4),
          ("hardway", 8), ("hardway", 4), ("any_craps", None)]


def _median(fn: Callable[[], float], repeats: int = 5) -> float:
    return statistics.median(fn() for _ in range(repeats))


def _requests(n: int, rolls: int, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    bets = [{"id": f"b{i}", "kind": k, "amount": 1000, **({"number": n} if n else {})}
            for i, (k, n) in enumerate(LAYOUT)]
    return [{"game": "craps", "profile": "BO", "variant": "craps", "point": None, "bets": bets,
             "rolls": [[rng.randint(1, 6), rng.randint(1, 6)] for _ in range(rolls)]}
            for _ in range(n)]


def api_throughput() -> tuple[float, float]:
    """(requests/s, decided bets/s) through api.settle_request."""
    reqs = _requests(300, 8)
    decided = sum(b["outcome"] != "pending" for r in reqs for b in settle_request(r)["bets"])

    def once() -> float:
        start = time.perf_counter()
        for r in reqs:
            settle_request(r)
        return time.perf_counter() - start
    t = _median(once, 3)
    return len(reqs) / t, decided / t


def aggregate_throughput() -> float:
    """Decided bets/s on the pure aggregate (no JSON parsing): a 12-bet layout rebuilt after
    every decision, rolled through a fixed random sequence."""
    table0 = CrapsTable(PayTable(get_profile("BO")))
    rng = random.Random(2)
    rolls = [ALL_ROLLS[rng.randrange(36)] for _ in range(3000)]

    def once() -> tuple[float, int]:
        table, settled, serial = table0, 0, 0
        start = time.perf_counter()
        for i, roll in enumerate(rolls):
            for kind, number in LAYOUT:  # top the layout up with fresh bets
                if not any(b.kind == kind and b.number in (number, None) for b in table.bets):
                    if kind in ("pass_line", "dont_pass") and table.point is not None:
                        continue
                    serial += 1
                    table, _ = table.place(Bet(f"x{serial}", kind, 1000, number), i)
            table, report = table.roll(roll, i)
            settled += len(report.results)
        return time.perf_counter() - start, settled
    runs = [once() for _ in range(3)]
    return statistics.median(s / t for t, s in runs)


def edge_times() -> list[tuple[str, float, int]]:
    out = []
    for game, profile in (("craps", "BO"), ("craps", "CL-ARICA"), ("trente_quarante", "BO")):
        p = get_profile(profile)
        g = get_game(game, p)
        rows = g.edges(p)

        def once() -> float:   # run at once by _median, inside this iteration: not B023
            start = time.perf_counter()
            g.edges(p)  # noqa: B023
            return time.perf_counter() - start
        out.append((f"{game} {profile}", _median(once, 3), len(rows)))
    return out


def run() -> str:
    load = os.getloadavg()[0]
    req_s, bets_s = api_throughput()
    agg = aggregate_throughput()
    edges = edge_times()
    law = coup_law()
    p_refait = float(sum(p for r, p in law if r.refait))
    lines = [
        f"1-minute load average when the run started: {load:.1f} on "
        f"{os.cpu_count()} cores (the machine is shared: throughput scales with it).",
        "",
        "### Craps settlement throughput",
        "",
        "| path | workload | figure |",
        "|---|---|---|",
        f"| `api.settle_request` (JSON in, JSON out) | 300 requests × 12 bets × 8 random rolls, "
        f"BO, median of 3 | {req_s:,.0f} requests/s, **{bets_s:,.0f} decided bets/s** |",
        f"| `CrapsTable.roll` (pure aggregate) | 12-bet layout topped up before each of 3000 "
        f"random rolls, median of 3 | **{agg:,.0f} decided bets/s** |",
        "",
        "### Exact edge computation",
        "",
        "| game / profile | rows | time (median of 3) | method |",
        "|---|---|---|---|",
    ]
    for name, seconds, rows in edges:
        method = ("absorbing Markov chains over the 36 dice outcomes, Fractions"
                  if name.startswith("craps") else "exact DP, infinite-shoe model, Fractions")
        lines.append(f"| {name} | {rows} | {seconds * 1000:,.0f} ms | {method} |")
    lines += [
        "",
        "### Treinta y Cuarenta: exact model vs the real shoe (seeded simulation)",
        "",
        "Coups dealt through shuffled shoes (5 burnt, cut card one deck from the end). With "
        "surrender at the 31 tie the edge of every bet is P(31 tie)/2.",
        "",
        "| shoe | coups | P(31 tie) | 95 % CI | edge with surrender | time |",
        "|---|---|---|---|---|---|",
        f"| infinite-shoe model (exact) | — | {p_refait:.4%} | exact | {p_refait / 2:.4%} | — |",
    ]
    for decks in (6, 8):
        start = time.perf_counter()
        est = simulate_shoe(decks, COUPS, seed=decks)
        took = time.perf_counter() - start
        lines.append(f"| {decks} decks (simulated) | {est.coups:,} | {est.refait:.4%} | "
                     f"± {est.refait_ci:.4%} | {est.surrender_edge:.4%} ± {est.refait_ci / 2:.4%}"
                     f" | {took:.1f} s |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())

"""Baccarat rules engine: exact edge enumeration time and settlement throughput.

`make bench ONLY=rules_baccarat`. Edge timings are cold (the odds cache is cleared before each
run) and include building the 10^6-sequence grid; the best of 3 runs is reported with the
median. Settlement throughput runs `settle_request` (JSON-shaped dict in, dict out: parse,
shoe checks, drawing table, payouts) on a fixed mix of rounds.
"""
from __future__ import annotations

import statistics
import time

import services.rules.baccarat  # noqa: F401  (declares the switches before api.resolve)
from services.rules.api import settle_request
from services.rules.baccarat import edges
from services.rules.core.profiles import get_profile
from services.rules.registry import get_game
from tests.bench.timing import timings

BO = {"baccarat_commission": "5%", "baccarat_tie_pays": "8:1", "baccarat_player_pays": "1:1"}
ROUNDS = [
    ["9H", "KS", "KC", "5D"],                  # natural, 4 cards
    ["2H", "KS", "3C", "5D", "8S"],            # Punto draws, Banca stands
    ["AH", "2S", "AC", "KD", "7S", "4D"],      # both draw, 6 cards
    ["9H", "9S", "KC", "KD"],                  # tie
]
BETS = [{"kind": "banker", "amount": 1000, "seat": 1},
        {"kind": "player", "amount": 2500, "seat": 2},
        {"kind": "tie", "amount": 100, "seat": 1}]


def _timed(fn, repeat: int = 3) -> list[float]:
    return timings(fn, repeat, before=edges.odds.cache_clear)  # cold: no cached odds


def _edge_rows() -> list[str]:
    cases = [
        ("8 decks, one policy (P/B/tie odds)", lambda: edges.odds(8)),
        ("6 decks, one policy (P/B/tie odds)", lambda: edges.odds(6)),
        ("8 decks, chemin de fer Punto-optimal at 5", lambda: edges.odds(8, "punto_optimal")),
        ("all rows, profile LIVE-GG (8 decks)",
         lambda: get_game("baccarat").edges(get_profile("LIVE-GG"))),
        ("all rows, profile BO (4 modalities, 6 + 8 decks, 3 chemin policies)",
         lambda: get_game("baccarat").edges(get_profile("BO", BO))),
    ]
    lines = ["| exact computation (cold) | best s | median s |", "|---|---:|---:|"]
    for name, fn in cases:
        times = _timed(fn)
        lines.append(f"| {name} | {min(times):.3f} | {statistics.median(times):.3f} |")
    return lines


def _settle_rows(n: int = 4000) -> list[str]:
    requests = [{"game": "baccarat", "profile": profile, "switches": sw, "variant": variant,
                 "bets": BETS, "cards": cards}
                for profile, variant, sw in (("BO", "punto_banca", BO), ("CL-ARICA", "mini", {}))
                for cards in ROUNDS]
    for r in requests:  # warm up and make sure every request is valid
        assert settle_request(r)["ok"], r
    start = time.perf_counter()
    for i in range(n):
        settle_request(requests[i % len(requests)])
    elapsed = time.perf_counter() - start
    return ["| settlement | rounds | bets per round | s | rounds/s |", "|---|---:|---:|---:|---:|",
            f"| settle_request (BO Punto y Banca + CL Mini, 4 round shapes) | {n} | {len(BETS)} "
            f"| {elapsed:.2f} | {n / elapsed:,.0f} |"]


def run() -> str:
    return "\n".join(
        ["Exact house edges by full enumeration of the shoe without replacement (numpy, 10^6 "
         "six-card point sequences, exact Fractions); target: 8 decks under 10 s.", "",
         *_edge_rows(), "", *_settle_rows()])


if __name__ == "__main__":
    print(run())

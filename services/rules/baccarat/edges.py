"""Exact house edges by full enumeration of the shoe, drawing without replacement.

Only the ten point values matter (ace..9, and 10/J/Q/K = 0: 16 cards per deck). A round uses
at most 6 cards, so we enumerate all 10^6 sequences of six point values. The weight of a
sequence is the number of ways to draw it from the full shoe: the product of the cards of
each value still in the shoe when it is drawn. Cards a short round does not use are summed
over too, which multiplies every round by the same (N-4)(N-5) or (N-5) factor, so all weights
share the denominator N(N-1)...(N-5) (N = 52 × decks) and every probability is an exact
Fraction of integers. numpy does the 10^6 rounds at once (int64 is exact: N^6 < 2^63 for
8 decks). The drawing rules come from tableau.py, the same table the settlement uses.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from services.rules.baccarat import tableau
from services.rules.baccarat.coup import BANKER, PLAYER
from services.rules.baccarat.settle import house_edge
from services.rules.baccarat.variants import Variant, require_pay_table, variants_for
from services.rules.core.profiles import Profile
from services.rules.registry import EdgeRow

SEQUENCES = 10 ** 6
POLICIES = ("draw", "stand", "punto_optimal")  # chemin de fer: what the decider does at 5


@dataclass(frozen=True)
class Odds:
    player: Fraction
    banker: Fraction
    tie: Fraction


def _banca_matrix() -> np.ndarray:
    """draw[banca_total, punto_third] from tableau.BANCA_DRAWS_ON (rows 8, 9: naturals)."""
    m = np.zeros((10, 10), dtype=bool)
    for total, thirds in tableau.BANCA_DRAWS_ON.items():
        m[total, sorted(thirds)] = True
    return m


def _sequences(decks: int) -> tuple[np.ndarray, np.ndarray]:
    """Point values v[k] of the k-th card of every 6-card sequence, and its weight."""
    counts = np.array([16 * decks] + [4 * decks] * 9, dtype=np.int64)
    idx = np.arange(SEQUENCES, dtype=np.int64)
    v = np.stack([(idx // 10 ** (5 - k)) % 10 for k in range(6)]).astype(np.int8)
    weight = np.ones(SEQUENCES, dtype=np.int64)
    for k in range(6):
        same_before = np.zeros(SEQUENCES, dtype=np.int64)
        for j in range(k):
            same_before += v[j] == v[k]
        weight *= np.maximum(counts[v[k]] - same_before, 0)
    return v, weight


def _results(v: np.ndarray, draw_at_5: np.ndarray | bool) -> tuple[np.ndarray, np.ndarray]:
    """Final Punto and Banca totals of every sequence under a Punto-at-5 policy."""
    p0 = (v[0] + v[2]) % 10
    b0 = (v[1] + v[3]) % 10
    natural = (p0 >= 8) | (b0 >= 8)
    punto_draws = ~natural & ((p0 <= 4) | ((p0 == 5) & draw_at_5))
    p = np.where(punto_draws, (p0 + v[4]) % 10, p0)
    banca_draws = ~natural & np.where(punto_draws, _banca_matrix()[b0, v[4]], b0 <= 5)
    b = np.where(banca_draws, (b0 + np.where(punto_draws, v[5], v[4])) % 10, b0)
    return p, b


def _odds(p: np.ndarray, b: np.ndarray, weight: np.ndarray) -> Odds:
    total = int(weight.sum())
    return Odds(Fraction(int(weight[p > b].sum()), total),
                Fraction(int(weight[b > p].sum()), total),
                Fraction(int(weight[p == b].sum()), total))


def _optimal_draw(v: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Per first four cards (dealt face up in chemin de fer, seed 002 §2.2.5.1), whether drawing
    at 5 gives Punto a larger expectation than standing (Punto is paid 1:1, ties void)."""
    def expectation(draw: bool) -> np.ndarray:
        p, b = _results(v, draw)
        sign = (p > b).astype(np.int64) - (b > p)
        return (weight * sign).reshape(-1, 100).sum(axis=1)
    return np.repeat(expectation(True) >= expectation(False), 100)


@lru_cache(maxsize=16)
def odds(decks: int, policy: str = "draw") -> Odds:
    """Exact probabilities that Punto wins, Banca wins, or they tie, from a full shoe."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}")
    v, weight = _sequences(decks)
    draw_at_5: np.ndarray | bool = (policy == "draw" if policy != "punto_optimal"
                                    else _optimal_draw(v, weight))
    p, b = _results(v, draw_at_5)
    return _odds(p, b, weight)


def _rows(variant: Variant, profile: Profile, policy: str) -> list[EdgeRow]:
    o = odds(variant.decks, policy)
    method = (f"exact enumeration, full {variant.decks}-deck shoe, drawing without replacement "
              f"(10^6 six-card point sequences)")
    notes = [variant.pay_rule.note or ""]
    if variant.choice_at_5:
        notes.append(f"Punto at 5: {policy.replace('_', ' ')}; the bet's counterparty is the "
                     "player-banker, the house takes only the deduction on Banca wins")
    note = "; ".join(n for n in notes if n)
    kinds = (PLAYER, BANKER, "tie") if variant.tie_bet else (PLAYER, BANKER)
    bet_names = {PLAYER: "player", BANKER: "banker", "tie": "tie"}
    return [EdgeRow("baccarat", variant.id if not variant.choice_at_5 else f"{variant.id}/{policy}",
                    bet_names[k], house_edge(k, o.player, o.banker, o.tie, profile), method,
                    variant.pay_rule, note) for k in kinds]


def edge_rows(profile: Profile) -> list[EdgeRow]:
    """Every bet of every modality the profile defines. Raises RulesError if a pay-table switch
    the profile is silent on (BO, §2.2.7 missing) has not been set."""
    require_pay_table(profile)
    rows: list[EdgeRow] = []
    for variant in variants_for(profile).values():
        for policy in (POLICIES if variant.choice_at_5 else ("draw",)):
            rows += _rows(variant, profile, policy)
    return rows

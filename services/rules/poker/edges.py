"""House edges of the banked poker games, computed by the engine's own evaluators.

* Poker Tres Cartas: EXACT enumeration of all 22,100 player hands × the 18,424 croupier hands
  from the other 49 cards (407,170,400 deals), with the player's optimal «voy/no voy» choice
  per hand; returned as a Fraction. Dealer hands are counted per player hand by
  inclusion–exclusion over the cards they share, so nothing is sampled.
* Go Poker, reading 'pay_table' (A-22): EXACT over all 2,598,960 hands.
* Caribbean, ARICA / ARICA Plus, Go 'vs_dealer': seeded Monte Carlo (SIM_ROUNDS deals,
  vectorised), with the 95 % confidence half-width in `method`. Strategy: «voy» with A-K-J-8-3
  or better, else fold (the usual simple strategy; it ignores the croupier's up card, so the
  edge is a little above the optimal-strategy edge). ARICA Plus: the strategy never buys.
* Draw Poker: not computed — the drawing rules of player and croupier are in the missing
  §2.3.1–2.3.6.1 of the BO Clasificador (domain.md §0.4), so no row is returned.

Edges are per unit of ANTE (Go: per unit of each stake). Where a switch the edge depends on
has no default for the profile, one row per reading is returned, named in `note`.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, sqrt
from typing import Any

import numpy as np

from services.rules.core.errors import RulesError
from services.rules.core.profiles import SWITCHES, Profile
from services.rules.poker import switches as sw
from services.rules.poker.hands import HandClass, pack
from services.rules.poker.variants import GO_MINIMUM, VARIANTS, VariantSpec
from services.rules.poker.vector import all_hands, evaluate3_many, evaluate_many, hand_classes
from services.rules.registry import EdgeRow

SIM_ROUNDS = 4_000_000
SIM_SEED = 20260101
BATCH = 500_000
SIMPLE_STRATEGY = pack(HandClass.HIGH_CARD, [14, 13, 11, 8, 3])  # «voy» with A-K-J-8-3 or better
# assumed: seed 000 does not size the BET (C-42)
BO_BET_MULTIPLE = {"caribbean": 2, "three_card": 1}


def edges(profile: Profile) -> list[EdgeRow]:
    rows: list[EdgeRow] = []
    for spec in VARIANTS.values():
        if spec.profile != profile.id or spec.name == "draw":
            continue
        for reading in _readings(profile, _switches_read(spec)):
            rows.append(_edge_row(spec, reading, _label(spec, profile, reading)))
    return rows


def _label(spec: VariantSpec, profile: Profile, reading: tuple[tuple[str, str], ...]) -> str:
    """The variant name, plus the readings of switches the profile leaves open (so rows that
    differ only by an ambiguity stay distinguishable in a table)."""
    open_ = [(k, v) for k, v in reading if k in _silent(profile, (k,))]
    short = [f"{k.removeprefix('poker_three_card_').removeprefix('poker_go_')}: {v}"
             for k, v in open_]
    return ", ".join([spec.name] + short)


def _opening_value(variant: str) -> int:
    """The packed value of the dealer's lowest opening hand (Caribbean-style variants)."""
    qualifier = VARIANTS[variant].qualifier
    if qualifier is None:
        raise ValueError(f"{variant}: the dealer does not qualify in this variant")
    return qualifier.value


def _silent(profile: Profile, names: tuple[str, ...]) -> set[str]:
    out = set()
    for name in names:
        try:
            profile.switch(name)
        except RulesError:
            out.add(name)
    return out


def _switches_read(spec: VariantSpec) -> tuple[str, ...]:
    if spec.name == "go":
        return (sw.GO_SETTLEMENT,)
    if spec.name == "three_card":
        return (sw.BET_UNQUALIFIED, sw.THREE_CARD_ANTE_ON_WIN, sw.THREE_CARD_HIGH_CARD_WIN)
    return (sw.BET_UNQUALIFIED,)


def _readings(profile: Profile, names: tuple[str, ...]) -> list[tuple[tuple[str, str], ...]]:
    """Every combination of the switch values: the profile's where it has one, all otherwise."""
    silent = _silent(profile, names)
    options = [[(n, c) for c in SWITCHES[n].choices] if n in silent else [(n, profile.switch(n))]
               for n in names]
    return [tuple(combo) for combo in itertools.product(*options)]


def _edge_row(spec: VariantSpec, reading: tuple[tuple[str, str], ...], label: str) -> EdgeRow:
    settings = dict(reading)
    note = ", ".join(f"{k}={v}" for k, v in reading)
    if spec.name == "three_card":
        edge = three_card_edge(settings)
        return EdgeRow("poker", label, "ANTE+BET hand, per ANTE unit (BET = ANTE assumed, C-42)",
                       edge, "exact enumeration (22,100 × 18,424 deals), optimal voy/no voy",
                       spec.rule, note)
    if spec.name == "go":
        return _go_row(spec, label, settings[sw.GO_SETTLEMENT], note)
    multiple = BO_BET_MULTIPLE.get(spec.name, 2)
    # ARICA Plus without buying is ARICA: same table and qualifier, so one (cached) simulation.
    same = "arica" if spec.name == "arica_plus" else spec.name
    mean, half = simulate_caribbean(same, settings[sw.BET_UNQUALIFIED], SIM_ROUNDS, SIM_SEED)
    bet = "ANTE+BET hand, per ANTE unit (BET = 2 × ANTE" + (
        ", assumed, C-42)" if spec.profile == "BO" else ")")
    plus = "; never buys a card" if spec.name == "arica_plus" else ""
    return EdgeRow("poker", label, bet, -mean,
                   _sim_method(SIM_ROUNDS, half) + ", simple strategy A-K-J-8-3" + plus,
                   spec.rule, note + (f"; BET multiple {multiple}" if multiple != 2 else ""))


def _go_row(spec: VariantSpec, label: str, reading: str, note: str) -> EdgeRow:
    # The seed lacks Go Poker's decision points (when a player may stop), so this is the edge
    # on a hand that is compared, not the edge of a player's whole strategy.
    note += "; Go's «ir» decisions are not in the seed: edge of a compared hand only"
    bet = "each stake of a hand that goes both times"
    if reading == "pay_table":
        return EdgeRow("poker", label, bet, go_pay_table_edge(),
                       "exact enumeration (2,598,960 hands)", spec.rule, note)
    mean, half = simulate_go_vs_dealer(SIM_ROUNDS, SIM_SEED)
    return EdgeRow("poker", label, bet, -mean, _sim_method(SIM_ROUNDS, half), spec.rule, note)


def _sim_method(rounds: int, half: float) -> str:
    return f"simulation, {rounds:,} deals, seed {SIM_SEED}, 95% CI ±{half:.3%}"


# ---------------------------------------------------------------- Poker Tres Cartas (exact)

@lru_cache(maxsize=1)
def three_card_outcomes() -> dict[str, Any]:
    """Per player hand: class, and how many of the 18,424 croupier hands don't open, lose to,
    tie or beat it (exact counts by inclusion–exclusion over shared cards)."""
    hands = all_hands(3).astype(np.int64)
    values = evaluate3_many(hands).astype(np.int64)
    opens = _opening_value("three_card")
    below = _DisjointCounter(hands, values)
    unq = below.count(np.full_like(values, opens))
    lt, le = below.count(values), below.count(values + 1)
    qualifies = values >= opens
    win = np.where(qualifies, lt - unq, 0)
    tie = np.where(qualifies, le - lt, 0)
    total = comb(49, 3)
    return {"cls": hand_classes(values, three_card=True), "unq": unq, "win": win, "tie": tie,
            "loss": total - unq - win - tie, "total": np.int64(total)}


class _DisjointCounter:
    """count(x)[i] = number of hands sharing no card with hand i whose value is < x[i].

    Inclusion–exclusion: Σ over subsets S of hand i of (-1)^|S| · #(hands ⊇ S, value < x).
    Hands containing a subset are kept as one sorted array keyed (subset id, value)."""

    def __init__(self, hands: np.ndarray, values: np.ndarray) -> None:
        self.hands, self.values = hands, values
        self.k = hands.shape[1]
        self.span = int(values.max()) + 2
        self.groups = {s: self._groups(s) for s in range(1, self.k)}
        self.all_sorted = np.sort(values)

    def _ids(self, s: int) -> list[np.ndarray]:
        return [sum(self.hands[:, c] * 52 ** j for j, c in enumerate(cols))
                for cols in itertools.combinations(range(self.k), s)]

    def _groups(self, s: int) -> np.ndarray:
        keys = [ids * self.span + self.values for ids in self._ids(s)]
        return np.sort(np.concatenate(keys))

    def count(self, x: np.ndarray) -> np.ndarray:
        out = np.searchsorted(self.all_sorted, x).astype(np.int64)
        for s, flat in self.groups.items():
            sign = (-1) ** s
            for ids in self._ids(s):
                base = ids * self.span
                out += sign * (np.searchsorted(flat, base + x) - np.searchsorted(flat, base))
        return out + (-1) ** self.k * (self.values < x)


def three_card_edge(settings: dict[str, str], bet_multiple: int = 1) -> Fraction:
    """Exact house edge per ANTE unit with the optimal «voy / no voy» choice per hand."""
    o = three_card_outcomes()
    b = bet_multiple
    table = VARIANTS["three_card"].table
    high = 1 if settings[sw.THREE_CARD_HIGH_CARD_WIN] == "paid_1_to_1" else 0
    ratio = np.array([table.get(c, high) for c in range(6)], dtype=np.int64)[o["cls"]]
    ante_win = 1 if settings[sw.THREE_CARD_ANTE_ON_WIN] == "paid_1_to_1" else 0
    bet_unq = 0 if settings[sw.BET_UNQUALIFIED] == "returned" else -b
    play = o["unq"] * (1 + bet_unq) + o["win"] * (ante_win + b * ratio) - o["loss"] * (1 + b)
    best = np.maximum(play, -o["total"])
    return -Fraction(int(best.sum()), len(best) * int(o["total"]))


# ------------------------------------------------------------------ Go Poker 'pay_table' (exact)

@lru_cache(maxsize=1)
def go_pay_table_edge() -> Fraction:
    values = evaluate_many(all_hands(5))
    table = VARIANTS["go"].table
    ratio = np.array([table.get(c, 0) for c in range(10)], dtype=np.int64)[hand_classes(values)]
    payoff = np.where(values >= GO_MINIMUM.value, ratio, -1)
    return -Fraction(int(payoff.sum()), len(payoff))


# ------------------------------------------------------------------------------ simulations

def deal(rng: np.random.Generator, rounds: int, k: int) -> np.ndarray:
    """`rounds` independent deals of k distinct cards (partial Fisher–Yates, vectorised)."""
    deck = np.tile(np.arange(52, dtype=np.uint8), (rounds, 1))
    rows = np.arange(rounds)
    for i in range(k):
        j = rng.integers(i, 52, size=rounds)
        picked = deck[rows, j]
        deck[rows, j] = deck[:, i]
        deck[:, i] = picked
    return deck[:, :k]


def _simulate(payoff, rounds: int, seed: int) -> tuple[float, float]:
    """Mean payoff per round and the 95 % half-width, from batches of 5+5-card deals."""
    rng = np.random.default_rng(seed)
    total, total_sq, done = 0.0, 0.0, 0
    while done < rounds:
        n = min(BATCH, rounds - done)
        cards = deal(rng, n, 10)
        x = payoff(evaluate_many(cards[:, :5]), evaluate_many(cards[:, 5:])).astype(np.float64)
        total, total_sq, done = total + x.sum(), total_sq + (x * x).sum(), done + n
    mean = float(total / done)
    sd = sqrt(max(float(total_sq / done) - mean * mean, 0.0))
    return mean, 1.96 * sd / sqrt(done)


@cache
def simulate_caribbean(variant: str, bet_unqualified: str, rounds: int,
                       seed: int) -> tuple[float, float]:
    """Mean player result per ANTE unit (BET = 2 × ANTE) and its 95 % half-width."""
    spec = VARIANTS[variant]
    ratio = np.array([spec.table.get(c, 0) for c in range(10)], dtype=np.int64)
    opens = _opening_value(variant)
    unq_result = 1 + (0 if bet_unqualified == "returned" else -2)

    def payoff(player: np.ndarray, dealer: np.ndarray) -> np.ndarray:
        result = np.where(player > dealer, 1 + 2 * ratio[hand_classes(player)],
                          np.where(player == dealer, 0, -3))
        result = np.where(dealer < opens, unq_result, result)
        return np.where(player >= SIMPLE_STRATEGY, result, -1)
    return _simulate(payoff, rounds, seed)


@cache
def simulate_go_vs_dealer(rounds: int, seed: int) -> tuple[float, float]:
    ratio = np.array([VARIANTS["go"].table.get(c, 0) for c in range(10)], dtype=np.int64)

    def payoff(player: np.ndarray, dealer: np.ndarray) -> np.ndarray:
        won = np.where(player > dealer, ratio[hand_classes(player)],
                       np.where(player == dealer, 0, -1))
        return np.where(player >= GO_MINIMUM.value, won, -1)
    return _simulate(payoff, rounds, seed)

"""Basic strategy for a profile's rules, computed (not copied from a chart).

The player's expected value of each decision is computed exactly for an infinite shoe
(card probabilities 1/13, tens 4/13) under the profile's rules: dealer S17/H17, no hole card
(a dealer blackjack takes doubles and splits too) or LIVE's peek on an ace, doubling on 9-11
or any two cards, doubling after splits, surrender against which cards, split aces one card.
Re-splits are not valued (a split is valued as two hands) — a basic-strategy approximation
that only makes the strategy marginally weaker, never the measured edge wrong: the edge is
measured by simulating the real finite shoe with this strategy (simulate.py).

Tables, indexed [total][up] with up = 1 (ace) .. 10:
  hard[ctx][4..21], soft[ctx][12..21]: STAND, HIT, DOUBLE or SURRENDER
  split[ctx][1..10]: True to split a pair of that value
ctx 0 = the original two cards, 1 = two cards of a split hand, 2 = three or more cards.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from services.rules.blackjack.rules import BjRules

STAND, HIT, DOUBLE, SURRENDER = 0, 1, 2, 3
NAMES = {STAND: "S", HIT: "H", DOUBLE: "D", SURRENDER: "R"}
Q = {v: (4 / 13 if v == 10 else 1 / 13) for v in range(1, 11)}


@dataclass(frozen=True)
class Strategy:
    hard: np.ndarray    # [3, 22, 11] action codes
    soft: np.ndarray    # [3, 22, 11]
    split: np.ndarray   # [3, 11, 11] bool

    def chart(self) -> str:
        """Human-readable ctx-0 chart (rows: hard 5-17, soft 13-20, pairs), for the README."""
        ups = list(range(2, 11)) + [1]
        head = "     " + " ".join(f"{'A' if u == 1 else u:>2}" for u in ups)
        rows = [head]
        rows += [f"H{t:>3} " + " ".join(f"{NAMES[int(self.hard[0, t, u])]:>2}" for u in ups)
                 for t in range(5, 18)]
        rows += [f"S{t:>3} " + " ".join(f"{NAMES[int(self.soft[0, t, u])]:>2}" for u in ups)
                 for t in range(13, 21)]
        rows += [f"P{'A' if v == 1 else v:>3} " + " ".join(
            f"{'Y' if self.split[0, v, u] else '.':>2}" for u in ups) for v in range(1, 11)]
        return "\n".join(rows)


def _best(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard + 10 <= 21 else hard


@cache
def dealer_distribution(up: int, h17: bool) -> tuple[float, ...]:
    """P(final 17, 18, 19, 20, 21, bust) given the up card, conditioned on no dealer
    blackjack (a blackjack is handled apart)."""
    out = [0.0] * 6

    def walk(hard: int, ace: bool, n: int, p: float) -> None:
        best = _best(hard, ace)
        if hard > 21:
            out[5] += p
            return
        if n >= 2 and (best > 17 or (best == 17 and not (h17 and best != hard))):
            out[best - 17] += p
            return
        for v, qv in Q.items():
            if n == 1 and sorted((up, v)) == [1, 10]:
                continue
            walk(hard + v, ace or v == 1, n + 1, p * qv)

    walk(up, up == 1, 1, 1.0)
    norm = sum(out)
    return tuple(x / norm for x in out)


def p_dealer_blackjack(up: int) -> float:
    return Q[10] if up == 1 else Q[1] if up == 10 else 0.0


class _Evaluator:
    """Expected values for one up card, conditioned on no dealer blackjack."""

    def __init__(self, rules: BjRules, up: int) -> None:
        self.rules, self.up = rules, up
        self.dist = dealer_distribution(up, rules.dealer_hits_soft17)
        self._memo: dict[tuple[int, bool], float] = {}

    def stand(self, hard: int, ace: bool) -> float:
        best = _best(hard, ace)
        if best > 21:
            return -1.0
        d = self.dist
        ev = d[5]
        for i, f in enumerate(range(17, 22)):
            ev += d[i] if best > f else (-d[i] if best < f else 0.0)
        return ev

    def best_play(self, hard: int, ace: bool) -> float:
        """Stand or hit, whichever is better (three or more cards)."""
        key = (hard, ace)
        if key not in self._memo:
            s = self.stand(hard, ace)
            self._memo[key] = s if _best(hard, ace) >= 21 else max(s, self.hit(hard, ace))
        return self._memo[key]

    def hit(self, hard: int, ace: bool) -> float:
        ev = 0.0
        for v, qv in Q.items():
            h, a = hard + v, ace or v == 1
            ev += qv * (-1.0 if h > 21 else self.best_play(h, a))
        return ev

    def double(self, hard: int, ace: bool) -> float:
        return 2 * sum(qv * self.stand(hard + v, ace or v == 1) for v, qv in Q.items())

    def split(self, pair: int) -> float:
        """Two hands, each the pair card plus one card, then played as a split hand."""
        ev = 0.0
        for v, qv in Q.items():
            hard, ace = pair + v, pair == 1 or v == 1
            if pair == 1 and self.rules.split_aces_one_card:
                ev += qv * self.stand(hard, ace)
            else:
                ev += qv * max(self._choices(hard, ace, 1).values())
        return 2 * ev

    def _choices(self, hard: int, ace: bool, ctx: int) -> dict[int, float]:
        out = {STAND: self.stand(hard, ace)}
        if _best(hard, ace) < 21:
            out[HIT] = self.hit(hard, ace)
            if ctx < 2 and double_allowed(self.rules, hard, ace, after_split=ctx == 1):
                out[DOUBLE] = self.double(hard, ace)
        return out


def double_allowed(rules: BjRules, hard: int, ace: bool, after_split: bool) -> bool:
    if after_split and not rules.double_after_split:
        return False
    best = _best(hard, ace)
    if best >= 21:
        return False
    if rules.double == "9_11":
        return 9 <= best <= 11
    if rules.double == "9_11_soft":
        return 9 <= best <= 11 or 9 <= hard <= 11
    return True


def surrender_allowed(rules: BjRules, up: int) -> bool:
    return {"none": False, "any": True, "not_vs_ace": up != 1,
            "vs_ace_only": up == 1}[rules.surrender]


def _risk(action: int) -> float:
    """Stake lost to a dealer blackjack found after the decision (no hole card)."""
    return 2.0 if action == DOUBLE else 1.0


def compute_strategy(rules: BjRules) -> Strategy:
    hard = np.zeros((3, 22, 11), dtype=np.int8)
    soft = np.zeros((3, 22, 11), dtype=np.int8)
    split = np.zeros((3, 11, 11), dtype=bool)
    for up in range(1, 11):
        ev = _Evaluator(rules, up)
        # a dealer blackjack still possible after the decision costs the whole stake at risk
        p = 0.0 if (rules.hole_card and up == 1) else p_dealer_blackjack(up)
        for ctx in range(3):
            for total in range(4, 22):
                hard[ctx, total, up] = _pick(ev, rules, total, False, ctx, up, p)
            for total in range(12, 22):
                soft[ctx, total, up] = _pick(ev, rules, total - 10, True, ctx, up, p)
            for pair in range(1, 11):
                hard_pair, ace = 2 * pair, pair == 1
                keep = max(v * (1 - p) - p * _risk(a)
                           for a, v in ev._choices(hard_pair, ace, ctx).items())
                split[ctx, pair, up] = ev.split(pair) * (1 - p) - 2 * p > keep
    return Strategy(hard, soft, split)


def _pick(ev: _Evaluator, rules: BjRules, hard: int, ace: bool, ctx: int, up: int,
          p: float) -> int:
    options = {a: v * (1 - p) - p * _risk(a) for a, v in ev._choices(hard, ace, ctx).items()}
    if ctx == 0 and surrender_allowed(rules, up):
        options[SURRENDER] = -0.5
    return max(options, key=lambda a: options[a])

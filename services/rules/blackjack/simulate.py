"""Monte-Carlo house edge of the main bet under a profile's rules, vectorised with numpy.

Each simulated round is one box playing basic strategy (strategy.py) against the dealer,
dealt from a freshly shuffled shoe of the profile's decks (a continuous-shuffle model: the
cut-card effect of dealing deeper into a shoe is not modelled). Cards are drawn without
replacement by a lazy Fisher-Yates shuffle per round, all rounds of a chunk at once.

Because the cards still in the shoe are exchangeable, the order in which hands draw does not
change the distribution of results; so the dealer's second card is drawn with the deal (it
decides a dealer blackjack, which with no hole card is only known at the end: doubles and
splits are lost to it), and split hands are played one slot after another.

Floats are fine here: this is a statistic, never a payout.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from services.rules.blackjack.rules import BjRules
from services.rules.blackjack.strategy import (
    DOUBLE,
    HIT,
    STAND,
    SURRENDER,
    Strategy,
    compute_strategy,
)

MAX_HANDS = 4          # three splits at most (seed 002 §2.1.5.3 d)
MAX_CARDS = 12         # card identities kept per hand (enough for every promotion)
CARD_VALUE = np.array([min(i % 13 + 1, 10) for i in range(52)], dtype=np.int16)
CARD_RANK = np.array([i % 13 + 1 for i in range(52)], dtype=np.int16)
CARD_SUIT = np.array([i // 13 for i in range(52)], dtype=np.int16)   # 0 = spades ("SHDC")
JACK_OF_SPADES = 10


@dataclass(frozen=True)
class SimResult:
    hands: int               # rounds simulated, one box each
    bets_per_round: int      # 1, or the three bets of Challenge 21
    mean: float              # player's mean net per unit bet, promotions included
    std: float
    mean_main: float         # the same without promotional prizes
    std_main: float
    seconds: float

    @property
    def edge(self) -> float:
        return -self.mean

    @property
    def edge_main(self) -> float:
        return -self.mean_main

    @property
    def ci95(self) -> float:
        return 1.96 * self.std / math.sqrt(self.hands)

    @property
    def ci95_main(self) -> float:
        return 1.96 * self.std_main / math.sqrt(self.hands)


def simulate(rules: BjRules, hands: int, seed: int = 2024, chunk: int = 100_000) -> SimResult:
    if hands < 2:
        raise ValueError("simulate at least 2 hands")
    strategy = compute_strategy(rules)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    totals = np.zeros(4)   # sum, sum of squares (with promotions), the same for main only
    done = 0
    while done < hands:
        n = min(chunk, hands - done)
        net, promo = _Chunk(rules, strategy, rng, n).run()
        with_promo = net + promo
        totals += (with_promo.sum(), (with_promo ** 2).sum(), net.sum(), (net ** 2).sum())
        done += n
    mean, mean_main = totals[0] / hands, totals[2] / hands
    var = max(totals[1] / hands - mean ** 2, 0.0) * hands / (hands - 1)
    var_main = max(totals[3] / hands - mean_main ** 2, 0.0) * hands / (hands - 1)
    return SimResult(hands, 3 if rules.challenge21 else 1, mean, math.sqrt(var), mean_main,
                     math.sqrt(var_main), time.perf_counter() - start)


def simulate_rounds(rules: BjRules, rounds: int, seed: int = 2024) -> tuple[list[list[int]],
                                                                           np.ndarray]:
    """For audits and tests: the card ids (0-51, 13 per suit in "SHDC" order) each simulated
    round drew, in order, and the player's net per unit bet (promotions included), so any
    simulated round can be replayed through the settlement engine."""
    chunk = _Chunk(rules, compute_strategy(rules), np.random.default_rng(seed), rounds)
    net, promo = chunk.run()
    shoes = [chunk.shoe[i, :chunk.ptr[i]].tolist() for i in range(rounds)]
    return shoes, net + promo


class _Chunk:
    """n rounds played side by side; arrays are [round] or [round, hand slot]."""

    def __init__(self, rules: BjRules, strategy: Strategy, rng: np.random.Generator,
                 n: int) -> None:
        self.rules, self.s, self.rng, self.n = rules, strategy, rng, n
        self.size = 52 * rules.decks
        self.shoe = np.tile(np.arange(self.size, dtype=np.int16) % 52, (n, 1))
        self.ptr = np.zeros(n, dtype=np.int32)
        shape = (n, MAX_HANDS)
        self.hard = np.zeros(shape, dtype=np.int16)
        self.ace = np.zeros(shape, dtype=bool)
        self.nc = np.zeros(shape, dtype=np.int16)
        self.stake = np.ones(shape, dtype=np.float64)
        self.done = np.zeros(shape, dtype=bool)
        self.split_hand = np.zeros(shape, dtype=bool)
        self.split_aces = np.zeros(shape, dtype=bool)
        self.cards = np.full((n, MAX_HANDS, MAX_CARDS), -1, dtype=np.int16)
        self.nh = np.ones(n, dtype=np.int16)
        self.splits = np.zeros(n, dtype=np.int16)

    # -- cards
    def draw(self, rows: np.ndarray) -> np.ndarray:
        p = self.ptr[rows]
        j = p + (self.rng.random(len(rows)) * (self.size - p)).astype(np.int32)
        picked = self.shoe[rows, j]
        self.shoe[rows, j] = self.shoe[rows, p]
        self.shoe[rows, p] = picked
        self.ptr[rows] = p + 1
        return picked

    def give(self, rows: np.ndarray, slot: np.ndarray | int, card: np.ndarray) -> None:
        v = CARD_VALUE[card]
        pos = self.nc[rows, slot]
        keep = pos < MAX_CARDS
        hand_slot = slot[keep] if isinstance(slot, np.ndarray) else slot
        self.cards[rows[keep], hand_slot, pos[keep]] = card[keep]
        self.hard[rows, slot] += v
        self.ace[rows, slot] |= v == 1
        self.nc[rows, slot] += 1

    def best(self, rows: np.ndarray, slot: np.ndarray | int) -> np.ndarray:
        h = self.hard[rows, slot]
        return np.where(self.ace[rows, slot] & (h + 10 <= 21), h + 10, h)

    # -- the round
    def run(self) -> tuple[np.ndarray, np.ndarray]:
        n, rules = self.n, self.rules
        everyone = np.arange(n)
        first = self.draw(everyone)
        self.up = CARD_VALUE[self.draw(everyone)]
        second = self.draw(everyone)
        self.give(everyone, 0, first)
        self.give(everyone, 0, second)
        # LIVE's hole card is dealt now; without a hole card the dealer's second card is
        # drawn after the players, as at the table (the same order as the engine's).
        self.hole = CARD_VALUE[self.draw(everyone)] if rules.hole_card else None
        self.natural = (self.hard[:, 0] == 11) & self.ace[:, 0]
        net = np.zeros(n)
        out = self.natural.copy()
        if rules.hole_card:                               # LIVE peek: ace up, blackjack
            peeked = (self.up == 1) & (self.hole == 10) & ~self.natural
            net[peeked] = -1.0 * self._rounds()
            out |= peeked
        self.surrendered = np.zeros(n, dtype=bool)
        self._play(np.flatnonzero(~out))
        net += self._dealer_and_settle(out)
        return net / self._rounds(), self._promotions()

    def _rounds(self) -> int:
        return 3 if self.rules.challenge21 else 1

    def _play(self, active: np.ndarray) -> None:
        self.active = active
        for slot in range(MAX_HANDS):
            rows = active[self.nh[active] > slot]
            waiting = rows[self.nc[rows, slot] == 1]      # a split hand's second card
            if len(waiting):
                self.give(waiting, slot, self.draw(waiting))
            while len(rows):
                self._step(rows, slot)
                rows = rows[~self.done[rows, slot]]

    def _step(self, rows: np.ndarray, slot: int) -> None:
        action = self._decide(rows, slot)
        for code, fn in ((SURRENDER, self._surrender), (STAND, self._stand), (HIT, self._hit),
                         (DOUBLE, self._double), (-1, self._split)):
            sel = rows[action == code]
            if len(sel):
                fn(sel, slot)

    def _decide(self, rows: np.ndarray, slot: int) -> np.ndarray:
        rules, s = self.rules, self.s
        nc, up = self.nc[rows, slot], self.up[rows]
        best = self.best(rows, slot)
        ctx = np.where(nc > 2, 2, np.where(self.split_hand[rows, slot], 1, 0))
        soft = self.ace[rows, slot] & (self.hard[rows, slot] + 10 <= 21)
        action = np.where(soft, s.soft[ctx, best, up], s.hard[ctx, np.minimum(best, 21), up])
        first_val = CARD_VALUE[self.cards[rows, slot, 0]]
        pair = (nc == 2) & (first_val == CARD_VALUE[self.cards[rows, slot, 1]])
        can_split = pair & (self.splits[rows] < rules.max_splits) & \
            ~(self.split_aces[rows, slot] & (first_val == 1) & (not rules.resplit_aces))
        wants = can_split & s.split[ctx, first_val, up]
        action = np.where(wants, -1, action)
        one_card = self.split_aces[rows, slot] & rules.split_aces_one_card & (nc >= 2)
        action = np.where(one_card & ~wants, STAND, action)
        return np.where(best >= 21, STAND, action)

    def _surrender(self, rows: np.ndarray, slot: int) -> None:
        self.surrendered[rows] = True
        self.done[rows, slot] = True

    def _stand(self, rows: np.ndarray, slot: int) -> None:
        self.done[rows, slot] = True

    def _hit(self, rows: np.ndarray, slot: int) -> None:
        self.give(rows, slot, self.draw(rows))
        self.done[rows, slot] = self.best(rows, slot) >= 21

    def _double(self, rows: np.ndarray, slot: int) -> None:
        self.stake[rows, slot] = 2.0
        self.give(rows, slot, self.draw(rows))
        self.done[rows, slot] = True

    def _split(self, rows: np.ndarray, slot: int) -> None:
        """The new hand is played right after the one split (engine order): later hands of
        the box move one slot up. Its second card comes at once (LIVE) or on its turn."""
        moved = self.cards[rows, slot, 1]
        aces = CARD_VALUE[moved] == 1
        kept = self.cards[rows, slot, 0]
        for arr in (self.hard, self.ace, self.nc, self.stake, self.done, self.split_hand,
                    self.split_aces, self.cards):
            arr[rows, slot + 2:] = arr[rows, slot + 1:-1]
        self._new_hand(rows, slot, kept, aces)
        self.give(rows, slot, self.draw(rows))
        self._new_hand(rows, slot + 1, moved, aces)
        if self.rules.split_deal_both:
            self.give(rows, slot + 1, self.draw(rows))
        self.nh[rows] += 1
        self.splits[rows] += 1

    def _new_hand(self, rows: np.ndarray, slot: int, card: np.ndarray, aces: np.ndarray) -> None:
        self.cards[rows, slot, :] = -1
        self.hard[rows, slot] = 0
        self.ace[rows, slot] = False
        self.nc[rows, slot] = 0
        self.stake[rows, slot] = 1.0
        self.done[rows, slot] = False
        self.give(rows, slot, card)
        self.split_hand[rows, slot] = True
        self.split_aces[rows, slot] = aces

    # -- dealer and settlement
    def _dealer_and_settle(self, out: np.ndarray) -> np.ndarray:
        net = np.zeros(self.n)
        immediate = self._paid_at_once()
        for rnd in range(self._rounds()):
            hole = self.hole if rnd == 0 and self.hole is not None else \
                CARD_VALUE[self.draw(np.arange(self.n))]
            final, bj = self._dealer_final(hole)
            net += np.where(self.natural, np.where(bj & ~immediate, 0.0, 1.5), 0.0)
            net += self._settle_hands(final, bj, out)
        return net

    def _paid_at_once(self) -> np.ndarray:
        mode = self.rules.immediate_pay
        if mode == "not_ace":
            return self.up != 1
        if mode == "not_ace_or_ten":
            return (self.up != 1) & (self.up != 10)
        return np.zeros(self.n, dtype=bool)

    def _dealer_final(self, hole: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hard = (self.up + hole).astype(np.int16)
        ace = (self.up == 1) | (hole == 1)
        bj = ace & (hard == 11)
        h17 = self.rules.dealer_hits_soft17
        while True:
            soft = ace & (hard + 10 <= 21)
            best = np.where(soft, hard + 10, hard)
            draw = (best < 17) | (h17 & soft & (best == 17))
            rows = np.flatnonzero(draw)
            if not len(rows):
                return np.where(hard > 21, 22, best), bj
            v = CARD_VALUE[self.draw(rows)]
            hard[rows] += v
            ace[rows] |= v == 1

    def _settle_hands(self, final: np.ndarray, bj: np.ndarray, out: np.ndarray) -> np.ndarray:
        net = np.zeros(self.n)
        play = ~out
        net[play & self.surrendered] -= 0.5
        for slot in range(MAX_HANDS):
            live = play & ~self.surrendered & (self.nh > slot)
            rows = np.flatnonzero(live)
            best = self.best(rows, slot)
            stake = self.stake[rows, slot]
            d = final[rows]
            win = (best <= 21) & ~bj[rows] & ((d > 21) | (best > d))
            lose = (best > 21) | bj[rows] | ((d <= 21) & (best < d))
            net[rows] += np.where(win, stake, np.where(lose, -stake, 0.0))
        return net

    def _promotions(self) -> np.ndarray:
        """CL prizes (seed 004 III §1.8.1-§1.8.4) on every hand that earns one."""
        prize = np.zeros(self.n)
        if not self.rules.promotions:
            return prize
        for slot in range(MAX_HANDS):
            rows = np.flatnonzero(self.nh > slot)
            nc, cards = self.nc[rows, slot], self.cards[rows, slot]
            stake = self.stake[rows, slot]
            best = self.best(rows, slot)
            prize[rows] += np.where((nc >= 7) & (best <= 21), stake, 0.0)
            three = cards[:, :3].clip(0)
            ranks = np.sort(CARD_RANK[three], axis=1)
            suited = (nc == 3) & (CARD_SUIT[three] == CARD_SUIT[three[:, :1]]).all(axis=1)
            sevens = suited & (ranks == 7).all(axis=1)
            run678 = suited & (ranks == np.array([6, 7, 8])).all(axis=1)
            prize[rows] += np.where(sevens, 7 * stake, np.where(run678, 5 * stake, 0.0))
            if slot == 0:
                jack = (cards[:, :2] == JACK_OF_SPADES).any(axis=1)
                prize[rows] += np.where(self.natural[rows] & jack, 4.0, 0.0)
        return prize

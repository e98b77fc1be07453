"""Vectorised settlement (numpy): the same rules as settle.py, for many bets at once.

Bets are validated and encoded once by the plain path's own functions (coverage, pay table,
limits, zero rule), into arrays: a bitmask of winning pockets, the win multiplier p/q, the zero
multiplier, the playing stake and the excess. Settling against pockets is then pure integer
array arithmetic, rounded exactly as `Rounding.apply` does. What the vector path does not model
(called bets, an AR cascade or forfeit of an excess) raises `Unsupported`: use the plain path.
Tests check that both paths give identical results.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from services.rules.core.money import Rounding
from services.rules.core.profiles import Profile
from services.rules.core.results import Outcome
from services.rules.roulette.bets import CALLED_KINDS, RouletteBet, check_amount, coverage
from services.rules.roulette.decide import check_imprisoned, zero_option
from services.rules.roulette.layout import Wheel
from services.rules.roulette.limits import Limits
from services.rules.roulette.paytable import pay_for
from services.rules.roulette.settle import check_pocket, limit_outcome, wheel_for

OUTCOMES = (Outcome.WIN, Outcome.LOSE, Outcome.HALF_BACK, Outcome.PRISON, Outcome.PUSH)
WIN, LOSE, HALF_BACK, PRISON, PUSH = range(5)
_ZERO = {"half_back": (1, 2, HALF_BACK), "prison": (0, 1, PRISON), "lose": (0, 1, LOSE)}


class Unsupported(ValueError):
    """A bet the vector path does not model; settle it with the plain path."""


def pocket_index(wheel: Wheel) -> dict[str, int]:
    return {p: i for i, p in enumerate(wheel.pockets)}


@dataclass(frozen=True)
class BetBatch:
    wheel: Wheel
    mask: np.ndarray      # uint64: bit i set when pocket i (wheel.pockets order) wins
    win_p: np.ndarray     # int64: returned = playing * p / q on a win
    win_q: np.ndarray
    zero_p: np.ndarray    # int64: returned on a zero for an even chance (or a prisoner)
    zero_q: np.ndarray
    zero_code: np.ndarray  # int8: outcome on such a zero
    even: np.ndarray      # bool: the zero rule applies
    jailed: np.ndarray    # bool: already in prison (win -> push)
    playing: np.ndarray   # int64
    excess: np.ndarray    # int64: returned whatever happens


def _row(profile: Profile, wheel: Wheel, bet: RouletteBet, limits: Limits,
         index: dict[str, int], cache: dict) -> tuple:
    if bet.kind in CALLED_KINDS:
        raise Unsupported("called bets are settled by the plain path")
    amount = check_amount(bet)
    key = (bet.kind, bet.numbers, bet.index)
    if key not in cache:
        ratio = pay_for(profile, bet.kind).ratio
        cache[key] = (sum(1 << index[p] for p in coverage(bet, wheel)), ratio)
    mask, ratio = cache[key]
    check_imprisoned(profile, bet)
    lim = limit_outcome(profile, limits, bet, amount)
    if lim.excess and lim.policy == "ar_cascade" and not bet.noticed_before_result:
        raise Unsupported("an AR over-maximum excess is settled by the plain path")
    even = bet.kind in ("red", "black", "odd", "even", "low", "high")
    zp, zq, zcode = _ZERO[zero_option(profile, bet)] if even else (0, 1, LOSE)
    if bet.imprisoned:
        return (mask, 1, 1, 0, 1, LOSE, True, True, lim.playing_stake, lim.excess)
    return (mask, ratio.numerator + ratio.denominator, ratio.denominator, zp, zq, zcode, even,
            False, lim.playing_stake, lim.excess)


def encode(profile: Profile, wheel: str, bets: Sequence[RouletteBet],
           limits: Limits = None) -> BetBatch:
    w = wheel_for(profile, wheel)
    index = pocket_index(w)
    cache: dict[tuple[str, tuple[str, ...], int | None], tuple[int, Fraction]] = {}
    rows = [_row(profile, w, b, limits, index, cache) for b in bets]
    cols = list(zip(*rows)) if rows else [()] * 10
    types = (np.uint64, np.int64, np.int64, np.int64, np.int64, np.int8, bool, bool, np.int64,
             np.int64)
    return BetBatch(w, *(np.array(c, dtype=t) for c, t in zip(cols, types)))


def _round(num: np.ndarray, den: np.ndarray, rounding: Rounding) -> np.ndarray:
    """Exactly Rounding.apply(Fraction(num, den)) for num >= 0, den > 0."""
    if rounding is Rounding.DOWN:
        return num // den
    return (2 * num + den) // (2 * den)


def pockets_array(wheel: Wheel, pockets: Sequence[str] | str, size: int) -> np.ndarray:
    index = pocket_index(wheel)
    if isinstance(pockets, str):
        return np.full(size, index[check_pocket(wheel, pockets)], dtype=np.uint64)
    return np.array([index[check_pocket(wheel, p)] for p in pockets], dtype=np.uint64)


def settle_batch(profile: Profile, batch: BetBatch, pockets: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(paid, outcome code) per bet; `pockets` holds one pocket index per bet (see
    pockets_array). Outcome codes index OUTCOMES."""
    zero_mask = sum(1 << i for i, p in enumerate(batch.wheel.pockets) if p in batch.wheel.zeros)
    hit = ((batch.mask >> pockets) & np.uint64(1)).astype(bool)
    zero = ((np.uint64(zero_mask) >> pockets) & np.uint64(1)).astype(bool) & batch.even
    win = hit
    p = np.where(win, batch.win_p, np.where(zero, batch.zero_p, 0))
    q = np.where(win, batch.win_q, np.where(zero, batch.zero_q, 1))
    paid = _round(batch.playing * p, q, profile.rounding) + batch.excess
    code = np.where(win, np.where(batch.jailed, PUSH, WIN),
                    np.where(zero, batch.zero_code, LOSE)).astype(np.int8)
    return paid, code


def settle_vector(profile: Profile, wheel: str, bets: Sequence[RouletteBet],
                  pockets: Sequence[str] | str, limits: Limits = None
                  ) -> tuple[list[int], list[Outcome]]:
    batch = encode(profile, wheel, bets, limits)
    paid, code = settle_batch(profile, batch, pockets_array(batch.wheel, pockets, len(bets)))
    return [int(x) for x in paid], [OUTCOMES[c] for c in code]

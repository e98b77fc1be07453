"""Robust fits of a smooth function around a circle: y(t) ~ a0 + a1 cos t + b1 sin t +
a2 cos 2t + b2 sin 2t. The wheel uses it three times: the rotor edge radius per direction
(centre offset + ellipticity), the bend of pocket angles (perspective), and the lighting
level around the wheel. Outliers (a hand, a deflector, glare) are down-weighted with
Tukey's biweight over a shrinking sequence of scales."""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np


def design(t: np.ndarray) -> np.ndarray:
    """Columns 1, cos t, sin t, cos 2t, sin 2t (the double angles from the single ones: two
    trigonometric calls instead of four; this runs several times per frame)."""
    return _design(np.cos(t), np.sin(t))


def _design(c: np.ndarray, s: np.ndarray) -> np.ndarray:
    a = np.empty((len(c), 5), c.dtype)  # filled column by column: np.stack costs 3x more
    a[:, 0], a[:, 1], a[:, 2], a[:, 3], a[:, 4] = 1, c, s, c * c - s * s, 2 * s * c
    return a


def evaluate(coef: np.ndarray, t: np.ndarray) -> np.ndarray:
    return _evaluate(coef, np.cos(t), np.sin(t))


def _evaluate(coef: np.ndarray, c: np.ndarray, s: np.ndarray) -> np.ndarray:
    return _evaluate2(coef, c, s, c * c - s * s, 2 * s * c)


def _evaluate2(coef: np.ndarray, c: np.ndarray, s: np.ndarray, c2: np.ndarray,
               s2: np.ndarray) -> np.ndarray:
    """`_evaluate` given cos 2t (c * c - s * s) and sin 2t (2 * s * c) as it forms them."""
    return coef[0] + coef[1] * c + coef[2] * s + coef[3] * c2 + coef[4] * s2


class Basis:
    """Fixed angles fitted again and again (the 120 directions of the rotor edge search,
    three times a frame; the lighting blocks around a strip): their cosines, sines and
    design matrix taken once. Fits and values are those of `robust_fit` and `evaluate` on
    `t`, to the bit."""

    def __init__(self, t: np.ndarray) -> None:
        self.t = t
        self.c, self.s = np.cos(t), np.sin(t)
        self.a = _design(self.c, self.s)
        # the double angles as `_evaluate` forms them, taken once (4 of its 13 operations)
        self.c2, self.s2 = self.c * self.c - self.s * self.s, 2 * self.s * self.c
        self.at = np.ascontiguousarray(self.a.T)
        # float64 copies: the weighted steps of `robust_fit` work in float64 (the weights
        # are), and numpy would otherwise cast these on every product
        self.a64 = self.a.astype(np.float64)
        self.at64 = np.ascontiguousarray(self.a64.T)
        # every row's outer product a_i a_i^T, flattened (25 x n): the weighted normal
        # matrix is then one product with the weights (`_solve_outer`)
        self.outer_t = np.ascontiguousarray(
            (self.a64[:, :, None] * self.a64[:, None, :]).reshape(len(t), 25).T)
        self._starts: dict[np.dtype, tuple[np.ndarray, np.ndarray]] = {}

    def start(self, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
        """(a.T times unit weights of `dtype`, the normal matrix of those weights with the
        ridge, in float64): what `_solve` forms for the unweighted first fit, the same for
        every fit on these angles, so taken once per dtype (a product by 1 is the operand
        itself, in the product's type; eleventh round: ~8 us of a fit's ~80)."""
        got = self._starts.get(dtype)
        if got is None:
            aw = self.at * _ones(len(self.t), dtype)
            lhs = np.asarray(aw @ self.a + _RIDGE, np.float64)
            aw.flags.writeable = False
            lhs.flags.writeable = False
            got = self._starts[dtype] = (aw, lhs)
        return got

    def evaluate(self, coef: np.ndarray) -> np.ndarray:
        return _evaluate2(coef, self.c, self.s, self.c2, self.s2)


_RIDGE = 1e-9 * np.eye(5)


def _solve(at: np.ndarray, a: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted least squares; `at` is a.T, contiguous (the products are then cheaper).
    cv2.solve (LU, as numpy's) takes 2 us against 6 for np.linalg.solve's Python wrapper;
    a frame solves ~20 of these 5 x 5 systems."""
    aw = at * w
    _, coef = cv2.solve(np.asarray(aw @ a + _RIDGE, np.float64),
                        np.asarray(aw @ y, np.float64)[:, None], flags=cv2.DECOMP_LU)
    return coef[:, 0]


def _solve64(at: np.ndarray, a: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """`_solve` when every operand is float64 already: the same products, without the
    casts (no-ops here, but each a call)."""
    aw = at * w
    lhs = aw @ a
    lhs += _RIDGE
    _, coef = cv2.solve(lhs, (aw @ y)[:, None], flags=cv2.DECOMP_LU)
    return coef[:, 0]


def _solve_outer(basis: Basis, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """`_solve64` on a Basis: sum_i w_i a_i a_i^T as one product (eighth round: 25 % less
    time a solve; the sums in another order, within 1e-13 of it)."""
    lhs = (basis.outer_t @ w).reshape(5, 5)
    lhs += _RIDGE
    _, coef = cv2.solve(lhs, (basis.at64 @ (w * y))[:, None], flags=cv2.DECOMP_LU)
    return coef[:, 0]


@lru_cache(maxsize=32)
def _ones(n: int, dtype: np.dtype) -> np.ndarray:
    """Unit weights (read only; np.ones_like's Python wrapper cost 8 us a fit)."""
    w = np.ones(n, dtype)
    w.flags.writeable = False
    return w


def robust_fit(t: np.ndarray | Basis, y: np.ndarray, scales: Sequence[float],
               min_points: int = 8) -> tuple[np.ndarray, np.ndarray] | None:
    """(coefficients, final weights), or None when fewer than `min_points` keep a weight.
    `t`: the angles, or their `Basis`."""
    if isinstance(t, Basis):
        a64, at64 = t.a64, t.at64
        # `_solve(at, a, y, ones)` with its y-independent part taken once per basis
        aw, lhs = t.start(y.dtype)
        _, coef = cv2.solve(lhs, np.asarray(aw @ y, np.float64)[:, None], flags=cv2.DECOMP_LU)
        coef = coef[:, 0]
    else:
        a = design(t)
        at = np.ascontiguousarray(a.T)
        a64 = a.astype(np.float64)
        at64 = np.ascontiguousarray(a64.T)
        coef = _solve(at, a, y, _ones(len(y), y.dtype))  # in y's own precision, as before
    # the rest in float64, as numpy computed it (the weights are float64): the operands
    # cast once here, not in every product; the Tukey weight in place
    y64 = np.asarray(y, np.float64)  # (read only here)
    w = _ones(len(y), y.dtype)  # read only: returned as a copy when there are no scales
    for c in scales:
        u = y64 - a64 @ coef
        u /= c
        u *= u
        np.subtract(1, u, out=u)
        np.maximum(u, 0.0, out=u)
        u *= u                                 # Tukey: (1 - u^2)^2 inside |u| < 1, else 0
        w = u
        if np.count_nonzero(w) < min_points:
            return None
        coef = _solve_outer(t, y64, w) if isinstance(t, Basis) else \
            _solve64(at64, a64, y64, w)
    return coef, w if len(scales) else w.copy()

"""Robust fits of a smooth function around a circle: y(t) ~ a0 + a1 cos t + b1 sin t +
a2 cos 2t + b2 sin 2t. The wheel uses it three times: the rotor edge radius per direction
(centre offset + ellipticity), the bend of pocket angles (perspective), and the lighting
level around the wheel. Outliers (a hand, a deflector, glare) are down-weighted with
Tukey's biweight over a shrinking sequence of scales."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def design(t: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(t), np.cos(t), np.sin(t), np.cos(2 * t), np.sin(2 * t)], 1)


def evaluate(coef: np.ndarray, t: np.ndarray) -> np.ndarray:
    return coef[0] + coef[1] * np.cos(t) + coef[2] * np.sin(t) + coef[3] * np.cos(2 * t) \
        + coef[4] * np.sin(2 * t)


def _solve(a: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    aw = a * w[:, None]
    return np.linalg.solve(aw.T @ a + 1e-9 * np.eye(a.shape[1]), aw.T @ y)


def robust_fit(t: np.ndarray, y: np.ndarray, scales: Sequence[float],
               min_points: int = 8) -> tuple[np.ndarray, np.ndarray] | None:
    """(coefficients, final weights), or None when fewer than `min_points` keep a weight."""
    a = design(t)
    w = np.ones_like(y)
    coef = _solve(a, y, w)
    for c in scales:
        u = (y - a @ coef) / c
        w = np.where(np.abs(u) < 1, (1 - u ** 2) ** 2, 0.0)
        if (w > 0).sum() < min_points:
            return None
        coef = _solve(a, y, w)
    return coef, w

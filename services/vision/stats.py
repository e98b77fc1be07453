"""Medians and quantiles by partition (np.median and np.quantile sort the whole array).

The readers take thousands of small medians per second of video: np.median costs 20-70 us on
a few hundred values, one np.partition 3-10 us, for the same value.
"""
from __future__ import annotations

import numpy as np


def median(x: np.ndarray) -> float:
    """np.median of all elements, the same value (the mean of the two middle ones for an
    even count): 30 us against 230 us on a 34 x 592 strip."""
    a = _floats(x).ravel()
    if a.size == 0:
        return float("nan")
    h = a.size // 2
    part = np.partition(a, h)
    return float(part[h] if a.size % 2 else (part[:h].max() + part[h]) / 2)


def column_medians(x: np.ndarray) -> np.ndarray:
    """np.median(x, axis=0) of a 2-D array, by one partition of each column."""
    x = _floats(x)
    n = x.shape[0]
    h = n // 2
    if n % 2:
        return np.partition(x, h, axis=0)[h]
    part = np.partition(x, (h - 1, h), axis=0)
    return (part[h - 1] + part[h]) / 2


def quantile(x: np.ndarray, q: float) -> float:
    """np.quantile's value (linear interpolation) of all elements; nan when empty."""
    a = _floats(x).ravel()
    if a.size == 0:
        return float("nan")
    pos = q * (a.size - 1)
    lo, hi = int(np.floor(pos)), int(np.ceil(pos))
    part = np.partition(a, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (pos - lo))


def _floats(x: np.ndarray) -> np.ndarray:
    """Integers as float64 (the mean of two middle uint8 values must not wrap); floats as
    they are, so a float32 median is computed as numpy computes it."""
    a = np.asarray(x)
    return a if a.dtype.kind == "f" else a.astype(np.float64)

"""The spot finder on a made-up pocket strip: one candidate per bright region."""
from __future__ import annotations

import numpy as np

from services.vision.stats import median
from services.vision.wheel.geometry import NOMINAL
from services.vision.wheel.hidden import true_runs
from services.vision.wheel.strips import (
    CELL,
    FRET_SEEN,
    PER_POCKET,
    POCKET_ROWS,
    Spot,
    Strip,
    _Noise,
    fret_shift,
    fret_shifts,
    spots,
)


def _strip_with_plateau_and_ball() -> Strip:
    """A bumpy plateau of ~40 ball areas (what a dark green zero among plain silver pockets
    leaves) brighter than a ball elsewhere on the ring."""
    rng = np.random.default_rng(5)
    n, rows = 37, len(POCKET_ROWS)
    cols = n * PER_POCKET
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    res = rng.normal(0, 1.0, (rows, cols)).astype(np.float32)
    plateau = (x >= 100) & (x < 260) & (y >= 4) & (y < rows - 4)
    res += plateau * (60 + 8 * np.sin(x / 1.6) * np.sin(y / 1.6)).astype(np.float32)
    sigma = NOMINAL.ball / CELL / 1.5
    res += 40 * np.exp(-((x - 450) ** 2 + (y - rows / 2) ** 2) / (2 * sigma ** 2))
    pos = (np.arange(cols) + 0.5) / PER_POCKET - 0.5
    return Strip(res + 100, res, res, POCKET_ROWS, pos, x, y)


def test_a_bumpy_plateau_takes_one_place_and_leaves_the_ball_one():
    found = spots(_strip_with_plateau_and_ball(), PER_POCKET, 37, max_spots=8)
    on_plateau = [s for s in found if 100 / PER_POCKET - 1 < s.position < 260 / PER_POCKET]
    assert len(on_plateau) == 1
    assert any(abs(s.position - (450 + 0.5) / PER_POCKET + 0.5) < 0.3 for s in found), \
        [round(s.position, 2) for s in found]


def _noise_everywhere(residual: np.ndarray, per_unit: int) -> np.ndarray:
    """The near-peak noise as first written: all 37 medians, interpolated at every column."""
    a = np.abs(residual)
    whole = max(median(a) * 1.48, 2.0)
    cols = a.shape[1]
    centres = np.arange(0, cols, per_unit)
    blocks = np.array([median(a[:, np.arange(c - 3 * per_unit, c + 3 * per_unit) % cols])
                       * 1.48 for c in centres], np.float32)
    near = np.interp(np.arange(cols), np.r_[centres - cols, centres, centres + cols],
                     np.r_[blocks, blocks, blocks])
    return np.minimum(np.maximum(near, 2.0), whole).astype(np.float32)


def test_near_peak_noise_is_taken_only_where_asked_and_as_everywhere():
    # glare over two thirds of a ring, the rest quiet: the noise near a column is the median
    # within +-3 pockets, computed lazily (the two medians around the column), to the bit
    rng = np.random.default_rng(9)
    rows, cols = len(POCKET_ROWS), 37 * PER_POCKET
    res = rng.normal(0, 15.0, (rows, cols)).astype(np.float32)
    res[:, 150:350] /= 5
    noise = _Noise(np.abs(res), max(median(np.abs(res)) * 1.48, 2.0), PER_POCKET, local=True)
    assert noise.at(np.array([500]))[0] > 2 * noise.at(np.array([250]))[0]
    assert noise._done.sum() == 4  # columns 250 and 500: two medians each
    expected = _noise_everywhere(res, PER_POCKET)
    assert np.array_equal(noise.at(np.arange(cols)), expected)
    whole_only = _Noise(np.abs(res), noise.whole, PER_POCKET, local=False)
    assert np.array_equal(whole_only.at(np.arange(3)), np.full(3, noise.whole, np.float32))


def test_runs_of_true_around_a_circle_join_across_the_seam():
    flags = np.array([1, 1, 0, 0, 1, 1, 1, 0, 1], bool)
    assert true_runs(flags) == [(4, 3), (8, 3)]  # the last run wraps onto columns 0-1
    assert true_runs(np.ones(5, bool)) == [(0, 5)]
    assert true_runs(np.zeros(5, bool)) == []
    assert true_runs(np.array([0, 1, 0, 1], bool)) == [(1, 1), (3, 1)]


def _strip_with_frets(shift: float) -> Strip:
    """Frets as bright lines every pocket, `shift` pockets from where the bend puts them."""
    n, rows = 37, len(POCKET_ROWS)
    cols = n * PER_POCKET
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    pos = (np.arange(cols) + 0.5) / PER_POCKET - 0.5
    to_fret = ((pos[None, :] - 0.5 - shift + 0.5) % 1.0) - 0.5  # pockets to the nearest fret
    values = (60 + 80 * np.exp(-(to_fret * PER_POCKET) ** 2 / 2)).astype(np.float32)
    values = np.broadcast_to(values, (rows, cols)).copy()
    return Strip(values, values - 60, values - 60, POCKET_ROWS, pos, x, y)


def test_frets_beside_the_ball_are_measured_where_they_are():
    ball = Spot(col=20 * PER_POCKET + 7.5, row=12.0, position=20.0, r=0.72, peak=80.0,
                contrast=20.0, area=0.8, elongation=1.0, edge=False, reference=80.0)
    for shift in (0.0, 0.12, -0.3):
        measured, strength = fret_shifts(_strip_with_frets(shift), ball)
        assert np.allclose(measured, shift, atol=0.01), (shift, measured)
        assert abs(fret_shift(_strip_with_frets(shift), ball) - abs(shift)) < 0.01


def test_a_hidden_fret_beside_the_ball_is_left_out():
    ball = Spot(col=20 * PER_POCKET + 7.5, row=12.0, position=20.0, r=0.72, peak=80.0,
                contrast=20.0, area=0.8, elongation=1.0, edge=False, reference=80.0)
    strip = _strip_with_frets(0.0)
    hidden = (21 * PER_POCKET + 12, 22 * PER_POCKET + 4)  # a shadow over the fret at 21.5
    strip.values[:, hidden[0]:hidden[1]] = 60 + strip.values[:, hidden[0]:hidden[1]] * 0.05
    _, strength = fret_shifts(strip, ball)
    assert strength[2] < FRET_SEEN * strength.max()
    assert fret_shift(strip, ball) < 0.01

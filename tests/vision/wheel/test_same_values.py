"""The speed work (branch wheel-fast) rewrote a few steps to do less; each must give the
values of the plain formula it replaced, to the bit (the readings of 800 development frames
were compared too: `speed_ab.py`). The eighth round (branch wheel-fast2) moved a few values
on purpose: the grids' cosines and sines (cv2.polarToCart, within 1e-6), remap through
fixed-point maps (1/32 pixel), the coarse centre's 4x shrink as two halvings (within one
grey level); these are pinned to the plain forms within those bounds."""
from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np

from services.vision.wheel import harmonics, locate, strips
from services.vision.wheel.area import shrink_area
from services.vision.wheel.geometry import NOMINAL
from services.vision.wheel.layout import get_layout
from services.vision.wheel.locate import Ellipse
from services.vision.wheel.reader import _may_rest_on_bowl, _zero_and_outline
from services.vision.wheel.rotor import RING_R, RotorReading, _with, _z


def test_radians32_is_deg2rad_in_float32():
    rng = np.random.default_rng(1)
    for theta in (rng.uniform(-400, 800, (34, 592)), rng.uniform(0, 360, 9).astype(np.float32),
                  np.float64(12.5), 3.0, [1.0, 359.5]):
        got = locate.radians32(theta)
        want = np.asarray(np.deg2rad(theta), dtype=np.float32)
        assert got.dtype == np.float32 and np.array_equal(got, want)


def test_cos_sin_is_numpys_within_1e_6():
    rng = np.random.default_rng(3)
    for theta in (rng.uniform(-400, 800, (34, 592)), rng.uniform(0, 360, 9), 12.5,
                  rng.uniform(0, 360, 70)):
        c, s = locate.cos_sin(theta)
        t = np.asarray(np.deg2rad(theta), dtype=np.float32)
        assert c.dtype == np.float32 and np.shape(c) == np.shape(theta)
        assert np.abs(c - np.cos(t)).max() <= 1e-6 and np.abs(s - np.sin(t)).max() <= 1e-6


def test_remap_is_the_fixed_point_remap():
    rng = np.random.default_rng(4)
    # a camera's frame is smooth at the pixel scale: 1/32 pixel moves a value little
    img = cv2.GaussianBlur(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8), (0, 0), 1.5)
    mx = rng.uniform(-5, 645, (34, 592)).astype(np.float32)
    my = rng.uniform(-5, 485, (34, 592)).astype(np.float32)
    m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    want = cv2.remap(img, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(locate.remap(img, mx, my), want)
    plain = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert np.abs(want.astype(int) - plain).max() <= 3


def test_coarse_grey_is_inter_area_within_one_level():
    rng = np.random.default_rng(5)
    img = cv2.GaussianBlur(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8), (0, 0), 2)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    got = locate._shrunk_grey(img, 4.0)
    want = cv2.resize(grey, (160, 120), interpolation=cv2.INTER_AREA)
    assert got.shape == want.shape and np.abs(got.astype(int) - want).max() <= 1
    big = cv2.resize(img, (1280, 720))  # a factor of 6: INTER_AREA as before, to the bit
    assert np.array_equal(locate._shrunk_grey(big, 6.0), cv2.resize(
        cv2.cvtColor(big, cv2.COLOR_BGR2GRAY), (213, 120), interpolation=cv2.INTER_AREA))


def test_shrink_area_is_opencvs_inter_area_to_the_bit():
    """The general INTER_AREA path (a factor that is not whole) rebuilt in numpy (tenth
    round): equal to cv2.resize on noise (every rounding case) and on a smooth frame."""
    rng = np.random.default_rng(6)
    for (w, h), (dw, dh) in (((1280, 720), (213, 120)), ((1920, 1080), (213, 120)),
                             ((1000, 750), (160, 120)), ((641, 481), (160, 120)),
                             ((800, 600), (133, 100)), ((1280, 720), (200, 120))):
        noise = rng.integers(0, 256, (h, w), dtype=np.uint8)
        for grey in (noise, cv2.GaussianBlur(noise, (0, 0), 3)):
            want = cv2.resize(grey, (dw, dh), interpolation=cv2.INTER_AREA)
            assert np.array_equal(shrink_area(grey, dw, dh), want), (w, h, dw, dh)


def test_coarse_votes_are_rint_then_int32_and_in_frame_counts():
    rng = np.random.default_rng(7)
    at = rng.integers(0, 160, 1500)
    step = rng.uniform(-1, 1, 1500).astype(np.float32)
    grid = locate._VOTE_D * step[None, :] + at.astype(np.float32)[None, :]
    want = np.rint(grid).astype(np.int32)
    got = locate._votes(at, step)
    assert got.dtype == np.int32 and np.array_equal(got, want)
    img = cv2.GaussianBlur(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8), (0, 0), 2)
    cv2.circle(img, (330, 250), 150, (250, 250, 250), 5)
    cv2.circle(img, (330, 250), 100, (0, 0, 200), 5)
    x, y = locate.coarse_centre(img)
    assert abs(x - 330) < 4 and abs(y - 250) < 4
    # the first pass's sampling taken once serves both edge rules (tenth round, wheel-fast3)
    start = locate.Ellipse(330.0, 250.0, 140.0, 140.0, 0.0)
    first = locate.edge_map(img, start, *locate._FIRST_PASS)
    for outermost in (True, False):
        assert locate.fit_rotor_edge(img, start, *locate._FIRST_PASS, outermost, first) == \
            locate.fit_rotor_edge(img, start, *locate._FIRST_PASS, outermost)
    # the strong edges taken once serve both votes (tenth round): the same centres
    for frame in (img, cv2.resize(img, (1280, 720))):
        edges = locate.strong_edges(frame)
        for dists in (locate._VOTE_D, locate._FAR_VOTE_D):
            assert locate.coarse_centre(frame, dists, edges) == locate.coarse_centre(frame, dists)


def test_noise_blocks_in_one_partition_are_the_single_medians():
    """`_Noise.at` takes 6 or more blocks it needs in one partition (tenth round): the values of
    `_block`, one median at a time, as before."""
    rng = np.random.default_rng(8)
    a = np.abs(rng.normal(0, 6, (34, 608))).astype(np.float32)
    for xs in (rng.integers(0, 608, 1), rng.integers(0, 608, 12), np.arange(0, 608, 5)):
        noise = strips._Noise(a, 9.0, 16, True)
        got = noise.at(xs)
        plain = strips._Noise(a, 9.0, 16, True)
        blocks = np.array([plain._block(j) for j in range(len(plain.centres))] + [0.0],
                          np.float32)
        blocks[-1] = blocks[0]
        want = np.minimum(np.maximum(np.interp(xs, plain._nodes, blocks), 2.0), 9.0)
        assert np.array_equal(got, want.astype(np.float32))


def test_expected_pattern_tiles_the_median_as_the_concatenation_did():
    rng = np.random.default_rng(9)
    for rows, repeats, blocks, cols in ((34, 37, 37, 592), (34, 38, 38, 608), (56, 4, 36, 900)):
        values = rng.uniform(0, 255, (rows, cols)).astype(np.float32)
        gain = strips.smooth_gain(values, blocks)
        norm = (values / gain).reshape(rows, repeats, cols // repeats)
        middle = strips._lower_middle_of_4(norm) if repeats == 4 else \
            strips._median_over_repeats(norm)
        want = np.concatenate([middle] * repeats, 1) * gain
        assert np.array_equal(strips.expected_pattern(values, repeats, blocks), want)


def _plain_centre(values: np.ndarray, col: float, row: float) -> tuple[float, float]:
    """`strips._centre` as it was before the tenth round (three separate sums)."""
    win, wx, wy = strips._WIN, strips._WX, strips._WY
    rows, cols = values.shape
    c0, r0 = int(round(col)), int(round(row))
    ys = np.clip(np.arange(r0 - win, r0 + win + 1), 0, rows - 1)
    xs = np.arange(c0 - win, c0 + win + 1) % cols
    patch = values[ys[:, None], xs[None, :]].astype(np.float64)
    floor = np.partition(patch.ravel(), int(0.3 * patch.size))[int(0.3 * patch.size)]
    w0 = np.maximum(patch - floor, 0)
    cx, cy = col - c0, row - r0
    for _ in range(4):
        d2 = np.sqrt((wx[:1] - cx) ** 2 + (wy[:, :1] - cy) ** 2)
        w = w0 * np.minimum(np.maximum(strips._KERNEL_R - d2, 0), 1)
        tot = float(w.sum())
        if tot <= 0:
            break
        cx, cy = float((w * wx).sum()) / tot, float((w * wy).sum()) / tot
    return c0 + cx, r0 + cy


def test_mean_shift_centre_is_the_three_sums():
    rng = np.random.default_rng(10)
    values = cv2.GaussianBlur(rng.uniform(0, 255, (34, 608)).astype(np.float32), (0, 0), 1.5)
    values[10:16, 100:106] += 120  # a ball
    for col, row in [(102.4, 12.7), (0.3, 1.0), (607.6, 33.0), (300.0, 17.2)] + [
            (float(c), float(r)) for c, r in zip(rng.uniform(0, 608, 200),
                                                   rng.uniform(0, 33, 200))]:
        assert strips._centre(values, col, row) == _plain_centre(values, col, row)
    flat = np.full((34, 608), 50.0, np.float32)  # no weight at all: the start is kept
    assert strips._centre(flat, 10.25, 5.5) == _plain_centre(flat, 10.25, 5.5) == (10.25, 5.5)


def _plain_bend(warp: np.ndarray, theta_deg, r):
    t = np.asarray(np.deg2rad(theta_deg), dtype=np.float32)
    c, s = np.cos(t).astype(float), np.sin(t).astype(float)
    c0, c1, s1, c2, s2 = warp
    bend = c0 + (c1 * c + s1 * s) * RING_R / np.maximum(r, 0.2) \
        + c2 * (c * c - s * s) + s2 * (2 * s * c)
    return np.rad2deg(bend)


def test_bend_in_place_is_the_formula():
    rng = np.random.default_rng(2)
    for _ in range(10):
        warp = rng.normal(0, 0.03, 5)
        rotor = RotorReading(get_layout("american"), 47.0, 0.5, 0.3, warp, 30, 0.2)
        theta = rng.uniform(0, 360, (2, 608))
        r = np.array([[0.62], [0.88]])
        # cosines by cv2.polarToCart (eighth round): within 1e-6 of numpy's, so the bend
        # (a few degrees) within 1e-4 degree; a scalar still takes numpy's, to the bit
        assert np.abs(rotor.bend(theta, r) - _plain_bend(warp, theta, r)).max() < 1e-4
        assert rotor.bend(12.0, 0.1) == _plain_bend(warp, 12.0, 0.1)


def _plain_robust_fit(t, y, scales, min_points):
    a = harmonics.design(t)
    at = np.ascontiguousarray(a.T)
    w = np.ones_like(y)
    coef = harmonics._solve(at, a, y, w)
    for c in scales:
        u = (y - a @ coef) / c
        w = np.maximum(1 - u * u, 0.0) ** 2
        if np.count_nonzero(w) < min_points:
            return None
        coef = harmonics._solve(at, a, y, w)
    return coef, w


def test_robust_fit_is_the_plain_tukey_loop():
    rng = np.random.default_rng(3)
    for trial in range(40):
        n = int(rng.integers(12, 150))
        dtype = (np.float32, np.float64)[trial % 2]
        t = np.sort(rng.uniform(0, 2 * np.pi, n)).astype(dtype)
        y = (rng.normal(0, 1, n) + 5 * np.cos(t) + (rng.random(n) < 0.2) * 20).astype(dtype)
        want = _plain_robust_fit(t, y, (3.0, 1.5, 0.8), 8)
        for given in (t, harmonics.Basis(t)):
            got = harmonics.robust_fit(given, y, (3.0, 1.5, 0.8), 8)
            assert (got is None) == (want is None)
            if got is not None and want is not None:
                if isinstance(given, harmonics.Basis):  # the normal matrix summed as one
                    # product (eighth round): the same fit within rounding
                    assert np.allclose(got[0], want[0], rtol=1e-8, atol=1e-9)
                    assert np.allclose(got[1], want[1], rtol=1e-8, atol=1e-9)
                else:
                    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_alternation_wraps_around_the_circle_as_the_concatenation_did():
    rng = np.random.default_rng(4)
    polar = rng.integers(0, 256, (120, 60, 3), dtype=np.uint8)
    wrapped = np.concatenate([polar[-1:], polar, polar[:1]])
    d = cv2.absdiff(wrapped[2:], wrapped[:-2]).astype(np.float32)
    want = cv2.boxFilter(d.sum(2, dtype=np.float32), -1, (1, 9))
    assert np.array_equal(locate.alternation(polar, 9), want)


def _bowl_strip() -> strips.Strip:
    """A bowl-sized strip: noise, a round ball-sized spot, a long streak, a big blob."""
    rng = np.random.default_rng(5)
    rows, cols = len(strips.BOWL_ROWS), strips.BOWL_COLS
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    res = rng.normal(0, 2.0, (rows, cols)).astype(np.float32)
    sigma = 0.035 / strips.CELL / 1.5
    res += 60 * np.exp(-((x - 200) ** 2 + (y - 20) ** 2) / (2 * sigma ** 2))
    res += 50 * np.exp(-((x - 500) ** 2 / 40 ** 2 + (y - 30) ** 2 / 3 ** 2) / 2)
    res += 70 * np.exp(-((x - 700) ** 2 + (y - 25) ** 2) / (2 * 12 ** 2))
    deg = (np.arange(cols) + 0.5) * 360.0 / cols
    return strips.Strip(res + 80, res, res, strips.BOWL_ROWS, deg, x, y)


def test_finer_measures_skipped_only_where_the_caller_refuses_the_spot():
    strip = _bowl_strip()
    args = (strip, strips.BOWL_COLS / 360.0, 360.0)
    every = strips.spots(*args, max_spots=12, local=True)
    some = strips.spots(*args, max_spots=12, local=True, fine=_may_rest_on_bowl)
    assert len(every) == len(some) >= 3
    wanted = [a for a, b in zip(every, some) if a == b]
    assert wanted  # the round ball-sized spot keeps every measure, to the bit
    for a, b in zip(every, some):
        if a != b:  # no finer measures: refused by the bowl's test whatever they say
            assert not _may_rest_on_bowl(b) and b.reference == float("inf")


def test_z_score_is_numpys_mean_and_std():
    rng = np.random.default_rng(6)
    for trial in range(200):
        dtype = (np.float32, np.float64)[trial % 2]
        x = rng.normal(rng.normal(0, 50), rng.uniform(0.01, 20), 720).astype(dtype)
        want = (x - x.mean()) / max(float(x.std()), 1e-6)
        got = _z(x)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_rotor_reading_copy_is_dataclasses_replace():
    # every field away from its default: a field `_with` forgot would differ here
    rotor = RotorReading(get_layout("european"), 10.0, 0.5, 0.3, np.arange(5.0), 30, 0.2,
                         (3, 4), 1)
    cases: list[dict[str, Any]] = [{}, {"score": 0.7, "sectors_off": 2}, {"margin": -0.1}]
    for changes in cases:
        got, want = _with(rotor, **changes), dataclasses.replace(rotor, **changes)
        assert all(getattr(got, f.name) is getattr(want, f.name)
                   or getattr(got, f.name) == getattr(want, f.name)
                   for f in dataclasses.fields(RotorReading))


def test_row_radius_is_numpys_interp():
    rng = np.random.default_rng(7)
    rows = strips.POCKET_ROWS
    index = np.arange(len(rows))
    for cy in [*rng.uniform(-2, len(rows) + 1, 5000), *range(-1, len(rows) + 1)]:
        assert strips._row_radius(rows, float(cy)) == float(np.interp(cy, index, rows))


def test_basis_first_fit_is_the_unweighted_solve():
    """The first (unweighted) fit on a Basis, its y-independent part taken once per dtype
    (eleventh round), is `_solve` with unit weights to the bit."""
    rng = np.random.default_rng(11)
    for trial in range(40):
        n = int(rng.integers(12, 150))
        t = np.sort(rng.uniform(0, 2 * np.pi, n)).astype((np.float32, np.float64)[trial % 2])
        y = rng.normal(0, 3, n).astype((np.float32, np.float64)[(trial // 2) % 2])
        basis = harmonics.Basis(t)
        want = harmonics._solve(basis.at, basis.a, y, np.ones(n, y.dtype))
        for _ in range(2):  # taken, then reused
            got = harmonics.robust_fit(basis, y, ())
            assert got is not None and np.array_equal(got[0], want)
            assert np.array_equal(got[1], np.ones(n)) and got[1].flags.writeable


def test_whiteness_and_masked_window_are_the_plain_forms():
    """The darkest channel from split planes, and a spot's window zeroed outside its region
    by cv2.copyTo (eleventh round), are np.minimum over the channels and np.where."""
    rng = np.random.default_rng(12)
    for _ in range(50):
        h, w = int(rng.integers(3, 60)), int(rng.integers(3, 900))
        bgr = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        got = strips.whiteness(bgr)
        assert got.dtype == np.uint8
        assert np.array_equal(got, np.minimum(np.minimum(bgr[..., 0], bgr[..., 1]), bgr[..., 2]))
        win = (rng.random((34, 81)) - 0.3).astype(np.float32)
        mask = (rng.random((36, 83)) < 0.3).astype(np.uint8)
        got = cv2.copyTo(win, mask[1:-1, 1:-1])
        want = np.where(mask[1:-1, 1:-1].view(bool), win, np.float32(0))
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_zero_and_outline_in_one_angle_of_are_the_separate_points():
    """The zero's point and the chosen pocket's outline through one `angle_of` (eleventh
    round) are the points `_geometry` and `_outline` took apart: the zero's from scalars,
    the outline's from four."""
    rng = np.random.default_rng(13)
    for trial in range(300):
        layout = get_layout(("european", "american")[trial % 2])
        rotor = RotorReading(layout, float(rng.uniform(0, 360)), 0.9, 0.5,
                             rng.normal(0, 0.02, 5), 30, 0.2)
        cx, cy, a, b = rng.uniform(100, 400, 2).tolist() + rng.uniform(80, 200, 2).tolist()
        ell = Ellipse(cx, cy, a, b, float(rng.uniform(0, 180)))
        k = int(rng.integers(0, layout.n))
        zx, zy = ell.points(np.array(rotor.angle_of(0.0, 0.92)), np.array(0.92))
        ks = np.array([k - 0.5, k + 0.5, k + 0.5, k - 0.5])
        rs = np.array([NOMINAL.pockets_in, NOMINAL.pockets_in, 1.0, 1.0])
        xs, ys = ell.points(rotor.angle_of(ks, rs), rs)
        zero, outline = _zero_and_outline(ell, rotor, k)
        assert zero == (float(zx), float(zy))
        assert _zero_and_outline(ell, rotor, None) == (zero, None)
        assert outline == tuple((float(x), float(y)) for x, y in zip(xs, ys))


def test_template_scores_in_one_fft_pair_are_the_separate_correlations():
    """Both ring signals through one rfft and one irfft as two rows (eleventh round): the
    values of a correlation per signal (float32 signals as ring_signals gives them, float64
    as the straightened ring's)."""
    from services.vision.wheel.rotor import BINS, GREEN_WEIGHT, _template_scores, templates
    rng = np.random.default_rng(14)
    for trial in range(60):
        layout = get_layout(("european", "american")[trial % 2])
        dtype = (np.float32, np.float64)[(trial // 2) % 2]
        red, green = (_z(rng.normal(size=BINS).astype(dtype)) for _ in range(2))
        t_red, t_green = templates(layout)

        def corr(sig: np.ndarray, tpl: np.ndarray) -> np.ndarray:
            return np.fft.irfft(np.fft.rfft(sig) * np.conj(np.fft.rfft(tpl)), BINS)

        want = (corr(red, t_red) / np.sqrt((t_red ** 2).sum() * BINS)
                + GREEN_WEIGHT * corr(green, t_green) / np.sqrt((t_green ** 2).sum() * BINS))
        want /= 1 + GREEN_WEIGHT
        got = _template_scores(red, green, layout)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_peak_indices_from_flat_ones_are_numpys_nonzero():
    """A strip's peak indices by flat index and divmod (eleventh round) are np.nonzero's,
    in its order and type."""
    rng = np.random.default_rng(15)
    for _ in range(50):
        peaks = rng.random((int(rng.integers(1, 60)), int(rng.integers(1, 1000)))) < 0.01
        ys, xs = np.divmod(np.flatnonzero(peaks), peaks.shape[1])
        want = np.nonzero(peaks)
        assert ys.dtype == want[0].dtype and xs.dtype == want[1].dtype
        assert np.array_equal(ys, want[0]) and np.array_equal(xs, want[1])


def test_basis_values_are_the_plain_harmonics():
    """A Basis evaluates with its double angles taken once (eleventh round): the values of
    the plain formula on its angles, to the bit."""
    rng = np.random.default_rng(16)
    for trial in range(40):
        t = rng.uniform(0, 2 * np.pi, int(rng.integers(5, 1000)))
        t = t.astype((np.float32, np.float64)[trial % 2])
        coef = rng.normal(size=5)
        c, s = np.cos(t), np.sin(t)
        want = (coef[0] + coef[1] * c + coef[2] * s + coef[3] * (c * c - s * s)
                + coef[4] * (2 * s * c))
        got = harmonics.Basis(t).evaluate(coef)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_map_pair_in_reused_buffers_is_the_plain_affine_map():
    """Both maps of an ellipse's grid formed with the callers' temporaries reused (eleventh
    round): the plain sums m[i, 0] u + m[i, 1] v + m[i, 2], on grids and on scalars."""
    rng = np.random.default_rng(17)
    for _ in range(40):
        m = rng.normal(0, 200, (3, 3)).astype(np.float32)
        shape = tuple(int(x) for x in rng.integers(1, 60, int(rng.integers(0, 3))))
        u = np.asarray(rng.normal(size=shape), np.float32)
        v = np.asarray(rng.normal(size=shape), np.float32)
        want = [m[i][0] * u + m[i][1] * v + m[i][2] for i in (0, 1)]
        got = locate._grids(m, u.copy(), v.copy())
        for g, w in zip(got, want):
            assert np.asarray(g).dtype == np.float32 and np.array_equal(g, w)


def test_far_max_is_the_rolled_mask_maximum():
    """The best score a pocket or more from bin j, over one or two slices (eleventh round):
    the maximum over `np.roll(_far_from_zero(n), j)`, for every j of both layouts."""
    from services.vision.wheel.rotor import BINS, _far_from_zero, _far_max
    rng = np.random.default_rng(19)
    for n in (37, 38):
        far = _far_from_zero(n)
        score = rng.normal(size=BINS)
        for j in range(BINS):
            assert _far_max(score, j, n) == float(np.maximum.reduce(score[np.roll(far, j)]))

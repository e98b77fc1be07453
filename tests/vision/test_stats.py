"""The partition medians and quantiles give numpy's own values (the readers' thresholds were
measured with numpy's)."""
import numpy as np
import pytest

from services.vision.stats import column_medians, median, quantile


@pytest.mark.parametrize("n", [1, 2, 7, 8, 301])
def test_median_is_numpys(n: int) -> None:
    rng = np.random.default_rng(n)
    for dtype in (np.float32, np.float64, np.uint8):
        a: np.ndarray = (rng.random((n, 3)) * 200).astype(dtype)
        assert median(a) == pytest.approx(float(np.median(a)), rel=1e-6)
        np.testing.assert_allclose(column_medians(a), np.median(a, axis=0), rtol=1e-6)


@pytest.mark.parametrize("q", [0.0, 0.1, 0.5, 0.9, 1.0])
def test_quantile_is_numpys(q: float) -> None:
    a = np.random.default_rng(3).normal(size=257).astype(np.float32)
    assert quantile(a, q) == pytest.approx(float(np.quantile(a, q)), rel=1e-5, abs=1e-6)


def test_empty_gives_nan_not_an_error() -> None:
    assert np.isnan(median(np.array([]))) and np.isnan(quantile(np.array([]), 0.9))


"""The shared nuisance pipeline: deterministic, shape-preserving, each one changes the image."""
import numpy as np
import pytest

from services.scenes import nuisances as nz


def _scene() -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.full((120, 160, 3), (40, 110, 30), np.uint8)
    img[40:80, 60:100] = 230  # something bright so blur/glare/jpeg have edges to act on
    return np.clip(img.astype(int) + rng.integers(-5, 6, img.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("name", nz.PHOTOMETRIC)
def test_each_photometric_nuisance_changes_pixels_and_keeps_shape(name):
    img = _scene()
    out = nz.apply(img, np.random.default_rng(3), [name])
    assert out.shape == img.shape and out.dtype == np.uint8
    assert np.abs(out.astype(int) - img.astype(int)).mean() > 0.5


def test_same_seed_same_frame_order_of_names_irrelevant():
    img = _scene()
    a = nz.apply(img, np.random.default_rng(7), ["jpeg", "glare", "noise"])
    b = nz.apply(img, np.random.default_rng(7), ["noise", "glare", "jpeg"])
    c = nz.apply(img, np.random.default_rng(8), ["noise", "glare", "jpeg"])
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_geometric_names_skipped_by_apply_and_moved_by_homography():
    img = _scene()
    assert np.array_equal(nz.apply(img, np.random.default_rng(1), ["rotation"]), img)
    mat = nz.homography(img.shape, np.random.default_rng(1), ["rotation", "perspective"])
    assert not np.allclose(mat, np.eye(3))
    moved = nz.warp_points(np.array([[80.0, 60.0]]), mat)
    assert moved.shape == (1, 2)
    assert np.allclose(nz.homography(img.shape, np.random.default_rng(1), []), np.eye(3))


def test_unknown_name_is_a_clear_error():
    with pytest.raises(ValueError, match="nuisances: unknown name"):
        nz.apply(_scene(), np.random.default_rng(0), ["fog"])


def test_parse_and_pick():
    assert nz.parse("all") == list(nz.NUISANCES)
    assert nz.parse("none") == []
    assert nz.parse("jpeg, glare") == ["glare", "jpeg"]
    rng = np.random.default_rng(0)
    counts = {n: 0 for n in nz.NUISANCES}
    for _ in range(200):
        for n in nz.pick(rng, nz.NUISANCES, 0.5):
            counts[n] += 1
    assert all(60 < c < 140 for c in counts.values())

"""Cameras the wheel reader was not tuned on (issue 14): the inner circles of a tilted wheel
and bends larger than the sector search."""
import numpy as np

from services.vision.wheel.layout import get_layout
from services.vision.wheel.rotor import RING_R, RotorReading, unwrap_shifts


def _boost(p: np.ndarray, v: float) -> np.ndarray:
    """The projective map of the unit disc onto itself that takes its centre to (v, 0): how
    a camera tilted toward x sees the wheel plane once the rotor's edge is made a circle."""
    x, y = p[..., 0], p[..., 1]
    d = 1 + v * x
    return np.stack([(x + v) / d, y * np.sqrt(1 - v * v) / d], -1)


def test_strips_are_sampled_where_a_tilted_camera_sees_the_inner_circles():
    v = 0.1  # ~25 degrees of tilt: inner circles 0.05 rotor radii off at the pocket ring
    layout = get_layout("european")
    # the bend's 1/r first harmonic is the centre shift seen sideways: t = (v, 0) -> s1
    rotor = RotorReading(layout, 0.0, 0.6, 0.5, np.array([0.0, 0.0, -v / RING_R, 0, 0]), 30,
                         0.2)
    assert np.allclose(rotor.centre_shift(), (v, 0.0))
    phi = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    for r in (0.7, 0.75, 0.8, 1.3):
        seen = _boost(np.stack([r * np.cos(phi), r * np.sin(phi)], -1), v)
        theta = np.rad2deg(np.arctan2(seen[:, 1], seen[:, 0]))
        rho = np.hypot(seen[:, 0], seen[:, 1])
        got = rotor.radius_grid(theta[None, :], np.array([r]))[0]
        assert np.abs(got - rho).max() < 0.012, r          # first order: within 1/3 ball
        assert np.abs(r - rho).max() > 0.03 or r > 1        # ... where ignoring it is not
    assert np.allclose(rotor.radius_grid(np.array([[0.0, 90.0, 200.0]]), np.array([1.0])), 1.0)


def test_a_bend_beyond_half_the_red_black_period_is_unwrapped_from_the_zero():
    layout = get_layout("european")
    period = np.radians(2 * layout.pitch)
    true = np.radians(11.0) * np.sin(np.linspace(0, 2 * np.pi, 12, endpoint=False)) \
        + np.radians(2.0)
    folded = (true + period / 2) % period - period / 2   # what a +-half-period search sees
    assert not np.allclose(folded, true)
    # the zero sits in sector 0 (zero angle 10 degrees): its phase is absolute
    assert np.allclose(unwrap_shifts(folded, 10.0, layout), true)

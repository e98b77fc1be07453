"""The renderer is deterministic and its labels are consistent; annotate draws the evidence."""
import cv2
import numpy as np
import pytest

from services.scenes.wheel.scene import CASES, render_wheel_scene
from services.vision.wheel.annotate import annotate
from services.vision.wheel.layout import get_layout
from services.vision.wheel.reader import read_wheel


def test_same_generator_state_same_frame():
    a, la = render_wheel_scene(np.random.default_rng(11), "american", nuisances=("noise",))
    b, lb = render_wheel_scene(np.random.default_rng(11), "american", nuisances=("noise",))
    c, _ = render_wheel_scene(np.random.default_rng(12), "american", nuisances=("noise",))
    assert np.array_equal(a, b) and la == lb and not np.array_equal(a, c)
    assert a.shape == (480, 640, 3) and a.dtype == np.uint8


@pytest.mark.parametrize("case", [c for c in CASES if c != "no_wheel"])
def test_labels_are_consistent(case):
    image, label = render_wheel_scene(np.random.default_rng([7, len(case)]), "european", case=case)
    assert label.case == case and label.no_decision == (case != "pocket")
    assert (label.pocket in get_layout("european").pockets) == (case == "pocket")
    h = np.array(label.plane_to_image)
    centre = cv2.perspectiveTransform(np.array([[[0.0, 0.0]]]), h)[0, 0]
    assert label.centre_xy is not None and label.ball_xy is not None
    assert np.allclose(centre, label.centre_xy, atol=1e-6)
    assert 0 <= label.ball_xy[0] < 640 and 0 <= label.ball_xy[1] < 480
    assert label.to_dict()["case"] == case


def test_bad_arguments_are_clear_errors():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="^case: "):
        render_wheel_scene(rng, case="ball_in_the_air")
    with pytest.raises(ValueError, match="^style: "):
        render_wheel_scene(rng, style="plastic")
    with pytest.raises(ValueError, match="nuisances: unknown"):
        render_wheel_scene(rng, nuisances=("fog",))
    with pytest.raises(ValueError, match="^case: style 'low_profile' has no deflectors"):
        render_wheel_scene(rng, case="ball_on_deflector", style="low_profile")


def test_annotate_draws_the_reading(wheel_frame):
    image, label = wheel_frame("european", "pocket", None, ("noise",), 6)
    reading = read_wheel(image)
    out = annotate(image, reading)
    assert out.shape == image.shape and not np.array_equal(out, image)
    assert np.array_equal(image, wheel_frame("european", "pocket", None, ("noise",), 6)[0])
    assert reading.pocket_outline is not None
    x, y = np.round(reading.pocket_outline[0]).astype(int)
    assert tuple(out[y, x]) == (255, 0, 255)                   # the chosen pocket's outline
    held = annotate(image, read_wheel(wheel_frame("european", "glare", None, (), 6)[0]))
    assert held.shape == image.shape

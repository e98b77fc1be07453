"""The video tracker decides only once the ball has stayed in one pocket for N frames."""
import numpy as np
import pytest

from services.scenes.wheel.sequence import render_wheel_sequence
from services.vision.wheel import reasons as R
from services.vision.wheel.reading import WheelReading
from services.vision.wheel.tracker import WheelTracker

SEED = 5252


def _reading(pocket):
    if pocket is None:
        return WheelReading(None, True, R.BALL_MOVING, 0.0, "european")
    return WheelReading(pocket, False, None, 0.9, "european")


def test_decides_after_n_consecutive_frames_in_the_same_pocket():
    tracker = WheelTracker(confirm_frames=3)
    states = [tracker.observe(_reading(p)) for p in ["17", "17", "5", "5", None, "5", "5", "5",
                                                    "5"]]
    assert [s.pocket for s in states] == [None] * 7 + ["5", "5"]
    assert [s.settled_frames for s in states] == [1, 2, 1, 2, 0, 1, 2, 3, 4]
    assert states[1].reason == R.NOT_SETTLED and states[4].reason == R.BALL_MOVING
    assert not states[7].no_decision and states[7].candidate == "5"
    tracker.reset()
    assert tracker.observe(_reading("5")).no_decision


def test_confirm_frames_must_be_positive():
    with pytest.raises(ValueError, match="^confirm_frames"):
        WheelTracker(confirm_frames=0)


@pytest.mark.parametrize("variant", ["european", "american"])
def test_rendered_spin_settles_then_is_decided(variant):
    frames = render_wheel_sequence(np.random.default_rng([SEED, len(variant)]), variant,
                                   n_frames=7, settle_at=2, nuisances=("noise", "jpeg"))
    truth = frames[-1][1].pocket
    assert [lab.pocket for _, lab in frames] == [None, None] + [truth] * 5
    tracker = WheelTracker(variant, confirm_frames=3)
    states = [tracker.update(image) for image, _ in frames]
    assert [s.pocket for s in states] == [None] * 4 + [truth] * 3
    assert all(s.reason == R.BALL_MOVING for s in states[:2])
    assert all(s.frame.pocket == truth for s in states[2:])   # each settled frame reads it


def test_ball_that_keeps_moving_is_never_decided():
    frames = render_wheel_sequence(np.random.default_rng([SEED, 9]), "european", n_frames=5,
                                   settle_at=None, nuisances=("noise",))
    tracker = WheelTracker(confirm_frames=2)
    assert all(tracker.update(image).no_decision for image, _ in frames)
    assert all(lab.no_decision and lab.reason == R.BALL_MOVING for _, lab in frames)

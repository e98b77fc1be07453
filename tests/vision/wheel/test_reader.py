"""The real reader on rendered frames: the pocket read equals the label, on both wheels,
every wheel style and camera nuisances; every no-decision case gives no decision with the
reason the scene was built for; frames without a wheel give no decision, never a crash."""
import numpy as np
import pytest

from services.scenes.wheel.style import STYLES
from services.vision.wheel import reasons as R
from services.vision.wheel.reader import FRET_LIMIT, read_wheel

MILD = ("noise", "jpeg")                       # what every camera adds
HARSH = ("gradient", "shadow", "colour_cast", "exposure", "motion_blur", "noise", "jpeg",
         "rotation", "perspective")


@pytest.mark.parametrize("variant", ["european", "american"])
@pytest.mark.parametrize("style", sorted(STYLES))
def test_pocket_read_on_every_style(wheel_frame, variant, style):
    for index, nuisances in enumerate([MILD, HARSH]):
        image, label = wheel_frame(variant, "pocket", style, nuisances, index)
        reading = read_wheel(image, variant)
        assert reading.pocket == label.pocket, (style, nuisances, reading.reason)
        assert not reading.no_decision and reading.reason is None
        assert 0 < reading.confidence <= 1
        assert reading.ball_xy is not None and label.ball_xy is not None
        assert np.hypot(reading.ball_xy[0] - label.ball_xy[0],
                        reading.ball_xy[1] - label.ball_xy[1]) < 4


@pytest.mark.parametrize("case", R.SCENE_CASES)
def test_each_no_decision_case_gives_its_reason(wheel_frame, case):
    for index in range(3):
        variant = ("european", "american")[index % 2]
        image, label = wheel_frame(variant, case, None, MILD, index)
        reading = read_wheel(image, variant)
        assert reading.no_decision and reading.pocket is None and reading.confidence == 0
        assert reading.reason == case, (index, label.style)


def test_no_decision_cases_never_decided_under_harsh_nuisances(wheel_frame):
    for index, case in enumerate(R.SCENE_CASES * 2):
        image, _ = wheel_frame("european", case, None, HARSH, 10 + index)
        assert read_wheel(image).no_decision, case


def test_frames_without_a_wheel(wheel_frame):
    image, label = wheel_frame("european", "no_wheel", None, MILD)
    assert label.no_decision and label.reason == R.NO_WHEEL
    rng = np.random.default_rng(0)
    for frame in (image, np.zeros((480, 640, 3), np.uint8),
                  rng.integers(0, 256, (480, 640, 3), dtype=np.uint8),
                  np.full((120, 90, 3), 200, np.uint8)):
        reading = read_wheel(frame)
        assert reading.no_decision and reading.pocket is None
        assert reading.reason in (R.NO_WHEEL, R.ROTOR_UNREADABLE)


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="^frame: expected a BGR image"):
        read_wheel(np.zeros((480, 640), np.uint8))
    with pytest.raises(ValueError, match="^variant: unknown wheel"):
        read_wheel(np.zeros((480, 640, 3), np.uint8), variant="triple")


def test_ball_on_a_fret_is_never_decided(wheel_frame):
    """A ball on a fret (rendered within 0.1 pocket of it) is measured beyond the fret line,
    under every nuisance a camera adds: refused, with its offset shown in the scores."""
    for index in range(8):
        image, label = wheel_frame("european", R.BALL_ON_FRET, None, HARSH, 40 + index)
        reading = read_wheel(image)
        assert reading.no_decision and reading.pocket is None, (index, reading.scores)
        if "offset" in reading.scores:  # the ball was seen in the pocket ring
            assert abs(reading.scores["offset"]) > FRET_LIMIT, (index, reading.scores)

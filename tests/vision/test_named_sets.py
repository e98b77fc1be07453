"""The development sets of `casino vision eval --set dev-*` (services/scenes/named_sets.py):
the validation seeds of the face classifier's training sources (dice), and the wheel's
development frames of the first generator (dev-wheel, dev-wheel-std)."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes import dice_crops, named_sets


def test_a_dev_set_is_its_sources_validation_seed_frame_by_frame():
    frames = list(named_sets.frames("dev-first", "dice", 2, jobs=1))
    assert [f for f, _, _ in frames] == ["dev-first_dice_00000", "dev-first_dice_00001"]
    for i, (_, image, label) in enumerate(frames):
        want, want_label = dice_crops.frame("first", dice_crops.VALIDATION["first"], i)
        assert np.array_equal(image, want) and label == want_label


def test_dev_sets_have_their_sizes_and_no_wheel_frames():
    assert named_sets.size("dev-leaning", "dice", None) == 150
    assert named_sets.size("dev-wide", "dice", None) == 300
    assert named_sets.size("dev-wide", "dice", 7) == 7
    with pytest.raises(ValueError, match="dice frames only"):
        next(named_sets.frames("dev-tuning", "wheel", 1, jobs=1))
    with pytest.raises(ValueError, match="unknown"):
        next(named_sets.frames("dev-nothing", "dice", 1, jobs=1))


def test_dev_wheel_covers_both_variants_every_style_tilt_and_both_frame_sizes():
    from services.scenes.wheel.style import EXTRA_STYLES, STYLES
    assert named_sets.size("dev-wheel", "wheel", None) == 400
    labels = [named_sets.wheel_dev_frame("dev-wheel", i)[1] for i in range(0, 14)]
    assert {lab["variant"] for lab in labels} == {"european", "american"}
    assert {lab["style"] for lab in labels} == set(STYLES) | set(EXTRA_STYLES)
    with pytest.raises(ValueError, match="wheel frames only"):
        next(named_sets.frames("dev-wheel", "dice", 1, jobs=1))


def test_a_1280x720_dev_wheel_frame_keeps_its_label_on_the_wheel():
    import cv2
    name, image, label = named_sets.render(("dev-wheel", "wheel", 2))
    assert name == "dev-wheel_wheel_00002" and image.shape == (720, 1280, 3)
    cond = label["conditions"]
    assert cond["size"] == "1280x720" and 135 <= cond["rotor_px"] <= 330
    assert 0 <= cond["tilt_deg"] <= 35
    # the rotor's centre, moved with the frame, is where the plane's origin lands
    h = np.array(label["plane_to_image"])
    assert np.allclose(h[:2, 2] / h[2, 2], label["centre_xy"], atol=1.0)
    assert label["kind"] == "wheel" and cv2.mean(image)[0] > 0


def test_dev_wheel_std_is_the_labelled_sets_recipe_at_its_own_seed():
    from services.scenes import dataset as D
    from services.scenes import nuisances as nz
    _, image, label = named_sets.render(("dev-wheel-std", "wheel", 3))
    want, want_label = D.render(D.SetSpec("wheel", 200, 795_101, nz.NUISANCES, 0.3), 3)
    assert np.array_equal(image, want) and label["variant"] == "european"
    assert {k: v for k, v in label.items() if k != "conditions"} == want_label
    assert label["conditions"]["size"] == "640x480"


@pytest.mark.parametrize("scale", [1.5, 1.502, 1.75, 2.0])
def test_scaled_frames_are_1280x720_and_points_move_with_them(scale):
    image = np.zeros((480, 640, 3), np.uint8)
    image[200:203, 300:303] = 255                     # a dot centred at (301, 201)
    big, label = named_sets._to_1280x720(image, {"ball_xy": (301.0, 201.0)}, scale)
    assert big.shape == (720, 1280, 3)
    ys, xs = np.nonzero(big[..., 0] > 128)
    assert abs(xs.mean() - label["ball_xy"][0]) < 0.6
    assert abs(ys.mean() - label["ball_xy"][1]) < 0.6


def test_the_command_line_offers_every_named_set_and_each_sets_readers():
    from services.scenes import cli
    assert tuple(cli.SETS.choices) == named_sets.NAMES
    assert named_sets.kinds("dev-first") == ("dice",)
    assert named_sets.kinds("dev-wheel-std") == ("wheel",)
    assert named_sets.kinds("foreign") == ("dice", "wheel")


@pytest.mark.parametrize(("name", "kind", "has"), [("dev-first", "wheel", "dice"),
                                                   ("dev-wheel", "dice", "wheel")])
def test_asking_a_set_for_a_reader_it_has_no_frames_for_is_a_usage_error(name, kind, has):
    from click.testing import CliRunner

    from services.scenes import cli
    result = CliRunner().invoke(cli.eval_, ["--set", name, "--kind", kind])
    assert result.exit_code == 2
    assert f"--set {name} has {has} frames only" in result.output

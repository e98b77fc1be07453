"""Calibration: measured from a frame, saved, loaded, and read with."""
import json

import numpy as np
import pytest

from services.vision.wheel.calibration import WheelCalibration, calibrate_wheel, load, save
from services.vision.wheel.reader import read_wheel


@pytest.mark.parametrize("variant", ["european", "american"])
def test_round_trip_and_read_with_it(wheel_frame, tmp_path, variant):
    image, label = wheel_frame(variant, "pocket", None, ("noise", "perspective"), 3)
    cal = calibrate_wheel(image, variant)
    path = tmp_path / "wheel.json"
    save(cal, path)
    loaded = load(path)
    assert loaded == cal
    data = json.loads(path.read_text())
    assert data["variant"] == variant and len(data["homography"]) == 3
    # the wheel's centre as seen (perspective moves it off the rotor ellipse's centre)
    assert np.hypot(*(np.array(loaded.centre) - label.centre_xy)) < 2.0
    assert loaded.reprojection_px < 1.0
    assert read_wheel(image, variant, calibration=loaded).pocket == label.pocket
    # the same camera, a later spin: still read with the saved calibration
    other, other_label = wheel_frame(variant, "pocket", None, ("noise",), 4)
    cal_other = calibrate_wheel(other, variant)
    assert read_wheel(other, variant, calibration=cal_other).pocket == other_label.pocket


def test_camera_moved_gives_no_decision(wheel_frame):
    image, _ = wheel_frame("european", "pocket", None, ("noise",), 5)
    cal = calibrate_wheel(image)
    moved = np.roll(image, 60, axis=1)
    reading = read_wheel(moved, calibration=cal)
    assert reading.no_decision


def test_no_wheel_cannot_be_calibrated(wheel_frame):
    image, _ = wheel_frame("european", "no_wheel")
    with pytest.raises(ValueError, match="^frame: "):
        calibrate_wheel(image)


def test_bad_files_name_the_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"kind": "wheel", "version": 1, "variant": "european",
                                "image_size": [640, 480], "homography": [[1, 0], [0, 1]]}))
    with pytest.raises(ValueError, match="^homography: "):
        load(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        load(path)
    with pytest.raises(ValueError, match="^kind: "):
        WheelCalibration.from_json({"kind": "dice"})

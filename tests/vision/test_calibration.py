import numpy as np
import pytest

from services.scenes.dice.scene import SYNTH_PX_PER_MM, synth_calibration
from services.vision.dice import calibration as cal
from tests.vision.conftest import dice_frame


def test_round_trip_and_homography(tmp_path):
    c = synth_calibration()
    path = tmp_path / "cal.json"
    cal.save(c, path)
    again = cal.load(path)
    assert again == c
    corner = np.array([[[c.landing_area_px[2][0], c.landing_area_px[2][1]]]], np.float64)
    import cv2
    assert np.allclose(cv2.perspectiveTransform(corner, again.to_mm()), [[c.landing_area_mm]])
    assert c.px_per_mm() == pytest.approx(SYNTH_PX_PER_MM)


@pytest.mark.parametrize("data,field", [
    ({"landing_area_mm": [200, 140]}, "landing_area_px"),
    ({"landing_area_px": [[0, 0], [1, 0]], "landing_area_mm": [200, 140]}, "landing_area_px"),
    ({"landing_area_px": [[0, 0], [100, 0], [100, 100], [0, 100]], "landing_area_mm": [0, 1]},
     "landing_area_mm"),
    ({"kind": "wheel"}, "kind"),
])
def test_bad_calibration_names_the_field(data, field):
    with pytest.raises(cal.CalibrationError) as err:
        cal.DiceCalibration.from_json(data)
    assert err.value.field == field


def test_bad_file(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{nope")
    with pytest.raises(cal.CalibrationError, match="calibration: cannot read"):
        cal.load(p)


def test_detects_the_printed_landing_area():
    img, label = dice_frame(7)
    found = cal.detect_landing_area(img)
    assert np.abs(found - np.array(label["landing_area_px"])).max() < 4

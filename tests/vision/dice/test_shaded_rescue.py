"""A rescue by the shaded sides (rescue.RESCUE_SHADED, `_shaded_camera`): two pale dice, one
read below FACE_P and backed by its pips' grid, whose whole silhouettes fit no one camera
(white print joins a white die's silhouette) are read when their shaded sides fit one camera
and neither die leans SHADED_LEAN or more. Development frames (dice_crops.frame: the TUNING
region's white style alone, never an evaluation seed)."""
from __future__ import annotations

import numpy as np
import pytest

from services.scenes.dice_crops import frame
from services.vision.dice import camera, guard, rescue, views
from services.vision.dice.reader import read_dice


def white(index: int):
    return frame("white", 1_346_001, index)


# stop 37's network (with stop 35's, frames 113 and 198)
@pytest.mark.parametrize("index, values", [(137, (1, 3)), (569, (2, 3))])
def test_white_dice_on_white_print_are_rescued_by_their_shaded_sides(monkeypatch, index,
                                                                        values):
    """Frame 137: a 3 read sure beside a 1 read 0.78; the whole silhouettes misfit by 0.77
    (the print), the shaded sides by 0.09. Without the rule, `single_die`."""
    img, label = white(index)
    assert tuple(sorted(label["values"])) == values
    r = read_dice(img)
    assert r.values == values and r.detail["shaded"] and r.detail["one_camera"] < camera.FIT
    dice = views._surest(views.look(img), rescue.RESCUE_P, rescue.RESCUE_P)
    whole = camera.misfit(img, dice[0].candidate, dice[1].candidate)
    assert whole is None or whole >= camera.FIT
    monkeypatch.setattr(rescue, "RESCUE_SHADED", False)
    assert read_dice(img).reason == "single_die"


def test_a_die_leaning_shaded_lean_or_more_is_not_rescued_so(monkeypatch):
    """Frame 137's 1 leans 0.14: at SHADED_LEAN exactly it is not rescued, just above it is."""
    img, _ = white(137)
    seen = views.look(img)
    lean = max(d.lean for d in views._surest(seen, rescue.RESCUE_P, rescue.RESCUE_P))
    monkeypatch.setattr(rescue, "SHADED_LEAN", lean)
    assert rescue._rescue(img, seen) is None
    monkeypatch.setattr(rescue, "SHADED_LEAN", float(np.nextafter(lean, 1.0)))
    assert rescue._rescue(img, seen) is not None


def test_a_cocked_white_die_is_kept_out_by_its_lean(monkeypatch):
    """White_leaning 1357001 frame 205 (white 1346001 frame 370 before stop 37's network): a
    white 2 cocked beside a flat 1, read 2 at 0.55 leaning 0.44; its shaded sides fit one
    camera (0.11), so without the lean cap the cocked frame is read (1, 2)."""
    img, label = frame("white_leaning", 1_357_001, 205)
    assert label["no_decision"]
    assert read_dice(img).no_decision
    monkeypatch.setattr(rescue, "SHADED_LEAN", 1.01)
    assert read_dice(img).values == (1, 2)


def test_only_pale_dice_are_rescued_so(monkeypatch):
    img, _ = white(137)
    monkeypatch.setattr(guard, "_pale", lambda image, die: False)
    assert read_dice(img).reason == "single_die"

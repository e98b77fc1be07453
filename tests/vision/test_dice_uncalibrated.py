"""The dice reader without a calibration (dice/learned.py) on drawn and rendered dice: a
tilted camera, the leaning die, and the lone-pip, chip, dot and printed-ink traps."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from services.scenes.foreign import dice as FD
from services.scenes.foreign import sets
from services.vision.dice.faces import LAYOUT
from services.vision.dice.reader import read_dice
from services.vision.dice.views import FACE_P, look

# The tuning region's steepest camera (15 degrees), 55 px dice.
TILTED = dataclasses.replace(sets.TUNING.dice, die_px=(55.0, 55.001), tilt=(14.9, 15.0),
                             cocked_rate=0.0)
LEANING = dataclasses.replace(TILTED, die_px=(50.0, 60.0), tilt=(0.0, 15.0), cocked_rate=1.0)
FELT = (40, 110, 35)


def _die(img: np.ndarray, centre: tuple[int, int], side: int, value: int,
         body: tuple[int, int, int] = (30, 30, 200), pip: tuple[int, int, int] = (240, 240, 240)
         ) -> None:
    x, y = centre
    h = side // 2
    cv2.rectangle(img, (x - h, y - h), (x + h, y + h), body, -1)
    for gx, gy in LAYOUT[value]:
        cv2.circle(img, (round(x + gx * 0.27 * side), round(y + gy * 0.27 * side)),
                   round(0.085 * side), pip, -1, cv2.LINE_AA)


def _table() -> np.ndarray:
    return np.full((480, 640, 3), FELT, np.uint8)


def test_two_drawn_dice_are_read_and_a_perspective_warp_does_not_change_them():
    img = _table()
    _die(img, (200, 240), 50, 5)
    _die(img, (420, 200), 50, 2)
    assert read_dice(img).values == (2, 5)
    # A camera tilted along the table: the faces become trapezia; the pips' affine grid
    # rectifies each face.
    src = np.array([[0, 0], [640, 0], [640, 480], [0, 480]], np.float32)
    dst = np.array([[60, 0], [580, 0], [640, 480], [0, 480]], np.float32)
    warped = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (640, 480),
                                 borderValue=FELT)
    assert read_dice(warped).values == (2, 5)


def test_a_die_with_a_side_face_showing_pips_is_cocked():
    img = _table()
    _die(img, (200, 240), 50, 4)
    # A die leaning ~30 degrees: its top face foreshortened, a side face (the body in shade)
    # with two squashed pips below it.
    cv2.rectangle(img, (395, 178), (445, 221), (30, 30, 200), -1)
    for gx, gy in LAYOUT[3]:
        cv2.circle(img, (round(420 + gx * 13.5), round(200 + gy * 11.5)), 4, (240, 240, 240),
                   -1, cv2.LINE_AA)
    cv2.rectangle(img, (395, 222), (445, 246), (18, 18, 120), -1)
    for dx in (-13, 13):
        cv2.ellipse(img, (420 + dx, 234), (4, 2), 0, 0, 360, (180, 180, 180), -1, cv2.LINE_AA)
    reading = read_dice(img)
    assert reading.values is None and reading.reason == "cocked", reading


def test_a_chip_and_a_dot_on_the_felt_are_not_dice():
    img = _table()
    _die(img, (200, 240), 50, 3)
    # A chip twice a die wide: four of its eight inserts make a square grid (a "4").
    cv2.circle(img, (450, 240), 80, (160, 60, 40), -1, cv2.LINE_AA)
    for k in range(8):
        a = np.radians(k * 45 + 10)
        cv2.circle(img, (round(450 + 62 * np.cos(a)), round(240 + 62 * np.sin(a))), 11,
                   (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(img, (330, 400), 4, (235, 235, 235), -1, cv2.LINE_AA)  # a dot: not a 1
    reading = read_dice(img)
    assert reading.values is None and reading.reason == "single_die", reading


def test_a_lone_pip_at_the_corner_of_a_die_is_not_a_one():
    img = _table()
    _die(img, (200, 240), 50, 6)
    _die(img, (420, 240), 50, 2)
    # Hide one pip of the 2: the other, alone, must not be read as a 1.
    cv2.circle(img, (round(420 + 0.27 * 50), round(240 + 0.27 * 50)), 6, (30, 30, 200), -1)
    reading = read_dice(img)
    assert reading.values is None or reading.values == (2, 6), reading
    sure = [s for s in look(img) if s.value == 1 and s.belief >= FACE_P]
    assert not sure


def test_rendered_frames_are_read_or_refused_never_guessed():
    read = 0
    for i in range(6):
        image, label = FD.render(np.random.default_rng([61, i]), TILTED)
        reading = read_dice(image)
        if reading.values is not None:
            assert list(reading.values) == label["values"], (i, reading)
            read += 1
    assert read >= 3
    for i in range(5):
        image, label = FD.render(np.random.default_rng([62, i]), LEANING)
        assert label["reason"] == "cocked"
        assert read_dice(image).values is None, i


def test_a_hole_in_printed_ink_is_not_a_one():
    img = _table()
    _die(img, (200, 240), 50, 4)
    # White ink with a hole through to the felt, a die's size: its "pip" is the felt's colour.
    _die(img, (420, 240), 50, 1, body=(235, 235, 235), pip=FELT)
    reading = read_dice(img)
    assert reading.values is None and reading.reason == "single_die", reading
    img = _table()
    _die(img, (200, 240), 50, 4)
    _die(img, (420, 240), 50, 1, body=(235, 235, 235), pip=(25, 25, 25))  # a black pip
    assert read_dice(img).values == (1, 4)

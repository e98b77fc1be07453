"""A 1's pip that is a hole through printed ink to the felt (learned._hole): a letter's
counter in white ink on the cloth reads as a 1's pip on a white body (the first version's
tuning frame enlarged to 1280x720); a die's own pip is not the colour of what lies round
the die."""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.dice import learned
from services.vision.dice.candidates import Candidate

FELT = (40, 110, 40)
SIDE = 50.0


def table() -> np.ndarray:
    return np.full((200, 200, 3), FELT, np.uint8)


def test_a_hole_in_white_ink_the_felt_s_colour_is_no_pip():
    img = table()
    cv2.rectangle(img, (70, 70), (130, 130), (235, 235, 235), -1)   # white ink
    cv2.circle(img, (100, 100), 5, FELT, -1)                          # its counter: felt
    assert learned._hole(img, Candidate(100.0, 100.0, SIDE, 1, 1, True))


def test_a_die_s_black_pip_on_felt_is_a_pip():
    img = table()
    cv2.rectangle(img, (75, 75), (125, 125), (235, 235, 235), -1)   # a white die
    cv2.circle(img, (100, 100), 5, (20, 20, 20), -1)                  # its black 1
    assert not learned._hole(img, Candidate(100.0, 100.0, SIDE, 1, 1, True))


def test_a_white_pip_on_a_dark_die_on_dark_felt_is_a_pip():
    img = np.full((200, 200, 3), (60, 30, 20), np.uint8)              # navy cloth
    cv2.rectangle(img, (75, 75), (125, 125), (30, 30, 30), -1)       # a black die
    cv2.circle(img, (100, 100), 5, (235, 235, 235), -1)               # its white 1
    assert not learned._hole(img, Candidate(100.0, 100.0, SIDE, 1, 1, False))

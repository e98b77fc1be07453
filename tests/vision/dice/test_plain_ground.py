"""A lone pip on plain ground (views._plain) is nothing without asking the classifier; a
die's 1 is asked."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from services.vision.dice import views
from services.vision.dice.candidates import Candidate
from services.vision.dice.classifier import CLASSES, NOTHING
from services.vision.dice.faces import PIP_RADIUS

FELT = (115, 70, 20)
SIDE = 42.0


def lone(dark: bool) -> Candidate:
    return Candidate(100.0, 100.0, SIDE, 1, 1, dark)


@pytest.fixture
def asked(monkeypatch):
    seen: list[int] = []

    def classify(crops: np.ndarray) -> np.ndarray:
        seen.append(len(crops))
        probs = np.zeros((len(crops), CLASSES), np.float32)
        probs[:, 1] = 1.0  # "a 1", whatever it is shown
        return probs

    monkeypatch.setattr(views, "classify", classify)
    return seen


def test_a_dot_on_the_cloth_is_nothing_and_the_classifier_is_not_asked(asked):
    image = np.full((200, 200, 3), FELT, np.uint8)
    cv2.circle(image, (100, 100), int(PIP_RADIUS * SIDE), (235, 235, 235), -1, cv2.LINE_AA)
    [seen] = views._look(image, [lone(False)])
    assert (seen.value, seen.belief, seen.lean) == (NOTHING, 1.0, 0.0)
    assert asked == []


def test_a_dies_1_is_asked(asked):
    image = np.full((200, 200, 3), FELT, np.uint8)
    cv2.rectangle(image, (79, 79), (121, 121), (232, 232, 228), -1)
    cv2.circle(image, (100, 100), int(PIP_RADIUS * SIDE), (30, 30, 30), -1, cv2.LINE_AA)
    [seen] = views._look(image, [lone(True)])
    assert seen.value == 1 and asked == [1]


def test_a_die_just_off_the_cloths_colour_is_still_asked(asked):
    # a body 25 (BGR distance) from the cloth: above PLAIN, so not plain ground
    image = np.full((200, 200, 3), FELT, np.uint8)
    body = tuple(int(v) for v in np.array(FELT) + [0, 0, views.PLAIN + 5])
    cv2.rectangle(image, (79, 79), (121, 121), body, -1)
    cv2.circle(image, (100, 100), int(PIP_RADIUS * SIDE), (235, 235, 235), -1, cv2.LINE_AA)
    views._look(image, [lone(False)])
    assert asked == [1]

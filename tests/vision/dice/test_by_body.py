"""The other die of a frame with one sure die, found by the sure die's body colour and pips
of its own contrast (by_body.py, again._another_die): drawn dice, and development frames
of the foreign renderer's tuning region (dice_crops.frame: never an evaluation seed) that
only it reads."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from services.scenes.dice_crops import VALIDATION, frame
from services.vision.dice import again, by_body
from services.vision.dice.candidates import Candidate
from services.vision.dice.pipfinder import find_pips
from services.vision.dice.reader import read_dice

CLOTH, GREEN = (110, 60, 20), (40, 140, 40)
GRID = {4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def die(image: np.ndarray, x: int, value: int, pip: tuple[int, int, int], side: int = 44
        ) -> None:
    h = side // 2
    cv2.rectangle(image, (x - h, 120 - h), (x + h, 120 + h), GREEN, -1)
    for gx, gy in GRID[value]:
        cv2.circle(image, (int(x + gx * 0.29 * side), int(120 + gy * 0.29 * side)),
                   int(0.08 * side), pip, -1, cv2.LINE_AA)


def pair(dim: tuple[int, int, int]) -> np.ndarray:
    """A green 6 with white pips, and a green 4 whose pips are `dim` (light green)."""
    image = np.full((240, 320, 3), CLOTH, np.uint8)
    die(image, 80, 6, (235, 235, 235))
    die(image, 230, 4, dim)
    return image


SURE = Candidate(80.0, 120.0, 44.0, 6, 6, False)


def test_a_dim_die_s_pips_are_found_by_its_own_contrast():
    image = pair((75, 170, 75))
    assert not [p for p in find_pips(image) if p.x > 180]   # under the frame's pip level
    faces = [c for c in by_body.candidates(image, SURE) if c.fit == 4]
    assert len(faces) == 1
    assert abs(faces[0].x - 230) < 2 and abs(faces[0].y - 120) < 2
    assert 40 < faces[0].side < 50


def test_a_die_of_another_colour_is_no_piece_of_the_body():
    image = np.full((240, 320, 3), CLOTH, np.uint8)
    die(image, 80, 6, (235, 235, 235))
    die(image, 230, 4, (75, 170, 75))
    image[98:143, 208:253][(image[98:143, 208:253] == GREEN).all(axis=2)] = (60, 90, 160)
    assert by_body.candidates(image, SURE) == []


def test_a_die_on_cloth_of_its_own_colour_is_no_piece():
    """The die and the cloth round it one piece, far bigger than a die (AREA, WIDE)."""
    image = np.full((240, 320, 3), CLOTH, np.uint8)
    image[:, 150:] = GREEN                                   # half the frame the die's green
    die(image, 80, 6, (235, 235, 235))
    die(image, 230, 4, (75, 170, 75))
    assert by_body.candidates(image, SURE) == []


@pytest.mark.parametrize("index, values", [(159, (4, 6)), (200, (2, 3))])
def test_frames_only_the_body_search_reads(monkeypatch, index, values):
    """The TUNING region's validation seed (`casino vision eval --set dev-tuning`): one die
    read sure, the other's pips not grouped into its face by the frame's pip level."""
    image, label = frame("tuning", VALIDATION["tuning"], index)
    assert tuple(sorted(label["values"])) == values
    assert read_dice(image).values == values
    monkeypatch.setitem(again.AGAIN, "single_die", (again._one_size,))
    assert read_dice(image).reason == "single_die"


def test_the_body_search_looks_past_one_size_s_views(monkeypatch):
    """White 1376001 frame 440 (a 4 and a 5; with stop 35's network the tuning set's frame
    317, frame 101 before it): what one size for both dice looks at again keeps the body
    search from reading it (`single_die`); the body search is a look of its own at what was
    seen first, and reads it."""
    img, label = frame("white", 1_376_001, 440)
    assert tuple(sorted(label["values"])) == read_dice(img).values == (4, 5)
    monkeypatch.setitem(again.AGAIN, "single_die", (again._another_die,))
    assert read_dice(img).values == (4, 5)

    def after_one_size(frame, seen):
        return again._another_die(frame, again._one_size(frame, seen))

    monkeypatch.setitem(again.AGAIN, "single_die", (after_one_size,))
    assert read_dice(img).no_decision

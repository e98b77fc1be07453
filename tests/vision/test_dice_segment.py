"""Segmentation details the reader's figures depend on (services/vision/dice/felt.py,
blobs.py)."""
import cv2
import numpy as np

from services.vision.dice import blobs as B
from services.vision.dice import felt as F


def test_local_felt_treats_beyond_the_frame_as_felt_not_as_the_rail() -> None:
    # Felt with a dark rail along the top edge: beside the rail, the felt must stay the felt's
    # colour (the frame's median), as a window padded with it a full half-kernel gives; a
    # replicated edge would make the rail the "felt" there.
    rng = np.random.default_rng(5)
    img: np.ndarray = np.full((240, 320, 3), (60, 140, 90), np.uint8)
    img[:18] = (20, 30, 40)
    img = cv2.add(img, rng.integers(0, 12, img.shape, dtype=np.uint8))
    die_px = 21.0
    felt = F.local_felt(img, die_px)

    tiny = cv2.resize(img, (160, 120), interpolation=cv2.INTER_AREA)
    k = max(3, int(2.5 * die_px / 2)) | 1
    pad = k // 2
    colour = F._median_colour(tiny)
    full = cv2.copyMakeBorder(tiny, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=colour)
    expected = cv2.resize(cv2.medianBlur(full, k)[pad:-pad, pad:-pad], (320, 240),
                          interpolation=cv2.INTER_LINEAR)
    assert np.array_equal(felt, expected)
    # And the felt beside the rail is the felt's own colour, not the rail's.
    assert abs(int(felt[20, 160, 1]) - 140) < 15


def test_blobs_too_large_for_dice_skip_the_outline_measures() -> None:
    # A chip-sized disc is "other" from its size alone; its outline qualities are not measured.
    blob = B.Blob((0.0, 0.0), (40.0, 40.0), np.zeros((4, 2)), 1256.0, 0.78, 0.0)
    assert not B.dice_sized(40 / 19.05, 40 / 19.05, 1256 / 19.05 ** 2, 0.78)
    assert blob.kind(19.05) == "other" and blob.solid is None
    # A die-sized square with measured qualities is a die.
    die = B.Blob((0.0, 0.0), (19.0, 19.3), np.zeros((4, 2)), 360.0, 0.98, 0.0,
                 solid=1.0, sharp=0.5, round=0.6, convex=0.99)
    assert die.kind(19.05) == "die"

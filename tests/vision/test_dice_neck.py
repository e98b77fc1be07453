"""neck.soft_neck on drawn felt-difference maps: a die joined to a chip by a glare halo has a
soft neck; a leaning die's side face along the die is a step, not a neck."""
import cv2
import numpy as np

from services.vision.dice.neck import soft_neck

DIE = 20  # die side, half-resolution pixels


def _neck(diff: np.ndarray, die: np.ndarray) -> bool:
    grad = cv2.magnitude(cv2.Sobel(diff, cv2.CV_32F, 1, 0, ksize=3),
                         cv2.Sobel(diff, cv2.CV_32F, 0, 1, ksize=3)) / 8
    parent = (diff > 24).astype(np.uint8) * 255
    keep = (die > 0).astype(np.uint8) * 255
    piece = cv2.bitwise_and(parent, cv2.bitwise_not(cv2.dilate(keep, np.ones((5, 5), np.uint8))))
    return soft_neck(grad, diff, DIE, parent, keep, piece, (0, 0), 0.2)


def _die() -> tuple[np.ndarray, np.ndarray]:
    diff = np.zeros((100, 140), np.float32)
    diff[40:60, 30:50] = 100.0
    return diff, (diff > 0).astype(np.uint8)


def test_a_glare_halo_joining_a_die_to_a_chip_is_a_soft_neck():
    diff, die = _die()
    yy, xx = np.mgrid[0:100, 0:140].astype(np.float32)
    halo = 60 * np.exp(-((xx - 62) ** 2 + (yy - 50) ** 2) / (2 * 10.0 ** 2))
    chip = ((xx - 95) ** 2 + (yy - 50) ** 2 <= 20 ** 2) * 90.0  # sharp-edged, 2 dice across
    diff = np.maximum(diff, np.maximum(halo, chip)).astype(np.float32)
    assert _neck(diff, die)


def test_a_side_face_or_a_sharp_bridge_is_not_a_soft_neck():
    diff, die = _die()
    side = diff.copy()
    side[40:60, 50:57] = 70.0  # a darker strip 0.35 dice wide along the die's whole edge
    assert not _neck(side, die)
    yy, xx = np.mgrid[0:100, 0:140].astype(np.float32)
    chip = ((xx - 95) ** 2 + (yy - 50) ** 2 <= 20 ** 2) * 90.0
    bridge = np.maximum(diff, chip).astype(np.float32)
    bridge[44:56, 50:76] = 60.0  # a sharp-edged band from the die to the chip
    assert not _neck(bridge, die)

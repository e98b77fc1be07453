"""Find die-like blobs on the felt (pure OpenCV + numpy, no I/O).

Every measure is taken in table millimetres through the calibration's homography, so a tilted
or zoomed camera segments the same. The work is done at half resolution (a die is still ~20 px).

1. `felt_difference` (felt.py): how far each pixel's colour is from the local felt colour, in
   a way the camera's bad days do not change: a shadow scales the felt's colour (explained
   down to half its brightness), a lamp's glare adds white to it (changes no chroma, and
   brightening counts only a quarter), and the difference is measured relative to the felt's
   own chroma, so a dark frame shows a die as clearly as a bright one.
2. Components of the thresholded difference are classified by size and shape (`Blob.kind`,
   blobs.py).
3. A component that is not a die gets a *second look* (second_look.py): a die joined to a
   glare halo or band, the printed line, the stick or its own shadow is cut free (an opening
   with a disc narrower than a die, a higher threshold, or a grey top-hat over what is wider
   or longer than dice can be), but only when everything cut away is thin, the stick or
   soft-edged: a thick sharp-edged remainder is another die or a chip, and the blob stays
   what it was — unless it touches the die only through a soft neck of glare or shadow
   (neck.py), tried last.
"""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.dice.blobs import Blob, Frame, components, measure
from services.vision.dice.calibration import DiceCalibration
from services.vision.dice.felt import DIFF_THRESHOLD, felt_difference
from services.vision.dice.second_look import second_look


def find_blobs(image: np.ndarray, calibration: DiceCalibration,
               to_mm: np.ndarray) -> list[Blob]:
    """Object blobs near the landing area, measured in table millimetres.

    Non-die blobs smaller than a card get a second look (see the module docstring); what it
    cannot cut free stays as it was, so dice on dice remain a cluster.
    """
    die_px = calibration.die_mm * calibration.px_per_mm() / 2
    small = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2),
                       interpolation=cv2.INTER_AREA)
    diff = felt_difference(small, die_px)
    mask: np.ndarray = (diff > DIFF_THRESHOLD).astype(np.uint8) * 255
    # A 3x3 opening removes thin printed lines (the landing-area outline) and speckle.
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    grad = cv2.magnitude(cv2.Sobel(diff, cv2.CV_32F, 1, 0, ksize=3),
                         cv2.Sobel(diff, cv2.CV_32F, 0, 1, ksize=3)) / 8
    frame = Frame(calibration, to_mm, die_px, diff, grad, mask)
    blobs = []
    for c in components(mask):
        blob = measure(frame, c, (0, 0), mask)
        if blob is None and not _at_edge(frame, c):
            continue  # too small, or far from the landing area
        # A leaning die is never cut: its side face can be thin and darker than its top.
        if blob is not None and blob.kind(calibration.die_mm) in ("die", "cocked"):
            blobs.append(blob)
            continue
        # Blobs cut by the frame edge get a second look too: the stick reaches the edge, and a
        # die may touch the stick.
        parts = second_look(frame, c)
        blobs.extend(parts if parts else [b for b in (blob,) if b is not None])
    return _once(blobs, calibration.die_mm)


def _once(blobs: list[Blob], die_mm: float) -> list[Blob]:
    """Each die once. The printed outline's filled contour holds the dice inside it, so its
    second look can cut out a die already found as a component of its own (tuning seed 7111
    frame 1360: both dice twice, `too_many_dice`). Two flat dice cannot be closer than a die."""
    kept: list[Blob] = []
    for b in blobs:
        if b.kind(die_mm) == "die" and any(
                k.kind(die_mm) == "die" and
                np.hypot(*np.subtract(b.centre_mm, k.centre_mm)) < 0.5 * die_mm for k in kept):
            continue
        kept.append(b)
    return kept


def _at_edge(frame: Frame, c: np.ndarray) -> bool:
    x, y, w, h = cv2.boundingRect(c)
    hs, ws = frame.mask.shape
    return x <= 2 or y <= 2 or x + w >= ws - 2 or y + h >= hs - 2

"""The felt difference: how far each pixel's colour is from the local felt colour (pure OpenCV
+ numpy), in a way the camera's bad days do not change. A shadow scales the felt's colour
(explained down to half its brightness), a lamp's glare adds white to it (no chroma, and a
brightening counts only in part), and the difference is measured relative to the felt's own
chroma, so a dark frame shows a die as clearly as a bright one.
"""
from __future__ import annotations

import cv2
import numpy as np

DIFF_THRESHOLD = 24.0  # felt difference (SCALE units) that counts as "object"
SCALE = 40.0           # felt difference of a colour one felt-chroma away from the felt
BRIGHT_WEIGHT = 0.5    # share of a brightening counted (glare is white added to the felt)
SHADOW_FLOOR = 0.5     # darkest shadow explained: half the local felt's brightness

# BGR -> two chroma axes orthogonal to grey, and the mean brightness.
_OPPONENT = np.array([[1 / np.sqrt(2), -1 / np.sqrt(2), 0],
                      [1 / np.sqrt(6), 1 / np.sqrt(6), -2 / np.sqrt(6)],
                      [1 / 3, 1 / 3, 1 / 3]], np.float32)
_OFFSET = np.array([128, 128, 0], np.float32)  # chroma stored as uint8 for the median
# The same as one 3x4 cv2.transform straight to uint8; -0.5: it rounds, the felt truncated.
_ENCODE = np.hstack([_OPPONENT, _OFFSET[:, None] - 0.5]).astype(np.float32)


def felt_difference(small: np.ndarray, die_px: float) -> np.ndarray:
    """How far each pixel is from the local felt colour (SCALE = one felt chroma away).

    In an opponent colour space (two chroma axes and brightness): the felt's chroma, scaled
    by how much darker the pixel is (a shadow, down to SHADOW_FLOOR), is subtracted from the
    pixel's chroma; a brightening adds BRIGHT_WEIGHT of itself (a die brighter than the felt;
    glare adds white, which has no chroma). Dividing by the felt's chroma makes the measure
    the same in a dark or a bright frame.
    """
    # Planes split once (numpy on interleaved channels is slow); the felt is found on the
    # colour encoded straight to uint8 by cv2.transform: 2.6 ms instead of 4.2 ms per frame.
    blur = cv2.GaussianBlur(small, (3, 3), 0)
    o0, o1, o2 = cv2.split(cv2.transform(blur.astype(np.float32), _OPPONENT))
    felt = local_felt(cv2.transform(blur, _ENCODE), die_px)
    f0, f1, f2 = (p.astype(np.float32) for p in cv2.split(felt))
    f0 -= _OFFSET[0]
    f1 -= _OFFSET[1]
    # cv2.max takes a scalar as its second argument; OpenCV's type stubs list arrays only.
    light = cv2.max(o2 - f2, 0.0)  # type: ignore[call-overload]
    shade = np.clip(o2 / cv2.max(f2, 1.0), SHADOW_FLOOR, 1.0)  # type: ignore[call-overload]
    chroma = cv2.magnitude(o0 - shade * f0, o1 - shade * f1)
    felt_chroma = cv2.max(cv2.magnitude(f0, f1), 12.0)  # type: ignore[call-overload]
    return (chroma + BRIGHT_WEIGHT * light) * (SCALE / felt_chroma)


def local_felt(img: np.ndarray, die_px: float) -> np.ndarray:
    """The felt colour around each pixel: a median over 2.5 dice (a die never dominates)."""
    h, w = img.shape[:2]
    tiny = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    k = max(3, int(2.5 * die_px / 2)) | 1
    # Pad with the frame's overall felt colour: replicating or reflecting the edge would let a
    # band along the edge (the rail) become the "felt" of the felt beside it. One pixel is
    # enough: medianBlur replicates the border, here that pixel, so every window reaching
    # past the edge sees the felt colour, as with a k // 2 pad, and the median is not
    # computed for a discarded pad (1.3 instead of 1.9 ms per frame, the same values).
    felt = _median_colour(tiny)
    tiny = cv2.copyMakeBorder(tiny, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=felt)
    bg = cv2.medianBlur(tiny, k)[1:-1, 1:-1]
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def _median_colour(img: np.ndarray) -> list[float]:
    """Per-channel median of a uint8 image from its histograms (np.median sorts: 5x slower)."""
    half = img.shape[0] * img.shape[1] / 2
    return [float(np.searchsorted(np.cumsum(cv2.calcHist([img], [ch], None, [256], [0, 256])),
                                  half)) for ch in range(img.shape[2])]

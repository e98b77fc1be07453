"""Square patches of the table, cut out of a camera frame (pure OpenCV + numpy)."""
from __future__ import annotations

import cv2
import numpy as np


def square_patch(image: np.ndarray, centre_mm: tuple[float, float], angle: float,
                 side_mm: float, n: int, to_mm: np.ndarray) -> np.ndarray:
    """The table square of `side_mm` centred at `centre_mm` and turned by `angle` degrees,
    warped from the frame to an n x n patch (the square's first corner top-left)."""
    box = cv2.boxPoints((centre_mm, (side_mm, side_mm), angle))
    corners_px = cv2.perspectiveTransform(box.reshape(-1, 1, 2).astype(np.float64),
                                          np.linalg.inv(to_mm)).reshape(4, 2)
    m = cv2.getPerspectiveTransform(np.array(corners_px, np.float32),
                                    np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32))
    return cv2.warpPerspective(image, m, (n, n), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)

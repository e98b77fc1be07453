"""`annotate`: the evidence image for the surveillance room - what the reader saw.

Drawn over the frame: the rotor's edge (green when decided, amber otherwise), a line from the
wheel's centre to the zero pocket, the ball (a circle), the chosen pocket's outline, and a
caption with the decision or the reason for none, and the confidence.
"""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.wheel.reading import WheelReading

GREEN, AMBER, CYAN, MAGENTA = (60, 200, 60), (0, 170, 255), (255, 220, 0), (255, 0, 255)


def annotate(frame: np.ndarray, reading: WheelReading) -> np.ndarray:
    """A copy of `frame` with the reading's geometry and verdict drawn on it."""
    out = frame.copy()
    colour = GREEN if not reading.no_decision else AMBER
    if reading.rotor_ellipse is not None:
        cx, cy, a, b, ang = reading.rotor_ellipse
        cv2.ellipse(out, ((cx, cy), (2 * a, 2 * b), ang), colour, 1, cv2.LINE_AA)
        if reading.zero_xy is not None:
            z = tuple(int(round(v)) for v in reading.zero_xy)
            cv2.line(out, (int(round(cx)), int(round(cy))), z, CYAN, 1, cv2.LINE_AA)
            cv2.circle(out, z, 4, CYAN, -1, cv2.LINE_AA)
            cv2.putText(out, "0", (z[0] + 5, z[1] - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.45, CYAN, 1,
                        cv2.LINE_AA)
    if reading.pocket_outline is not None:
        pts = np.round(np.array(reading.pocket_outline)).astype(np.int32)
        cv2.polylines(out, [pts], True, MAGENTA, 2, cv2.LINE_AA)
    if reading.ball_xy is not None:
        ball = (int(round(reading.ball_xy[0])), int(round(reading.ball_xy[1])))
        cv2.circle(out, ball, 9, MAGENTA if not reading.no_decision else AMBER, 2, cv2.LINE_AA)
    _caption(out, reading, colour)
    return out


def _caption(img: np.ndarray, reading: WheelReading, colour) -> None:
    if reading.no_decision:
        text = f"{reading.variant}: NO DECISION - {reading.reason}"
    else:
        text = f"{reading.variant}: pocket {reading.pocket}  confidence {reading.confidence:.2f}"
    cv2.rectangle(img, (0, 0), (img.shape[1], 24), (0, 0, 0), -1)
    cv2.putText(img, text, (6, 17), cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, 1, cv2.LINE_AA)

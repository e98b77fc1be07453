"""Dice camera calibration: where the landing area is in the image, and how big a die is.

The landing area is the rectangle of felt where a valid roll comes to rest (seed 000 §3.1.5:
the dice «deben quedar en el paño»). Its four corners in image pixels (top-left, top-right,
bottom-right, bottom-left as seen on the table) and its size in millimetres give a homography
from image pixels to table millimetres, so the reader measures dice in millimetres whatever
the camera's tilt and zoom. Saved as JSON by `casino vision calibrate --kind dice`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

DIE_MM = 19.05  # a casino ("perfect") die is 3/4 inch on each side


class CalibrationError(ValueError):
    """A calibration file or argument is wrong; the message names the field and the reason."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field, self.reason = field, reason


@dataclass(frozen=True)
class DiceCalibration:
    landing_area_px: tuple[tuple[float, float], ...]  # 4 corners TL, TR, BR, BL in the image
    landing_area_mm: tuple[float, float]              # (width, height) on the table
    die_mm: float = DIE_MM

    def __post_init__(self) -> None:
        if len(self.landing_area_px) != 4 or any(len(p) != 2 for p in self.landing_area_px):
            raise CalibrationError("landing_area_px", "needs 4 [x, y] corners (TL, TR, BR, BL)")
        if min(self.landing_area_mm) <= 0 or self.die_mm <= 0:
            raise CalibrationError("landing_area_mm", "sizes must be positive")
        quad = np.array(self.landing_area_px, np.float32)
        if cv2.contourArea(quad) < 100 or not cv2.isContourConvex(quad):
            raise CalibrationError("landing_area_px", "corners must form a convex quadrilateral")

    def to_mm(self) -> np.ndarray:
        """3x3 homography: image pixels -> table millimetres (landing area TL at 0,0)."""
        w, h = self.landing_area_mm
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        return cv2.getPerspectiveTransform(np.array(self.landing_area_px, np.float32), dst)

    def px_per_mm(self) -> float:
        """Mean image scale over the landing area (pixels per millimetre)."""
        area_px = cv2.contourArea(np.array(self.landing_area_px, np.float32))
        return float(np.sqrt(area_px / (self.landing_area_mm[0] * self.landing_area_mm[1])))

    def to_json(self) -> dict[str, Any]:
        return {"kind": "dice",
                "landing_area_px": [[round(x, 2), round(y, 2)] for x, y in self.landing_area_px],
                "landing_area_mm": list(self.landing_area_mm), "die_mm": self.die_mm}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DiceCalibration:
        if data.get("kind", "dice") != "dice":
            raise CalibrationError("kind", f"expected 'dice', got {data.get('kind')!r}")
        try:
            quad = tuple((float(x), float(y)) for x, y in data["landing_area_px"])
            w, h = (float(v) for v in data["landing_area_mm"])
        except KeyError as exc:
            raise CalibrationError(str(exc.args[0]), "missing") from None
        except (TypeError, ValueError):
            raise CalibrationError("landing_area_px", "must be numbers") from None
        return cls(quad, (w, h), float(data.get("die_mm", DIE_MM)))


def load(path: str | Path) -> DiceCalibration:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CalibrationError("calibration", f"cannot read {path}: {exc}") from None
    return DiceCalibration.from_json(data)


def save(cal: DiceCalibration, path: str | Path) -> None:
    Path(path).write_text(json.dumps(cal.to_json(), indent=2) + "\n")


def detect_landing_area(image: np.ndarray) -> np.ndarray:
    """Find the printed landing-area outline (a light line on the felt) in an image.

    Returns the 4 corners TL, TR, BR, BL (float32, 4x2). Raises CalibrationError when no
    convex quadrilateral covering a sensible part of the frame is found.
    """
    return outline_in(line_mask(image))


def line_mask(image: np.ndarray) -> np.ndarray:
    """The thin light lines of an image, BGR or grey (uint8 0/255): a white top-hat keeps
    them and drops broad lighting."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    tophat = cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, np.ones((9, 9), np.uint8))
    _, mask = cv2.threshold(tophat, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))


def sensible_area(area: float, frame_shape: tuple[int, ...]) -> bool:
    """Could an outline of this area (px) be the landing area: more than a tenth of the
    frame, and not all of it?"""
    frame_area = frame_shape[0] * frame_shape[1]
    return 0.1 * frame_area < area < 0.95 * frame_area


def outline_in(mask: np.ndarray) -> np.ndarray:
    """The landing-area outline among the lines of `line_mask` (see detect_landing_area)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    # The outline may be broken where a chip or die lies on it: take the line piece with the
    # widest extent, its convex hull, and simplify that to four corners.
    for c in sorted(contours, key=lambda c: cv2.contourArea(cv2.convexHull(c)),
                    reverse=True)[:3]:
        hull = cv2.convexHull(c)
        if not sensible_area(cv2.contourArea(hull), mask.shape):
            continue
        for eps in (0.01, 0.02, 0.03, 0.05):
            quad = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
            if len(quad) == 4:
                best = quad.reshape(4, 2).astype(np.float32)
                break
        if best is not None:
            break
    if best is None:
        raise CalibrationError("image", "no landing-area outline found; give --corners")
    return order_corners(best)


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Order 4 points as TL, TR, BR, BL (by the sums and differences of coordinates)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    s, d = pts.sum(1), np.diff(pts, axis=1).ravel()
    return np.array([pts[s.argmin()], pts[d.argmin()], pts[s.argmax()], pts[d.argmax()]],
                    np.float32)

"""Per-camera wheel calibration: where the wheel is in this camera's picture.

A fixed CCTV camera sees the wheel in the same place every spin, so the search for the
rotor (locate.py) can be done once, on a good frame, and saved. The calibration holds the
homography from the wheel plane (in rotor radii, centre at the origin) to the frame, found
from the number ring: the rotor's edge is the image of the unit circle, and the red/black
boundaries - equally spaced on the real wheel - fix where each direction lands on it, which
pins down the perspective (a projective map between two conics is fixed by three points;
37 or 38 are used, by least squares). From it follow the wheel centre as seen (not the
ellipse centre: perspective moves it), the rotor's ellipse and the radii in pixels.

The reader given a calibration skips the search and uses the saved ellipse; it still reads
the rotor's orientation and bend in every frame (the rotor turns), and a camera that moved
shows up as a number ring that no longer matches (no decision, "rotor_unreadable").
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from services.vision.wheel.geometry import NOMINAL
from services.vision.wheel.layout import get_layout
from services.vision.wheel.locate import Ellipse, locate_rotor
from services.vision.wheel.rotor import read_rotor

VERSION = 1
MAX_REPROJECTION_PX = 2.0


@dataclass(frozen=True)
class WheelCalibration:
    variant: str
    image_size: tuple[int, int]                  # (width, height) of the calibrated camera
    homography: tuple[tuple[float, ...], ...]    # wheel plane (rotor radii) -> frame pixels
    reprojection_px: float                       # RMS error of the boundaries it was fitted to

    @property
    def plane_to_image(self) -> np.ndarray:
        return np.array(self.homography, dtype=np.float64)

    @property
    def image_to_plane(self) -> np.ndarray:
        return np.linalg.inv(self.plane_to_image)

    @property
    def centre(self) -> tuple[float, float]:
        """The wheel's centre (the turret's axis) as seen in the frame."""
        c = self.plane_to_image @ np.array([0.0, 0.0, 1.0])
        return float(c[0] / c[2]), float(c[1] / c[2])

    def radii_px(self) -> dict[str, float]:
        """Mean radius in pixels of the wheel's circles (nominal proportions)."""
        out = {}
        for name in ("bowl", "track_in", "rotor", "numbers_in", "pockets_in"):
            e = self.ellipse(getattr(NOMINAL, name))
            out[name] = round(e.radius, 2)
        return out

    def ellipse(self, r: float = 1.0) -> Ellipse:
        """The image of the plane circle of radius r (an ellipse)."""
        t = np.linspace(0, 2 * np.pi, 72, endpoint=False)
        pts = np.stack([r * np.cos(t), r * np.sin(t)], 1).reshape(-1, 1, 2)
        img = cv2.perspectiveTransform(pts, self.plane_to_image).reshape(-1, 2)
        return Ellipse.from_cv(cv2.fitEllipse(img.astype(np.float32)))

    def rotor_ellipse(self) -> Ellipse:
        return self.ellipse(1.0)

    def to_json(self) -> dict[str, Any]:
        e = self.rotor_ellipse()
        return {"kind": "wheel", "version": VERSION, "variant": self.variant,
                "image_size": list(self.image_size),
                "centre": [round(v, 3) for v in self.centre],
                "rotor_ellipse": {"cx": round(e.cx, 3), "cy": round(e.cy, 3),
                                  "a": round(e.a, 3), "b": round(e.b, 3),
                                  "angle": round(e.angle, 3)},
                "radii_px": self.radii_px(),
                "homography": [list(row) for row in self.homography],
                "reprojection_px": self.reprojection_px}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WheelCalibration:
        if not isinstance(data, dict) or data.get("kind") != "wheel":
            raise ValueError("kind: not a wheel calibration")
        if data.get("version") != VERSION:
            raise ValueError(f"version: expected {VERSION}, got {data.get('version')!r}")
        variant = get_layout(data.get("variant", "")).variant
        h = np.asarray(data.get("homography"), dtype=float) if "homography" in data else None
        if h is None or h.shape != (3, 3) or not np.all(np.isfinite(h)) \
                or abs(np.linalg.det(h)) < 1e-12:
            raise ValueError("homography: expected an invertible 3x3 matrix")
        size = data.get("image_size")
        if not (isinstance(size, list) and len(size) == 2 and all(int(v) > 0 for v in size)):
            raise ValueError("image_size: expected [width, height]")
        return cls(variant, (int(size[0]), int(size[1])),
                   tuple(tuple(float(v) for v in row) for row in h),
                   float(data.get("reprojection_px", 0.0)))


def calibrate_wheel(frame: np.ndarray, variant: str = "european") -> WheelCalibration:
    """Calibrate from one frame showing the whole number ring (the ball may be anywhere).
    ValueError naming `frame` when no wheel can be measured in it."""
    layout = get_layout(variant)
    found = locate_rotor(frame)
    if found is None:
        raise ValueError("frame: no roulette wheel found")
    ell, agreement = found
    rotor = read_rotor(frame, ell, layout)
    if rotor is None or agreement < 0.8 or rotor.margin < 0.08:
        raise ValueError("frame: the wheel's number ring is not clear enough to calibrate "
                         "(hidden, blurred or moving); use a frame of the wheel at rest")
    k = np.arange(layout.n) + 0.5                    # every boundary, on the rotor's edge
    xs, ys = ell.points(rotor.angle_of(k, np.ones_like(k)), np.ones_like(k))
    image_pts = np.stack([xs, ys], 1).astype(np.float64)
    psi = np.deg2rad(k * layout.pitch)               # where they are on the real wheel
    plane_pts = np.stack([np.cos(psi), np.sin(psi)], 1)
    h, _ = cv2.findHomography(plane_pts, image_pts, 0)
    if h is None:
        raise ValueError("frame: could not fit the wheel's perspective")
    back = cv2.perspectiveTransform(plane_pts.reshape(-1, 1, 2), h).reshape(-1, 2)
    err = float(np.sqrt(((back - image_pts) ** 2).sum(1).mean()))
    if err > MAX_REPROJECTION_PX:
        raise ValueError(f"frame: perspective fit too poor ({err:.2f} px)")
    return WheelCalibration(layout.variant, (frame.shape[1], frame.shape[0]),
                            tuple(tuple(float(v) for v in row) for row in h / h[2, 2]), err)


calibrate = calibrate_wheel  # the name `casino vision calibrate --kind wheel` calls


def save(cal: WheelCalibration, path: str | Path) -> None:
    Path(path).write_text(json.dumps(cal.to_json(), indent=1) + "\n")


def load(path: str | Path) -> WheelCalibration:
    """Read a saved calibration; ValueError naming the bad field, OSError if unreadable."""
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    return WheelCalibration.from_json(data)

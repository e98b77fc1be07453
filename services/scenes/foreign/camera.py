"""A pinhole camera with radial lens distortion over a flat table (units: millimetres).

The camera hangs `height` mm above the plane point `nadir`, looks straight down, then is
tilted by `tilt` degrees about the image's x axis and rolled by `roll` about its optical
axis. Lens distortion: a pixel at distorted normalised radius r_d sees the undistorted
direction r_d * (1 + k1 r_d^2) (k1 > 0: barrel, as CCTV wide lenses show).

The scene is painted top-down on a `Canvas` (the plane in canvas pixels) and each frame
pixel samples the canvas where its ray meets the plane (cv2.remap).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MAX_CANVAS = 2200  # canvas pixels per side, at most


@dataclass(frozen=True)
class Camera:
    width: int
    height_px: int
    f: float                    # focal length, pixels
    height: float               # mm above the plane
    tilt: float = 0.0           # degrees
    roll: float = 0.0           # degrees
    k1: float = 0.0             # radial distortion
    nadir: tuple[float, float] = (0.0, 0.0)

    def _rotation(self) -> np.ndarray:
        """Camera axes (x right, y down, z forward) -> plane axes (x, y on the table, z up)."""
        t, r = np.radians(self.tilt), np.radians(self.roll)
        base = np.diag([1.0, 1.0, -1.0])
        rx = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
        rz = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
        return rz @ rx @ base

    def plane_maps(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per frame pixel: the plane point (X, Y mm) its ray meets, and whether it meets it."""
        u, v = np.meshgrid(np.arange(self.width, dtype=np.float64),
                           np.arange(self.height_px, dtype=np.float64))
        xn, yn = (u - self.width / 2) / self.f, (v - self.height_px / 2) / self.f
        grow = 1 + self.k1 * (xn * xn + yn * yn)
        rays = np.stack([xn * grow, yn * grow, np.ones_like(xn)], -1) @ self._rotation().T
        down = -rays[..., 2]
        ok = down > 0.15
        lam = self.height / np.where(ok, down, 1.0)
        return (self.nadir[0] + lam * rays[..., 0], self.nadir[1] + lam * rays[..., 1], ok)

    def project(self, pts: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Plane points (N x 2, mm, at height z) -> frame pixels (N x 2)."""
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        d = np.column_stack([p[:, 0] - self.nadir[0], p[:, 1] - self.nadir[1],
                             np.full(len(p), z - self.height)])
        c = d @ self._rotation()  # plane -> camera (the rotation is orthonormal)
        xu, yu = c[:, 0] / c[:, 2], c[:, 1] / c[:, 2]
        ru = np.hypot(xu, yu)
        rd = ru.copy()
        for _ in range(8):  # solve rd (1 + k1 rd^2) = ru
            rd -= (rd * (1 + self.k1 * rd * rd) - ru) / (1 + 3 * self.k1 * rd * rd)
        s = np.where(ru > 1e-9, rd / np.maximum(ru, 1e-9), 1.0)
        return np.column_stack([xu * s * self.f + self.width / 2,
                                yu * s * self.f + self.height_px / 2])

    def px_per_mm(self) -> float:
        """Image scale at the image centre, roughly (pixels per plane millimetre)."""
        return self.f * np.cos(np.radians(self.tilt)) / self.height


@dataclass
class Canvas:
    """The table plane painted top-down: canvas pixel = (plane mm - origin) * ppm."""
    img: np.ndarray            # float32 BGR 0..255
    origin: tuple[float, float]
    ppm: float

    def px(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, np.float64) - self.origin) * self.ppm

    def ipx(self, pts: np.ndarray) -> np.ndarray:
        """Canvas pixels as int32 with 4 fractional bits (cv2 shift=4 drawing)."""
        return np.round(self.px(pts) * 16).astype(np.int32)


def canvas_for(cam: Camera, maps: tuple[np.ndarray, np.ndarray, np.ndarray],
               fill: tuple[float, float, float]) -> Canvas:
    """A canvas covering every plane point the frame sees, sampled about 1.4 times finer than
    the frame near the camera (capped at MAX_CANVAS pixels a side)."""
    x, y, ok = maps
    x0, x1, y0, y1 = x[ok].min(), x[ok].max(), y[ok].min(), y[ok].max()
    span = max(x1 - x0, y1 - y0, 1.0)
    ppm = min(1.25 * cam.f / cam.height, MAX_CANVAS / span)
    w, h = int((x1 - x0) * ppm) + 4, int((y1 - y0) * ppm) + 4
    img = np.empty((h, w, 3), np.float32)
    img[:] = fill
    return Canvas(img, (x0 - 1 / ppm, y0 - 1 / ppm), ppm)


def shoot(canvas: Canvas, maps: tuple[np.ndarray, np.ndarray, np.ndarray],
          beyond: tuple[float, float, float] = (20, 20, 20)) -> np.ndarray:
    """The frame: every pixel samples the canvas where its ray meets the plane."""
    x, y, ok = maps
    mx = ((x - canvas.origin[0]) * canvas.ppm).astype(np.float32)
    my = ((y - canvas.origin[1]) * canvas.ppm).astype(np.float32)
    out = cv2.remap(canvas.img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=beyond)
    out[~ok] = beyond
    return out


def f32(value: object) -> np.ndarray:
    """A colour or vector as a float32 array (np.float32(...) types as a scalar)."""
    return np.asarray(value, np.float32)

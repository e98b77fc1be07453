"""The fixed part of a shot: the CCTV camera over the wheel, the table around it, the lamp.

A shot stays the same over a video sequence; only the rotor and the ball move. The camera is
a pinhole at distance `D` (in rotor radii) above the wheel, tilted a few degrees off the
vertical, so the wheel projects as a slightly perspective ellipse; the shared geometric
nuisances (camera mount rotation, perspective) are applied on top of it by `nuisances`.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from services.scenes import nuisances as nz
from services.scenes.wheel.draw import canvas_size
from services.scenes.wheel.style import WheelStyle

FRAME_W, FRAME_H = 640, 480
PX2 = 300          # rotor radius in the 2x drawing canvas
PX1 = PX2 // 2     # ... and in the 1x canonical image the camera looks at
FELTS = ((40, 105, 30), (35, 85, 25), (110, 70, 25), (60, 60, 55), (30, 60, 90))
CHIPS = ((40, 40, 190), (160, 60, 30), (40, 140, 40), (30, 30, 30), (230, 230, 230),
         (140, 40, 120), (40, 200, 220))


@dataclass(frozen=True)
class Shot:
    variant: str
    style: WheelStyle | None     # None: no wheel in the picture
    h_cam: np.ndarray            # 1x canonical pixels -> image (before the nuisances)
    h_nuisance: np.ndarray       # image -> image (shared geometric nuisances)
    background: np.ndarray       # the table, BGR
    lamp: np.ndarray             # HxWx1 gain of the light over the table
    light_angle: float           # radians: where the lamp is, for ball shading and shadows
    nuisances: tuple[str, ...]
    rotor_px: float              # approximate rotor radius in the image, pixels

    @property
    def size1(self) -> int:
        return (canvas_size(self.style, PX2) + 1) // 2 if self.style else 0

    def to_image(self, pts_1x: np.ndarray) -> np.ndarray:
        """1x canonical points (N x 2) -> final image points (after the nuisance warp)."""
        return nz.warp_points(np.asarray(pts_1x, np.float64), self.h_nuisance @ self.h_cam)


TILT_MAX = 14.0    # degrees; the labelled sets' cameras (wider ranges are asked for by name)
DIST_MIN = 5.0     # rotor radii from the wheel (to 9): nearer cameras see more perspective
ROTOR_PX = (118.0, 142.0)  # rotor radius in the image, pixels (a wider range asked by name)


def camera_homography(rng: np.random.Generator, size1: int, tilt_max: float = TILT_MAX,
                      dist_min: float = DIST_MIN, rotor_px_range: tuple[float, float] = ROTOR_PX
                      ) -> tuple[np.ndarray, float]:
    """Canonical 1x -> image for a camera `dist_min`-9 rotor radii away, tilted up to
    `tilt_max` degrees, the rotor's radius drawn from `rotor_px_range` (pixels)."""
    rotor_px = rng.uniform(*rotor_px_range)
    cx = FRAME_W / 2 + rng.uniform(-25, 25)
    cy = FRAME_H / 2 + rng.uniform(-18, 18)
    c1 = size1 / 2.0  # the 2x canvas centre S/2 lands on S/4 after pyrDown
    yaw = rng.uniform(0, 2 * np.pi)
    to_world = np.array([[np.cos(yaw) / PX1, -np.sin(yaw) / PX1, 0.0],
                         [np.sin(yaw) / PX1, np.cos(yaw) / PX1, 0.0], [0, 0, 1.0]])
    to_world = to_world @ np.array([[1, 0, -c1], [0, 1, -c1], [0, 0, 1.0]])
    tilt, axis = np.deg2rad(rng.uniform(0, tilt_max)), rng.uniform(0, 2 * np.pi)
    rot, _ = cv2.Rodrigues(np.array([np.cos(axis), np.sin(axis), 0.0]) * tilt)
    dist = rng.uniform(dist_min, 9.0)
    f = rotor_px * dist
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    ext = np.column_stack([rot[:, 0], rot[:, 1], [0, 0, dist]])
    return k @ ext @ to_world, rotor_px


def table(rng: np.random.Generator, avoid: tuple[float, float, float] | None) -> np.ndarray:
    """Felt with a little texture and a few chips lying outside the wheel."""
    felt = np.asarray(FELTS[int(rng.integers(len(FELTS)))], np.float32) * rng.uniform(0.85, 1.15)
    small = rng.normal(0, 1, (FRAME_H // 24, FRAME_W // 24)).astype(np.float32)
    tex = 1 + 0.06 * cv2.resize(small, (FRAME_W, FRAME_H), interpolation=cv2.INTER_CUBIC)
    img = np.clip(felt[None, None, :] * tex[..., None], 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(0, 7))):
        x, y = rng.uniform(0, FRAME_W), rng.uniform(0, FRAME_H)
        if avoid and np.hypot(x - avoid[0], y - avoid[1]) < avoid[2]:
            continue
        _chip(img, (int(x), int(y)), int(rng.integers(12, 17)),
              CHIPS[int(rng.integers(len(CHIPS)))])
    return img


def _chip(img: np.ndarray, c: tuple[int, int], r: int, colour) -> None:
    cv2.circle(img, c, r, colour, -1, cv2.LINE_AA)
    for k in range(6):
        a = k * np.pi / 3
        p = (int(c[0] + 0.8 * r * np.cos(a)), int(c[1] + 0.8 * r * np.sin(a)))
        cv2.circle(img, p, max(2, r // 5), (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(img, c, int(r * 0.55), tuple(int(v * 0.8) for v in colour), 1, cv2.LINE_AA)


def lamp(rng: np.random.Generator, centre: tuple[float, float]) -> np.ndarray:
    """A lamp over the wheel: brighter in the middle, falling off toward the frame edges."""
    yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    ox, oy = centre[0] + rng.uniform(-60, 60), centre[1] + rng.uniform(-60, 60)
    d2 = ((xx - ox) ** 2 + (yy - oy) ** 2) / float(FRAME_W ** 2)
    return (rng.uniform(1.0, 1.1) - rng.uniform(0.2, 0.5) * d2)[..., None]


def make_shot(rng: np.random.Generator, variant: str, style: WheelStyle | None,
              nuisances: tuple[str, ...], tilt_max: float = TILT_MAX,
              dist_min: float = DIST_MIN, rotor_px_range: tuple[float, float] = ROTOR_PX
              ) -> Shot:
    size1 = (canvas_size(style, PX2) + 1) // 2 if style else 2 * PX1
    h_cam, rotor_px = camera_homography(rng, size1, tilt_max, dist_min, rotor_px_range)
    centre = nz.warp_points(np.array([[size1 / 2.0, size1 / 2.0]]), h_cam)[0]
    avoid = (centre[0], centre[1], 1.5 * rotor_px * 1.6) if style else None
    bg = table(rng, avoid)
    h_n = nz.homography((FRAME_H, FRAME_W), rng, nuisances)
    return Shot(variant, style, h_cam, h_n, bg, lamp(rng, tuple(centre)),
                float(rng.uniform(0, 2 * np.pi)), tuple(nuisances), rotor_px)

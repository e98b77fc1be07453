"""Painting primitives shared by the dice scene's two cameras (scene.py: drawn top-down;
solid.py: dice as cubes seen by a pinhole camera): a canvas at SS x resolution, a die's face
texture, pasting a texture into any quad, a die's shadow and a lamp's reflection."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from services.vision.dice.faces import CORNER_RADIUS, LAYOUT, PIP_OFFSET, PIP_RADIUS

SS = 2                     # supersampling factor
TEX = 96                   # die-face texture size (pixels)


@dataclass
class Canvas:
    img: np.ndarray            # BGR float32 at SS x resolution
    rng: np.random.Generator
    light: np.ndarray          # unit vector: direction shadows fall (image plane)

    def s(self, v: float) -> int:
        return int(round(v * SS))


def face_texture(value: int, colours: tuple, rng: np.random.Generator) -> tuple[np.ndarray,
                                                                                   np.ndarray]:
    """A TEX x TEX die face (BGR float) and its alpha (rounded square)."""
    body, pip = colours
    alpha = np.zeros((TEX, TEX), np.float32)
    r = int(CORNER_RADIUS * TEX)
    cv2.rectangle(alpha, (r, 0), (TEX - 1 - r, TEX - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (TEX - 1, TEX - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (TEX - 1 - r, r), (r, TEX - 1 - r), (TEX - 1 - r, TEX - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = np.array(body, np.float32)
    # Translucent bodies look lighter towards one edge; a darker bevel along the border.
    ramp = np.linspace(-1, 1, TEX, dtype=np.float32)
    tex *= (1 + 0.08 * ramp[None, :, None] * rng.uniform(-1, 1))
    edge = cv2.erode(alpha, np.ones((5, 5), np.uint8))
    tex *= (0.8 + 0.2 * edge)[..., None]
    c, step, rad = (TEX - 1) / 2, PIP_OFFSET * TEX, PIP_RADIUS * TEX
    for gx, gy in LAYOUT[value]:
        centre = (int(round((c + gx * step) * 16)), int(round((c + gy * step) * 16)))
        cv2.circle(tex, centre, int(rad * 16), pip, -1, cv2.LINE_AA, shift=4)
    return tex, alpha


def paste_quad(sc: Canvas, tex: np.ndarray, alpha: np.ndarray, quad: np.ndarray,
                gain: float = 1.0) -> None:
    """Warp a square texture into the quad (output px, TL TR BR BL) and alpha-blend it."""
    q = quad * SS
    x0, y0 = np.floor(q.min(0)).astype(int) - 1
    x1, y1 = np.ceil(q.max(0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, sc.img.shape[1]), min(y1, sc.img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    src = np.array([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.array(q - [x0, y0], np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(tex * gain, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
    roi = sc.img[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + warped * a


def square(c: np.ndarray, angle_deg: float, side: float) -> np.ndarray:
    u = unit(np.radians(angle_deg)) * side / 2
    v = np.array([-u[1], u[0]])
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v])


def shadow(sc: Canvas, quad: np.ndarray, length: float, die_px: float,
           depth: float = 0.45) -> None:
    """A soft shadow of the die (`die_px` across) cast on whatever is below it, away from the
    light."""
    mask: np.ndarray = np.zeros(sc.img.shape[:2], np.float32)
    pts = ((quad + sc.light * length) * SS * 16).astype(np.int32)
    cv2.fillPoly(mask, [pts], 1.0, cv2.LINE_AA, shift=4)
    k = sc.s(0.25 * die_px) | 1
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    sc.img *= (1 - depth * mask)[..., None]


def specular(sc: Canvas, quad: np.ndarray, die_px: float) -> None:
    """A lamp's reflection on the glossy die top (`die_px` across): a soft bright streak, not
    a round pip."""
    rng = sc.rng
    mask: np.ndarray = np.zeros(sc.img.shape[:2], np.float32)
    w = rng.uniform(0.15, 0.7)
    centre = quad.mean(0) + (quad[1] - quad[0]) * rng.uniform(-0.3, 0.3) \
        + (quad[3] - quad[0]) * rng.uniform(-0.3, 0.3)
    axes = (sc.s(die_px * w / 2), sc.s(die_px * rng.uniform(0.04, 0.08)))
    cv2.ellipse(mask, (sc.s(centre[0]), sc.s(centre[1])), axes, rng.uniform(0, 180), 0, 360,
                1.0, -1, cv2.LINE_AA)
    k = sc.s(0.06 * die_px) | 1
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    sc.img += (rng.uniform(40, 90) * mask)[..., None]


def unit(angle: float) -> np.ndarray:
    return np.array([np.cos(angle), np.sin(angle)])

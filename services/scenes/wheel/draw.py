"""Drawing the wheel from above in canonical coordinates: centre at the middle of a square
canvas, rotor radius `px` pixels, pocket 0 at angle 0 (see layout.py for the convention).

The stationary part (bowl, tracks, deflectors) and the rotor are separate layers because the
rotor turns (and blurs when it spins fast) while the bowl does not. Layers are cached per
(style, variant, size): a video sequence draws its wheel once.
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from services.scenes.wheel.style import WheelStyle
from services.vision.wheel.layout import BLACK_C, GREEN_C, RED_C, WheelLayout, get_layout

AA = cv2.LINE_AA


def canvas_size(style: WheelStyle, px: int) -> int:
    return 2 * int(np.ceil(style.bands.bowl * px)) + 8


def _grain(rng: np.random.Generator, size: int, strength: float) -> np.ndarray:
    """Low-frequency multiplicative texture (wood grain, felt), mean 1."""
    small = rng.normal(0, 1, (max(size // 16, 2), max(size // 16, 2))).astype(np.float32)
    big = cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)
    return 1.0 + strength * big / max(float(np.abs(big).max()), 1e-6)


def _ring(img: np.ndarray, c: tuple[int, int], r: float, colour, thick: int = 1) -> None:
    cv2.circle(img, c, int(round(r)), colour, thick, AA)


@lru_cache(maxsize=16)
def static_layer(style: WheelStyle, px: int) -> np.ndarray:
    """Bowl, ball track and lower track with the deflectors (BGR)."""
    b, size = style.bands, canvas_size(style, px)
    c = (size // 2, size // 2)
    img = np.zeros((size, size, 3), np.uint8)
    cv2.circle(img, c, int(b.bowl * px), style.bowl, -1, AA)
    cv2.circle(img, c, int(b.track_out * px), style.track, -1, AA)
    cv2.circle(img, c, int(b.track_in * px), style.lower, -1, AA)
    cv2.circle(img, c, int(b.lower_in * px), tuple(int(v * 0.35) for v in style.lower), -1, AA)
    _ring(img, c, b.track_out * px, tuple(int(v * 0.6) for v in style.bowl), 3)
    _ring(img, c, b.track_in * px, tuple(int(v * 0.8) for v in style.lower), 2)
    grain = _grain(np.random.default_rng(7), size, 0.08)
    img = np.clip(img * grain[..., None], 0, 255).astype(np.uint8)
    for k in range(style.deflectors):
        _deflector(img, c, px, style, 22.5 + k * 360.0 / style.deflectors, radial=k % 2 == 0)
    return img


def _deflector(img, c, px, style: WheelStyle, angle_deg: float, radial: bool) -> None:
    """A metal diamond (rombo) on the lower track, alternately along and across the track."""
    a = np.deg2rad(angle_deg)
    r_hat, t_hat = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    along, across = (r_hat, t_hat) if radial else (t_hat, r_hat)
    centre = np.array(c) + style.bands.deflector_r * px * r_hat
    half_len, half_w = 0.065 * px, 0.024 * px
    pts = np.array([centre + half_len * along, centre + half_w * across,
                    centre - half_len * along, centre - half_w * across])
    cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32), style.deflector, AA, 4)
    dark = tuple(int(v * 0.55) for v in style.deflector)
    cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], True, dark, 1, AA, 4)
    ridge = np.round(np.array([centre + half_len * along, centre - half_len * along]) * 16)
    cv2.line(img, tuple(ridge[0].astype(int)), tuple(ridge[1].astype(int)),
             tuple(min(255, int(v * 1.15)) for v in style.deflector), 1, AA, 4)


@lru_cache(maxsize=16)
def rotor_layer(style: WheelStyle, variant: str, px: int) -> tuple[np.ndarray, np.ndarray]:
    """The rotor at angle 0: (BGR image, alpha float32 in [0, 1])."""
    layout = get_layout(variant)
    b, size = style.bands, canvas_size(style, px)
    c = (size // 2, size // 2)
    img = np.zeros((size, size, 3), np.uint8)
    colour = {RED_C: style.red, BLACK_C: style.black, GREEN_C: style.green}
    half = layout.pitch / 2
    for k, col in enumerate(layout.colours):
        a0, a1 = k * layout.pitch - half, k * layout.pitch + half
        cv2.ellipse(img, c, (int(px), int(px)), 0, a0, a1, colour[col], -1, AA)
    pocket_r = int(b.numbers_in * px)
    for k, col in enumerate(layout.colours):
        a0, a1 = k * layout.pitch - half, k * layout.pitch + half
        fill = colour[col] if style.pockets_coloured or (
            style.green_plain and col == GREEN_C) else style.plain
        recessed = tuple(int(v * 0.85) for v in fill)  # a little darker than the ring
        cv2.ellipse(img, c, (pocket_r, pocket_r), 0, a0, a1, recessed, -1, AA)
    _cone_and_turret(img, c, px, style)
    _frets(img, c, px, style, layout)
    _numbers(img, c, px, style, layout)
    alpha = np.zeros((size, size), np.uint8)
    cv2.circle(alpha, c, int(px), 255, -1, AA)
    return img, alpha.astype(np.float32) / 255.0


def _frets(img, c, px, style: WheelStyle, layout: WheelLayout) -> None:
    b = style.bands
    thick = max(1, int(round(0.012 * px)))
    for k in range(layout.n):
        a = np.deg2rad(k * layout.pitch + layout.pitch / 2)
        d = np.array([np.cos(a), np.sin(a)])
        p0 = np.array(c) + b.pockets_in * px * d
        p1 = np.array(c) + b.numbers_in * px * d
        p2 = np.array(c) + px * d
        cv2.line(img, tuple(np.round(p0 * 16).astype(int)), tuple(np.round(p1 * 16).astype(int)),
                 style.frets, thick, AA, 4)
        cv2.line(img, tuple(np.round(p1 * 16).astype(int)), tuple(np.round(p2 * 16).astype(int)),
                 style.frets, max(1, thick // 2), AA, 4)
    _ring(img, c, b.numbers_in * px, style.frets, thick)
    _ring(img, c, b.pockets_in * px, style.frets, thick)
    _ring(img, c, px - 1, tuple(int(v * 0.8) for v in style.frets), max(1, thick // 2))


def _cone_and_turret(img, c, px, style: WheelStyle) -> None:
    b = style.bands
    cv2.circle(img, c, int(b.pockets_in * px), style.cone, -1, AA)
    inlay = tuple(min(255, int(v * 1.4)) for v in style.cone)
    for k in range(8):  # decorative inlay lines on the cone
        a = np.deg2rad(k * 45 + 11.25)
        d = np.array([np.cos(a), np.sin(a)])
        p0, p1 = np.array(c) + b.turret * 1.3 * px * d, np.array(c) + b.pockets_in * 0.93 * px * d
        cv2.line(img, tuple(p0.astype(int)), tuple(p1.astype(int)), inlay, 1, AA)
    metal, dark = style.turret, tuple(int(v * 0.6) for v in style.turret)
    cv2.circle(img, c, int(b.turret * px), dark, -1, AA)
    cv2.circle(img, c, int(b.turret * 0.8 * px), metal, -1, AA)
    if style.turret_kind == "cross":
        for k in range(4):
            a = np.deg2rad(k * 90 + 45)
            end = np.array(c) + 0.42 * px * np.array([np.cos(a), np.sin(a)])
            cv2.line(img, c, tuple(end.astype(int)), metal, max(2, int(0.045 * px)), AA)
            cv2.circle(img, tuple(end.astype(int)), int(0.045 * px), metal, -1, AA)
    else:
        for f in (0.55, 0.3):
            cv2.circle(img, c, int(b.turret * f * px), dark, 1, AA)
    cv2.circle(img, c, int(0.05 * px), tuple(min(255, v + 30) for v in metal), -1, AA)


def _numbers(img, c, px, style: WheelStyle, layout: WheelLayout) -> None:
    """Each number printed across its segment, reading from the outside of the wheel."""
    b = style.bands
    ring_w = (1.0 - b.numbers_in) * px
    scale = ring_w / 42.0
    r_mid = (1.0 + b.numbers_in) / 2 * px
    for k, pocket in enumerate(layout.pockets):
        (tw, th), base = cv2.getTextSize(pocket, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        patch = np.zeros((th + base + 4, tw + 4), np.uint8)
        cv2.putText(patch, pocket, (2, th + 2), cv2.FONT_HERSHEY_SIMPLEX, scale, 255,
                    max(1, int(round(scale * 1.6))), AA)
        a = np.deg2rad(k * layout.pitch)
        r_hat, t_hat = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        centre = np.array(c) + r_mid * r_hat
        _paste_rotated(img, patch, centre, t_hat, -r_hat, style.digits)


def _paste_rotated(img, patch, centre, x_axis, y_axis, colour) -> None:
    """Blend `patch` (mask) into img with its x/y axes along the given unit vectors."""
    h, w = patch.shape
    half = int(np.ceil(np.hypot(h, w) / 2)) + 2
    x0, y0 = int(centre[0]) - half, int(centre[1]) - half
    roi = img[y0:y0 + 2 * half, x0:x0 + 2 * half]
    pc = np.array([w / 2, h / 2])
    t = centre - np.array([x0, y0]) - pc[0] * x_axis - pc[1] * y_axis
    m = np.array([[x_axis[0], y_axis[0], t[0]], [x_axis[1], y_axis[1], t[1]]], np.float32)
    mask = cv2.warpAffine(patch, m, (roi.shape[1], roi.shape[0]), flags=cv2.INTER_LINEAR)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi[:] = (roi * (1 - a) + np.asarray(colour, np.float32) * a).astype(np.uint8)


def rotated(layer: np.ndarray, angle_deg: float) -> np.ndarray:
    """A layer turned clockwise (as seen on screen) by angle_deg about the canvas centre."""
    size = layer.shape[0]
    m = cv2.getRotationMatrix2D((size // 2, size // 2), -angle_deg, 1.0)
    return cv2.warpAffine(layer, m, (size, size), flags=cv2.INTER_LINEAR)


def draw_ball(img: np.ndarray, centre: np.ndarray, r: float, light: float = -2.3) -> None:
    """An ivory ball with shading and a specular highlight toward the light direction."""
    x0, y0 = int(centre[0] - r - 2), int(centre[1] - r - 2)
    n = int(2 * r + 5)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    dx, dy = xx + x0 - centre[0], yy + y0 - centre[1]
    d = np.sqrt(dx ** 2 + dy ** 2) / r
    alpha = np.clip((1.0 - d) * r + 0.5, 0, 1)
    lx, ly = np.cos(light), np.sin(light)
    z = np.sqrt(np.clip(1 - d ** 2, 0, 1))
    # Several lamps over a casino table light a white ball almost evenly: mild shading from
    # the main lamp's side, darker only at the rim, and a small specular highlight.
    lambert = 0.78 + 0.22 * np.clip((dx / r * lx + dy / r * ly) * 0.3 + z, 0.0, 1.0)
    spec = np.exp(-(((dx / r - 0.35 * lx) ** 2 + (dy / r - 0.35 * ly) ** 2) / 0.03))
    ivory = np.array([225, 238, 245], np.float32)
    ball = ivory[None, None, :] * lambert[..., None] + 60 * spec[..., None]
    roi = img[y0:y0 + n, x0:x0 + n].astype(np.float32)
    a = alpha[..., None]
    img[y0:y0 + n, x0:x0 + n] = np.clip(roi * (1 - a) + ball * a, 0, 255).astype(np.uint8)


def ball_layer(size: int, centre: np.ndarray, r: float) -> tuple[np.ndarray, np.ndarray]:
    """The ball alone on an empty layer (BGR, alpha), for motion blur before compositing."""
    img = np.zeros((size, size, 3), np.uint8)
    draw_ball(img, centre, r)
    alpha = np.zeros((size, size), np.float32)
    cv2.circle(alpha, tuple(np.round(centre * 16).astype(int)), int(round(r * 16)), 1.0, -1, AA, 4)
    return img, alpha


def shadow(img: np.ndarray, centre: np.ndarray, r: float, soft: float, depth: float) -> None:
    """Darken a soft disc under or beside the ball."""
    n = int(2 * (r + 3 * soft) + 4)
    x0, y0 = int(centre[0] - n / 2), int(centre[1] - n / 2)
    m = np.zeros((n, n), np.float32)
    cv2.circle(m, (int(centre[0] - x0), int(centre[1] - y0)), int(r), 1.0, -1, AA)
    k = int(2 * soft) | 1
    m = cv2.GaussianBlur(m, (k, k), 0) * depth
    roi = img[y0:y0 + n, x0:x0 + n]
    roi[:] = (roi * (1 - m[:roi.shape[0], :roi.shape[1], None])).astype(np.uint8)

"""Find the ball in the rectified wheel: a small, round, white, isolated blob.

The wheel is first warped so the rotor edge is a circle of `RC` pixels (`Rectified`). The
"whiteness" (darkest of the three channels: only neutral, bright things score) is opened
with a disc a little narrower than the ball, which wipes out frets, ring lines and the
strokes of the printed numbers but keeps the ball. A difference of Gaussians at the ball's
scale then peaks on ball-sized blobs. Each peak is checked for what a ball looks like:
- `ncc`: correlation with a ball-sized disc (a glare edge or a line junction scores low),
- `isolation`: how much brighter it is than most of a ring around it (a ball in a pocket
  or on the track is surrounded by darker wood or paint),
and its centre is refined by a mean shift on the opened whiteness (sub-pixel, unbiased by
the fret the ball may touch). Deflectors (metal diamonds on the lower track) look like balls
to these tests, so peaks forming a regular ring of equal spacing on the lower track are
recognised and set aside.

Moving balls leave streaks: elongated bright traces, found as long components of the
difference of Gaussians. Glare is a large flat bright blob.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from services.vision.wheel.geometry import NOMINAL
from services.vision.wheel.locate import Ellipse

RC = 128.0                       # rotor radius in the rectified image, pixels
R_OUT = 1.42                     # rectified image covers up to this radius (past the track)
R_IN = 0.62                      # ... and from this radius (inside the pocket ring)
SIZE = 2 * int(R_OUT * RC)
CENTRE = SIZE / 2.0
BALL_R = NOMINAL.ball * RC       # expected ball radius, rectified pixels
_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_yy, _xx = np.mgrid[0:SIZE, 0:SIZE]
_RADIUS = np.hypot(_xx - CENTRE, _yy - CENTRE) / RC
ANNULUS = ((_RADIUS > R_IN) & (_RADIUS < R_OUT - 0.02)).astype(np.float32)
_HS = int(np.ceil(2.4 * BALL_R))
_py, _px = np.mgrid[-_HS:_HS + 1, -_HS:_HS + 1]
_DISC = cv2.GaussianBlur(np.clip(BALL_R + 0.5 - np.hypot(_px, _py), 0, 1).astype(np.float32),
                         (0, 0), 0.8)
_DISC_Z = (_DISC - _DISC.mean()) / _DISC.std()
_RING_ANG = np.linspace(0, 2 * np.pi, 16, endpoint=False)
_RING_X = np.round(2.1 * BALL_R * np.cos(_RING_ANG)).astype(int)
_RING_Y = np.round(2.1 * BALL_R * np.sin(_RING_ANG)).astype(int)
MAX_PEAKS = 16


@dataclass(frozen=True)
class Rectified:
    """The wheel warped so the rotor edge is a circle of RC pixels about (CENTRE, CENTRE)."""
    image: np.ndarray      # BGR
    white: np.ndarray      # min over channels, uint8
    opened: np.ndarray     # white opened by a disc narrower than the ball, float32
    dog: np.ndarray        # difference of Gaussians at the ball's scale, float32
    to_image: np.ndarray   # 3x3: rectified pixel -> frame pixel

    def polar(self, x: float, y: float) -> tuple[float, float]:
        """(radius in rotor radii, angle in degrees clockwise) of a rectified pixel."""
        dx, dy = x - CENTRE, y - CENTRE
        return float(np.hypot(dx, dy) / RC), float(np.rad2deg(np.arctan2(dy, dx)) % 360)

    def frame_point(self, x: float, y: float) -> tuple[float, float]:
        p = self.to_image @ np.array([x, y, 1.0])
        return float(p[0]), float(p[1])


@dataclass(frozen=True)
class Blob:
    x: float              # rectified pixels (sub-pixel)
    y: float
    r: float              # rotor radii
    theta: float          # degrees, rectified plane
    strength: float       # difference of Gaussians at the peak (grey levels)
    ncc: float            # correlation with a ball-sized disc, -1..1
    isolation: float      # (centre - 75th percentile of the ring around) / centre

    @property
    def ball_like(self) -> bool:
        return self.ncc >= NCC_MIN and self.isolation >= ISOLATION_MIN and \
            self.strength >= STRENGTH_MIN

    @property
    def score(self) -> float:
        return self.ncc * self.isolation * self.strength


NCC_MIN, ISOLATION_MIN, STRENGTH_MIN = 0.6, 0.25, 10.0


def rectify(frame: np.ndarray, ell: Ellipse) -> Rectified:
    to_rotor = np.array([[1 / RC, 0, -CENTRE / RC], [0, 1 / RC, -CENTRE / RC], [0, 0, 1.0]])
    m = ell.to_image() @ to_rotor
    img = cv2.warpAffine(frame, m[:2], (SIZE, SIZE), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    white = cv2.min(cv2.min(img[..., 0], img[..., 1]), img[..., 2])
    opened = cv2.morphologyEx(white, cv2.MORPH_OPEN, _OPEN).astype(np.float32)
    s = 0.7 * BALL_R
    dog = (cv2.GaussianBlur(opened, (0, 0), s) - cv2.GaussianBlur(opened, (0, 0), 2 * s)) * ANNULUS
    return Rectified(img, white, opened, dog, m)


_MS_H = int(np.ceil(2.5 * BALL_R))
_MS_Y, _MS_X = np.mgrid[-_MS_H:_MS_H + 1, -_MS_H:_MS_H + 1].astype(np.float32)


def _mean_shift(opened: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """Centre of the bright disc near (x, y): centroid in a ball-sized window, iterated.
    The window is narrower than the ball so a fret it touches does not pull it aside."""
    h = _MS_H
    p = opened[y - h:y + h + 1, x - h:x + h + 1]
    w0 = np.maximum(p - np.percentile(p, 25), 0)
    cx = cy = 0.0
    for _ in range(4):
        w = w0 * np.clip(0.8 * BALL_R + 0.5 - np.hypot(_MS_X - cx, _MS_Y - cy), 0, 1)
        tot = float(w.sum())
        if tot <= 0:
            break
        cx, cy = float((w * _MS_X).sum()) / tot, float((w * _MS_Y).sum()) / tot
    return x + cx, y + cy


def _blob(rect: Rectified, x: int, y: int, strength: float) -> Blob:
    o = rect.opened
    patch = o[y - _HS:y + _HS + 1, x - _HS:x + _HS + 1]
    ncc = float((((patch - patch.mean()) / max(float(patch.std()), 1e-3)) * _DISC_Z).mean())
    centre = float(o[y - 1:y + 2, x - 1:x + 2].mean())
    ring = np.percentile(o[y + _RING_Y, x + _RING_X], 75)
    iso = (centre - float(ring)) / max(centre, 1.0)
    fx, fy = _mean_shift(o, x, y)
    r, theta = rect.polar(fx, fy)
    return Blob(fx, fy, r, theta, float(strength), ncc, iso)


def blobs(rect: Rectified) -> list[Blob]:
    """Ball-sized bright peaks in the annulus, strongest first."""
    d = rect.dog
    peaks = (d >= cv2.dilate(d, np.ones((5, 5), np.uint8))) & (d > STRENGTH_MIN * 0.5)
    ys, xs = np.nonzero(peaks)
    m = max(_HS, _MS_H) + 1
    ok = (xs >= m) & (ys >= m) & (xs < SIZE - m) & (ys < SIZE - m)
    xs, ys = xs[ok], ys[ok]
    order = np.argsort(-d[ys, xs])[:MAX_PEAKS]
    return [_blob(rect, int(xs[i]), int(ys[i]), float(d[ys[i], xs[i]])) for i in order]


def deflector_like(b: Blob, others: list[Blob]) -> bool:
    """Part of a regular ring of look-alikes on the lower track (the deflectors)."""
    if not (NOMINAL.lower_in < b.r < NOMINAL.track_in):
        return False
    mates = 0
    for o in others:
        if o is b or abs(o.r - b.r) > 0.02 or not o.ball_like:
            continue
        gap = abs(((o.theta - b.theta + 180) % 360) - 180)
        for spacing in (45.0, 30.0, 22.5):  # 8, 12 or 16 deflectors
            k = round(gap / spacing)
            if k >= 1 and abs(gap - k * spacing) < 2.0:
                mates += 1
                break
    return mates >= 2

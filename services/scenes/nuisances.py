"""Camera nuisances for synthetic CCTV frames, shared by the dice and wheel scene renderers.

Two kinds, because they are applied at different moments:

- photometric nuisances change pixel values only (labels are unaffected): `apply(image, rng,
  names)` runs them in a fixed canonical order, whatever order `names` lists them in, so a
  (seed, names) pair always yields the same frame;
- geometric nuisances (camera rotation, perspective) move pixels, so the scene renderer must
  move its label points too: `homography(shape, rng, names)` returns the 3x3 matrix and
  `warp(image, H)` applies it (use cv2.perspectiveTransform on label points).

Every nuisance draws its own parameters from the generator it is given and nothing else, so
frames are reproducible from seeds. Strengths are chosen to look like a real overhead table
camera on a bad day, not to destroy the image: a person must still be able to read the result.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

Image = np.ndarray  # HxWx3 uint8 BGR


def _gradient(img: Image, rng: np.random.Generator) -> Image:
    """Uneven lighting: a linear brightness ramp across the frame (lamps over one end)."""
    h, w = img.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    lo, hi = rng.uniform(0.55, 0.8), rng.uniform(1.0, 1.2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = (np.cos(angle) * xx / w + np.sin(angle) * yy / h)
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    gain = lo + (hi - lo) * t
    return _scale(img, gain[..., None])


def _shadow(img: Image, rng: np.random.Generator) -> Image:
    """A soft-edged shadow (a dealer's arm or a lamp housing) darkening part of the frame."""
    h, w = img.shape[:2]
    mask: np.ndarray = np.zeros((h, w), np.float32)
    n = int(rng.integers(3, 6))
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = rng.uniform(0.2, 0.5) * min(h, w)
    ang = np.sort(rng.uniform(0, 2 * np.pi, n))
    rad = r * rng.uniform(0.6, 1.4, n)
    pts = np.stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)], 1).astype(np.int32)
    cv2.fillPoly(mask, [pts], 1.0)
    k = int(min(h, w) * 0.08) | 1
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    depth = rng.uniform(0.3, 0.5)
    return _scale(img, (1.0 - depth * mask)[..., None])


def _glare(img: Image, rng: np.random.Generator) -> Image:
    """Specular highlights: one or two bright soft blobs, as from a lamp on glossy felt."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.03, 0.12) * w, rng.uniform(0.03, 0.12) * h
        peak = rng.uniform(60, 140)
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2)
        out += peak * blob[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _colour_cast(img: Image, rng: np.random.Generator) -> Image:
    """White balance off: independent gains per channel (tungsten, fluorescent, LED)."""
    gains = rng.uniform(0.8, 1.2, 3).astype(np.float32)
    return _scale(img, gains[None, None, :])


def _exposure(img: Image, rng: np.random.Generator) -> Image:
    """Auto-exposure drift: a gamma curve, sometimes darker, sometimes brighter."""
    gamma = float(rng.uniform(0.6, 1.6))
    lut = (255.0 * (np.arange(256) / 255.0) ** gamma).clip(0, 255).astype(np.uint8)
    return cv2.LUT(img, lut)


def _motion_blur(img: Image, rng: np.random.Generator) -> Image:
    """Camera shake or a slow shutter: a short linear blur in a random direction."""
    length = int(rng.integers(3, 8))
    angle = float(rng.uniform(0, 180))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    # float32 in, float32 out (asarray copies nothing); the stubs say "any numeric array"
    kernel = np.asarray(cv2.warpAffine(kernel, rot, (length, length)), np.float32)
    kernel /= max(float(kernel.sum()), 1e-6)
    return cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REPLICATE)


def _noise(img: Image, rng: np.random.Generator) -> Image:
    """Sensor noise: Gaussian, stronger in low light, per pixel and channel."""
    sigma = rng.uniform(3, 10)
    noisy = img.astype(np.float32) + rng.normal(0, sigma, img.shape).astype(np.float32)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _jpeg(img: Image, rng: np.random.Generator) -> Image:
    """Recorder compression: a JPEG round trip at a low-to-middling quality."""
    quality = int(rng.integers(30, 75))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if decoded is None:  # pragma: no cover - OpenCV always encodes a valid uint8 image
        raise RuntimeError("JPEG encoding failed")
    return decoded


def _scale(img: Image, gain: np.ndarray) -> Image:
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


# Canonical order: light falls on the scene, the lens and sensor see it, the recorder encodes it.
_PHOTOMETRIC: dict[str, Callable[[Image, np.random.Generator], Image]] = {
    "gradient": _gradient,
    "shadow": _shadow,
    "glare": _glare,
    "colour_cast": _colour_cast,
    "exposure": _exposure,
    "motion_blur": _motion_blur,
    "noise": _noise,
    "jpeg": _jpeg,
}
PHOTOMETRIC: tuple[str, ...] = tuple(_PHOTOMETRIC)
GEOMETRIC: tuple[str, ...] = ("rotation", "perspective")
NUISANCES: tuple[str, ...] = GEOMETRIC + PHOTOMETRIC


def check(names: Sequence[str]) -> list[str]:
    """Validate nuisance names; return them in canonical order. Raises ValueError on unknowns."""
    unknown = [n for n in names if n not in NUISANCES]
    if unknown:
        raise ValueError(f"nuisances: unknown name(s) {unknown}; known: {list(NUISANCES)}")
    return [n for n in NUISANCES if n in set(names)]


def parse(spec: str) -> list[str]:
    """'all', 'none' or a comma list (the CLI's --nuisances) -> names in canonical order."""
    spec = spec.strip().lower()
    if spec == "all":
        return list(NUISANCES)
    if spec in ("", "none"):
        return []
    return check([s.strip() for s in spec.split(",") if s.strip()])


def pick(rng: np.random.Generator, pool: Sequence[str], rate: float = 0.5) -> list[str]:
    """Draw the nuisances for one frame: each name in `pool` independently with prob. `rate`.

    Frames get random subsets (not all at once) so accuracy can be broken down per nuisance.
    """
    pool = check(pool)
    draws = rng.random(len(pool))
    return [n for n, d in zip(pool, draws) if d < rate]


def apply(image: Image, rng: np.random.Generator, names: Sequence[str]) -> Image:
    """Apply the photometric nuisances among `names`, in canonical order.

    Geometric names are accepted and skipped (see `homography`), so a renderer can pass one
    list to both. The input is not modified.
    """
    out = image
    for name in check(names):
        fn = _PHOTOMETRIC.get(name)
        if fn is not None:
            out = fn(out, rng)
    return out


def homography(shape: tuple[int, ...], rng: np.random.Generator,
               names: Sequence[str]) -> np.ndarray:
    """The camera's geometric distortion for one frame as a 3x3 matrix (identity if none).

    rotation: the camera mount turned by up to +-12 degrees about the frame centre;
    perspective: the camera tilted off the vertical (corners moved by up to 6 % of the size).
    """
    h, w = shape[:2]
    names = check(names)
    mat = np.eye(3)
    if "rotation" in names:
        rot = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-12, 12)), 1.0)
        mat = np.vstack([rot, [0, 0, 1]]) @ mat
    if "perspective" in names:
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        jitter = rng.uniform(-0.06, 0.06, (4, 2)) * np.array([w, h], np.float32)
        dst = (src + jitter).astype(np.float32)
        mat = cv2.getPerspectiveTransform(src, dst) @ mat
    return mat


def warp(image: Image, mat: np.ndarray) -> Image:
    """Apply a homography from `homography`, filling the border by replication (no black)."""
    h, w = image.shape[:2]
    return cv2.warpPerspective(image, mat, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def warp_points(points: np.ndarray, mat: np.ndarray) -> np.ndarray:
    """Move label points (N x 2) the way `warp` moves pixels."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, mat).reshape(-1, 2)

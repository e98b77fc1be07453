"""What the camera and its recorder do to a frame: lamp falloff, white balance, focus, sensor
noise, compression, and the recorder's text overlays (camera name, date and time)."""
from __future__ import annotations

import cv2
import numpy as np

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_DUPLEX)


def lamp(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """A soft lamp pool: brightness falls off away from a point, by up to 35 %."""
    h, w = canvas.shape[:2]
    cx, cy = rng.uniform(0.2, 0.8) * 64, rng.uniform(0.2, 0.8) * 64
    yy, xx = np.ogrid[:64, :64]
    r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / 64 ** 2
    fall = (1.0 - rng.uniform(0.1, 0.35) * np.clip(r2 * 2.5, 0, 1)).astype(np.float32)
    canvas *= cv2.resize(fall, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]


def glare(canvas: np.ndarray, centre: tuple[float, float], radius: float,
          strength: float) -> None:
    """A lamp's reflection on the cloth: white added in a soft disc."""
    h, w = canvas.shape[:2]
    x0, y0 = max(int(centre[0] - 2 * radius), 0), max(int(centre[1] - 2 * radius), 0)
    x1, y1 = min(int(centre[0] + 2 * radius) + 1, w), min(int(centre[1] + 2 * radius) + 1, h)
    if x0 >= x1 or y0 >= y1:
        return
    yy, xx = np.ogrid[y0:y1, x0:x1]
    r2 = ((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / radius ** 2
    canvas[y0:y1, x0:x1] += (strength * np.exp(-r2 * 2.0))[..., None].astype(np.float32)


def overlays(img: np.ndarray, rng: np.random.Generator) -> list[tuple[int, int, int, int]]:
    """The recorder's burnt-in text (a corner or two); returns the boxes it covers."""
    h, w = img.shape[:2]
    boxes = []
    texts = [f"CAM {rng.integers(1, 64):02d}  TBL-{rng.integers(1, 30)}",
             f"2026-{rng.integers(1, 13):02d}-{rng.integers(1, 29):02d} "
             f"{rng.integers(0, 24):02d}:{rng.integers(0, 60):02d}:{rng.integers(0, 60):02d}"]
    scale = h / 480 * rng.uniform(0.45, 0.7)
    font = FONTS[rng.integers(len(FONTS))]
    colour = (255, 255, 255) if rng.random() < 0.7 else (60, 230, 250)
    corners = rng.permutation(4)[:rng.integers(1, 3)]
    for text, corner in zip(texts, corners):
        (tw, th), base = cv2.getTextSize(text, font, scale, 1)
        x = 8 if corner in (0, 3) else w - tw - 8
        y = th + 8 if corner in (0, 1) else h - base - 8
        cv2.putText(img, text, (x + 1, y + 1), font, scale, (0, 0, 0), 2, cv2.LINE_AA)
        cv2.putText(img, text, (x, y), font, scale, colour, 1, cv2.LINE_AA)
        boxes.append((x - 2, y - th - 2, x + tw + 2, y + base + 2))
    return boxes


def sensor(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """White balance, focus, noise and compression of one frame (float in, uint8 out)."""
    gains = rng.uniform(0.88, 1.12, 3).astype(np.float32)
    img = img * gains * rng.uniform(0.8, 1.15)
    sigma = rng.uniform(0.3, 1.1)
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(1.0, 5.0), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(55, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else np.asarray(decoded)

"""Overhead frames of two dice on a craps layout, drawn apart from services/scenes/dice.

Dice are cubes seen in perspective: the top face is where the camera sees a point 19 mm above
the cloth, so a die away from the camera's foot shows its sides. Dice styles (translucent
red, green and blue, opaque black, white with black, red or blue pips), cloth colours with
printed layouts (lines and words), chips (some stacked), cards, the stick, a rail, lamp
falloff and glare, then the camera (camera.py) and its recorder (finish.py).

Every readable frame shows two flat dice apart from each other and from every other object,
away from the text overlays; a no-decision frame shows one die leaning (`cocked`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from services.scenes.foreign import finish
from services.scenes.foreign.camera import Camera, Canvas, canvas_for, f32, shoot

DIE = 19.05  # mm
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    5: ((-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0)),
    6: ((-1, -1), (1, -1), (1, 1), (-1, 1), (-1, 0), (1, 0)),
}
# style -> (body BGR, opacity, pip BGR)
STYLES: dict[str, tuple[tuple[int, int, int], float, tuple[int, int, int]]] = {
    "red_translucent": ((38, 30, 185), 0.72, (245, 245, 245)),
    "green_translucent": ((70, 150, 35), 0.72, (245, 245, 245)),
    "blue_translucent": ((175, 85, 25), 0.75, (245, 245, 245)),
    "black": ((28, 28, 30), 1.0, (240, 240, 240)),
    "white_black_pips": ((236, 236, 232), 1.0, (25, 25, 25)),
    "white_red_pips": ((236, 236, 232), 1.0, (40, 35, 195)),
    "white_blue_pips": ((236, 236, 232), 1.0, (180, 80, 25)),
}
FELTS: dict[str, tuple[int, int, int]] = {
    "green": (42, 112, 34), "dark_green": (30, 78, 30), "blue": (122, 72, 24),
    "navy": (90, 45, 20), "teal": (100, 105, 30),
}
INKS = ((230, 230, 225), (60, 215, 235), (235, 235, 240))
WORDS = ("PASS LINE", "DON'T PASS BAR", "COME", "FIELD", "BIG 6", "BIG 8", "ODDS",
         "2 . 3 . 4 . 9 . 10 . 11 . 12", "SEVEN", "ANY CRAPS", "HARDWAYS", "4  5  SIX  8  NINE  10")
CHIP_COLOURS = ((40, 40, 200), (30, 120, 30), (20, 20, 20), (170, 60, 40), (230, 230, 230),
                (40, 160, 230), (150, 40, 130))


@dataclass(frozen=True)
class DiceParams:
    """The parameter region frames are drawn from (sets.py names the regions)."""
    sizes: tuple[tuple[int, int], ...] = ((640, 480), (1280, 720))
    die_px: tuple[float, float] = (30.0, 90.0)     # die side at the frame centre
    tilt: tuple[float, float] = (0.0, 30.0)        # degrees
    k1: tuple[float, float] = (0.0, 0.25)
    hfov: tuple[float, float] = (8.0, 65.0)        # degrees across, the lens's range
    styles: tuple[str, ...] = tuple(STYLES)
    felts: tuple[str, ...] = tuple(FELTS)
    cocked_rate: float = 0.15
    extra: dict[str, Any] = field(default_factory=dict)


def render(rng: np.random.Generator, p: DiceParams) -> tuple[np.ndarray, dict[str, Any]]:
    """One frame and its label (values, or no_decision with reason 'cocked')."""
    w, h = p.sizes[rng.integers(len(p.sizes))]
    style = str(rng.choice(p.styles))
    felt_name = str(rng.choice([f for f in p.felts if not _clash(style, f)] or p.felts))
    cam, die_px = _camera(rng, p, w, h)
    maps = cam.plane_maps()
    felt = np.array(FELTS[felt_name], np.float32) * rng.uniform(0.85, 1.15)
    cv = canvas_for(cam, maps, tuple(felt))
    _cloth(cv, rng)
    keep: list[tuple[np.ndarray, float]] = []
    _layout(cv, rng, keep)
    _objects(cv, rng, keep, cam)
    cocked = rng.random() < p.cocked_rate
    spots = _dice_spots(rng, cam, maps, keep)
    if spots is None:
        return render(rng, p)  # no room: draw another scene
    values = [int(v) for v in rng.integers(1, 7, 2)]
    pip_off, pip_r = rng.uniform(0.25, 0.29), rng.uniform(0.075, 0.095)
    shade = np.ones(cv.img.shape[:2], np.float32)
    for i, spot in enumerate(spots):
        angle = rng.uniform(0, 90)
        if cocked and i == 0:
            _cocked_die(cv, rng, spot, angle, values[0], style, pip_off, pip_r, shade)
        else:
            _flat_die(cv, rng, cam, spot, angle, values[i], style, pip_off, pip_r, shade)
    cv.img *= _soft(shade, 2.5 * cv.ppm)[..., None]
    finish.lamp(cv.img, rng)
    if rng.random() < 0.35:
        _glare_away(cv, rng, spots)
    b = rng.uniform(10, 40, 3)
    frame = shoot(cv, (maps[0], maps[1], maps[2]), beyond=(float(b[0]), float(b[1]), float(b[2])))
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    finish.overlays(frame, rng)
    image = finish.sensor(frame.astype(np.float32), rng)
    label: dict[str, Any] = {
        "kind": "dice", "renderer": "foreign", "style": style, "felt": felt_name,
        "size": [w, h], "die_px": round(die_px, 1), "tilt": round(cam.tilt, 1),
        "k1": round(cam.k1, 3), "nuisances": _nuisance_tags(w, die_px, cam, style, felt_name),
        "centres_px": [[round(float(c), 1) for c in cam.project(s[None])[0]] for s in spots]}
    # Each die as it lies (the first leans on a `cocked` frame): what a crop reader learns from.
    # A flat die's centre is its top face's, which a tilted camera sees off its footprint.
    label["dice_px"] = [
        {"centre": c if cocked and i == 0 else
         [round(float(q), 1) for q in cam.project(_top_centre(cam, s)[None])[0]],
         "value": v, "pose": "cocked" if cocked and i == 0 else "flat"}
        for i, (c, v, s) in enumerate(zip(label["centres_px"], values, spots))]
    if cocked:
        label.update(no_decision=True, reason="cocked")
    else:
        label.update(no_decision=False, values=sorted(values))
    return image, label


def _nuisance_tags(w: int, die_px: float, cam: Camera, style: str, felt: str) -> list[str]:
    """The frame's conditions as breakdown keys for the evaluation (evaluate.score)."""
    return [f"res_{w}", f"die_{int(die_px // 20 * 20)}px", f"tilt_{int(cam.tilt // 10 * 10)}",
            f"style_{style}", f"felt_{felt}", "lens" if cam.k1 > 0.12 else "lens_mild"]


def _clash(style: str, felt: str) -> bool:
    return (style.startswith("green") and "green" in felt) or \
        (style.startswith("blue") and felt in ("blue", "navy"))


def _camera(rng: np.random.Generator, p: DiceParams, w: int, h: int) -> tuple[Camera, float]:
    """A camera 0.4-3 m over the cloth whose lens (8-65 degrees across) makes a die
    `die_px` wide at the frame's centre (the height is drawn within what the lenses allow)."""
    die_px = float(rng.uniform(*p.die_px))
    tilt = float(rng.uniform(*p.tilt))
    fov = np.radians(np.clip(p.hfov, 8.0, 65.0))
    to_height = DIE * np.cos(np.radians(tilt)) ** 2 / die_px   # height per focal pixel
    f_lo, f_hi = w / 2 / np.tan(fov[1] / 2), w / 2 / np.tan(fov[0] / 2)
    h_lo, h_hi = max(400.0, f_lo * to_height), min(3000.0, f_hi * to_height)
    height = float(np.exp(rng.uniform(np.log(h_lo), np.log(max(h_hi, h_lo)))))
    f = height / to_height
    return Camera(w, h, f, height, tilt, float(rng.uniform(-180, 180)),
                  float(rng.uniform(*p.k1))), die_px


def _cloth(cv: Canvas, rng: np.random.Generator) -> None:
    """Cloth texture: a blotchy low-frequency tone and a fine nap."""
    h, w = cv.img.shape[:2]
    low = cv2.resize(rng.normal(1, 0.05, (6, 8)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    nap = cv2.resize(rng.normal(0, 4, (h // 2 + 1, w // 2 + 1)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_NEAREST)
    np.multiply(cv.img, low[..., None], out=cv.img)
    np.add(cv.img, nap[..., None], out=cv.img)


def _text(cv: Canvas, word: str, at_mm: np.ndarray, height_mm: float, colour: tuple,
          angle: float) -> None:
    """A printed word on the cloth, `height_mm` tall, turned by `angle` degrees."""
    scale = height_mm * cv.ppm / 22.0
    thick = max(1, int(scale * 2))
    (tw, th), base = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
    patch = np.zeros((th + base + 8, tw + 8), np.uint8)
    cv2.putText(patch, word, (4, th + 4), cv2.FONT_HERSHEY_DUPLEX, scale, 255, thick,
                cv2.LINE_AA)
    c = cv.px(at_mm)
    size = int(np.hypot(*patch.shape)) + 2
    m = np.asarray(cv2.getRotationMatrix2D((patch.shape[1] / 2, patch.shape[0] / 2), angle,
                                           1.0), np.float64)
    m[:, 2] += size / 2 - np.array([patch.shape[1] / 2, patch.shape[0] / 2])
    alpha = cv2.warpAffine(patch, m, (size, size)).astype(np.float32)[..., None] / 255
    x0, y0 = int(c[0] - size / 2), int(c[1] - size / 2)
    h, w = cv.img.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + size, w), min(y0 + size, h)
    if xa >= xb or ya >= yb:
        return
    a = alpha[ya - y0:yb - y0, xa - x0:xb - x0]
    roi = cv.img[ya:yb, xa:xb]
    roi[:] = roi * (1 - a) + f32(colour) * a


def _layout(cv: Canvas, rng: np.random.Generator, keep: list) -> None:
    """Printed lines, boxes, arcs and words: the table's layout."""
    ink = INKS[rng.integers(len(INKS))]
    h, w = cv.img.shape[:2]
    lo = np.array(cv.origin)
    hi = lo + np.array([w, h]) / cv.ppm
    width = max(1, int(rng.uniform(3, 7) * cv.ppm))
    for _ in range(rng.integers(2, 6)):
        a, b = rng.uniform(lo, hi), rng.uniform(lo, hi)
        if rng.random() < 0.5:
            b = np.array([b[0], a[1]]) if rng.random() < 0.5 else np.array([a[0], b[1]])
        cv2.line(cv.img, tuple(cv.ipx(a)), tuple(cv.ipx(b)), ink, width, cv2.LINE_AA, 4)
    for _ in range(rng.integers(0, 3)):
        c = rng.uniform(lo, hi)
        r = rng.uniform(150, 500)
        cv2.ellipse(cv.img, tuple(cv.ipx(c)), (int(r * cv.ppm * 16),) * 2, 0,
                    rng.uniform(0, 360), rng.uniform(0, 360) + 60, ink, width, cv2.LINE_AA, 4)
    for _ in range(rng.integers(1, 4)):
        at = rng.uniform(lo, hi)
        _text(cv, str(rng.choice(WORDS)), at, rng.uniform(18, 45), ink,
              float(rng.choice([0, 90, 180, rng.uniform(-30, 30)])))
    if rng.random() < 0.5:  # the padded rail along one side
        side = rng.integers(4)
        band = np.array(cv.img.shape[:2]) * rng.uniform(0.05, 0.12)
        colour = f32(rng.choice([(25, 35, 60), (20, 20, 25), (40, 60, 90)]))
        if side == 0:
            cv.img[:int(band[0])] = colour
        elif side == 1:
            cv.img[-int(band[0]):] = colour
        elif side == 2:
            cv.img[:, :int(band[1])] = colour
        else:
            cv.img[:, -int(band[1]):] = colour


def _objects(cv: Canvas, rng: np.random.Generator, keep: list, cam: Camera) -> None:
    """Chips (some stacked), cards and the stick; each leaves a keep-out circle for the dice."""
    h, w = cv.img.shape[:2]
    lo = np.array(cv.origin)
    hi = lo + np.array([w, h]) / cv.ppm
    for _ in range(rng.integers(0, 7)):
        _chip(cv, rng, rng.uniform(lo, hi), int(rng.integers(1, 5)), keep)
    for _ in range(rng.integers(0, 3)):
        _card(cv, rng, rng.uniform(lo, hi), keep)
    if rng.random() < 0.4:
        _stick(cv, rng, rng.uniform(lo, hi), keep)


def _chip(cv: Canvas, rng: np.random.Generator, c: np.ndarray, stack: int, keep: list) -> None:
    r = 19.5
    colour = CHIP_COLOURS[rng.integers(len(CHIP_COLOURS))]
    for k in range(stack):  # each chip 3.3 mm higher: drawn a little offset
        cc = c + np.array([0.0, -3.3 * k * 0.3])
        cv2.circle(cv.img, tuple(cv.ipx(cc)), int(r * cv.ppm * 16), tuple(v * 0.7 for v in colour),
                   -1, cv2.LINE_AA, 4)
        cv2.circle(cv.img, tuple(cv.ipx(cc)), int((r - 0.6) * cv.ppm * 16), colour, -1,
                   cv2.LINE_AA, 4)
    top = c + np.array([0.0, -3.3 * (stack - 1) * 0.3])
    for j in range(8):  # edge inserts
        a = np.radians(j * 45 + 10)
        p = top + 15.5 * np.array([np.cos(a), np.sin(a)])
        cv2.circle(cv.img, tuple(cv.ipx(p)), int(2.8 * cv.ppm * 16), (235, 235, 235), -1,
                   cv2.LINE_AA, 4)
    cv2.circle(cv.img, tuple(cv.ipx(top)), int(11 * cv.ppm * 16), (225, 225, 220), 1,
               cv2.LINE_AA, 4)
    keep.append((c, r + 2))


def _card(cv: Canvas, rng: np.random.Generator, c: np.ndarray, keep: list) -> None:
    angle = rng.uniform(0, 180)
    box = cv2.boxPoints(((float(c[0]), float(c[1])), (63.0, 88.0), angle))
    cv2.fillPoly(cv.img, [cv.ipx(box)], (238, 240, 240), cv2.LINE_AA, 4)
    red = rng.random() < 0.5
    ink = (40, 40, 190) if red else (25, 25, 25)
    rot = np.array([[np.cos(np.radians(angle)), -np.sin(np.radians(angle))],
                    [np.sin(np.radians(angle)), np.cos(np.radians(angle))]])
    for _ in range(rng.integers(2, 9)):  # suit marks
        p = c + rot @ rng.uniform([-20, -32], [20, 32])
        cv2.circle(cv.img, tuple(cv.ipx(p)), int(4 * cv.ppm * 16), ink, -1, cv2.LINE_AA, 4)
    keep.append((c, 56.0))


def _stick(cv: Canvas, rng: np.random.Generator, c: np.ndarray, keep: list) -> None:
    d = np.array([np.cos(a := rng.uniform(0, np.pi)), np.sin(a)])
    a, b = c - 450 * d, c + 450 * d
    colour = (40, 80, 130) if rng.random() < 0.6 else (30, 30, 35)
    cv2.line(cv.img, tuple(cv.ipx(a)), tuple(cv.ipx(b)), colour, max(1, int(11 * cv.ppm)),
             cv2.LINE_AA, 4)
    cv2.ellipse(cv.img, tuple(cv.ipx(b)), (int(30 * cv.ppm * 16), int(14 * cv.ppm * 16)),
                float(np.degrees(a)) if np.isscalar(a) else 0.0, 0, 360, colour, -1,
                cv2.LINE_AA, 4)
    for t in np.linspace(-450, 450, 19):
        keep.append((c + t * d, 35.0))


def _dice_spots(rng: np.random.Generator, cam: Camera, maps: tuple, keep: list
                ) -> list[np.ndarray] | None:
    """Two resting places: inside the middle of the frame, off every object, apart."""
    x, y, ok = maps
    h, w = ok.shape
    spots: list[np.ndarray] = []
    for _ in range(200):
        u, v = int(rng.uniform(0.14, 0.86) * w), int(rng.uniform(0.15, 0.85) * h)
        if not ok[v, u]:
            continue
        s = np.array([x[v, u], y[v, u]])
        if any(np.hypot(*(s - c)) < r + 1.2 * DIE for c, r in keep):
            continue
        if any(np.hypot(*(s - o)) < 2.3 * DIE for o in spots):
            continue
        spots.append(s)
        if len(spots) == 2:
            return spots
    return None


def _rounded(centre: np.ndarray, side: float, angle: float, scale_y: float = 1.0,
             corner: float = 0.12) -> np.ndarray:
    """Outline of a rounded square (mm), optionally squashed along its own y axis."""
    r, half = corner * side, side / 2
    pts = []
    for cx, cy, a0 in ((half - r, half - r, 0), (-half + r, half - r, 90),
                       (-half + r, -half + r, 180), (half - r, -half + r, 270)):
        for a in np.radians(np.arange(a0, a0 + 91, 15)):
            pts.append((cx + r * np.cos(a), (cy + r * np.sin(a)) * scale_y))
    t = np.radians(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return centre + np.array(pts) @ rot.T


def _body(style: str, under: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    body, opacity, pip = STYLES[style]
    colour = f32(body) * opacity + under * (1 - opacity)
    return colour, f32(pip)


def _pips(cv: Canvas, value: int, centre: np.ndarray, side: float, angle: float, off: float,
          radius: float, colour: np.ndarray, squash: float = 1.0) -> None:
    t = np.radians(angle)
    ax, ay = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    for gx, gy in PIPS[value]:
        p = centre + side * off * (gx * ax + gy * ay * squash)
        axes = (int(radius * side * cv.ppm * 16), int(radius * side * squash * cv.ppm * 16))
        cv2.ellipse(cv.img, tuple(cv.ipx(p)), axes, angle, 0, 360, tuple(map(float, colour)),
                    -1, cv2.LINE_AA, 4)


def _flat_die(cv: Canvas, rng: np.random.Generator, cam: Camera, spot: np.ndarray,
              angle: float, value: int, style: str, off: float, pr: float,
              shade: np.ndarray) -> None:
    lift = cam.height / (cam.height - DIE)
    bottom = _rounded(spot, DIE, angle)
    top_c = _top_centre(cam, spot)
    top = _rounded(top_c, DIE * lift, angle)
    under = cv.img[tuple(np.clip(cv.px(spot).astype(int)[::-1], 0,
                                 np.array(cv.img.shape[:2]) - 1))].copy()
    body, pip = _body(style, under)
    _shadow(cv, shade, bottom + rng.uniform(2, 6, 2), 0.55)
    hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32))
    cv2.fillPoly(cv.img, [cv.ipx(hull.reshape(-1, 2))], tuple(map(float, body * 0.62)),
                 cv2.LINE_AA, 4)
    cv2.fillPoly(cv.img, [cv.ipx(top)], tuple(map(float, body)), cv2.LINE_AA, 4)
    _pips(cv, value, top_c, DIE * lift, angle, off, pr, pip)
    if rng.random() < 0.5:  # a lamp's reflection near an edge of the top face
        t = np.radians(angle + 90 * rng.integers(4))
        p = top_c + 0.43 * DIE * np.array([np.cos(t), np.sin(t)])
        cv2.circle(cv.img, tuple(cv.ipx(p)), int(0.05 * DIE * cv.ppm * 16),
                   (255, 255, 255), -1, cv2.LINE_AA, 4)


def _top_centre(cam: Camera, spot: np.ndarray) -> np.ndarray:
    """Where the top face's centre of a flat die standing on `spot` is seen on the plane."""
    nadir = np.array(cam.nadir)
    lift = cam.height / (cam.height - DIE)  # a point DIE mm up, seen on the plane
    return np.asarray(nadir + (spot - nadir) * lift)


def _cocked_die(cv: Canvas, rng: np.random.Generator, spot: np.ndarray, angle: float,
                value: int, style: str, off: float, pr: float, shade: np.ndarray) -> None:
    """A die leaning 20-40 degrees (on a chip's edge or the rail): from above its top face is
    foreshortened and one side face shows beside it."""
    lean = np.radians(rng.uniform(22, 42))
    t = np.radians(angle)
    ay = np.array([-np.sin(t), np.cos(t)])
    top_len, side_len = DIE * np.cos(lean), DIE * np.sin(lean)
    under = cv.img[tuple(np.clip(cv.px(spot).astype(int)[::-1], 0,
                                 np.array(cv.img.shape[:2]) - 1))].copy()
    body, pip = _body(style, under)
    top_c = spot - ay * side_len / 2
    side_c = spot + ay * top_len / 2
    _shadow(cv, shade, _rounded(spot, DIE * 1.1, angle) + 4, 0.5)
    side = cv2.boxPoints(((float(side_c[0]), float(side_c[1])), (DIE, side_len), angle))
    cv2.fillPoly(cv.img, [cv.ipx(side)], tuple(map(float, body * 0.6)), cv2.LINE_AA, 4)
    side_value = int(rng.choice([v for v in range(1, 7) if v not in (value, 7 - value)]))
    _pips(cv, side_value, side_c, DIE, angle, off, pr, pip * 0.75,
          squash=float(np.sin(lean)))
    cv2.fillPoly(cv.img, [cv.ipx(_rounded(top_c, DIE, angle, float(np.cos(lean))))],
                 tuple(map(float, body)), cv2.LINE_AA, 4)
    _pips(cv, value, top_c, DIE, angle, off, pr, pip, squash=float(np.cos(lean)))
    if rng.random() < 0.6:  # what it leans on: a chip
        _chip(cv, rng, top_c - ay * (DIE * 0.5 + 19), 1, [])


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of a smooth mask, done at a quarter of the size (it is soft anyway)."""
    h, w = mask.shape
    small = cv2.resize(mask, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(sigma / 4, 0.5))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _shadow(cv: Canvas, shade: np.ndarray, outline: np.ndarray, depth: float) -> None:
    cv2.fillPoly(shade, [cv.ipx(outline)], 1 - depth, cv2.LINE_AA, 4)


def _glare_away(cv: Canvas, rng: np.random.Generator, spots: list[np.ndarray]) -> None:
    h, w = cv.img.shape[:2]
    for _ in range(30):
        c = rng.uniform([0, 0], [w, h])
        r = rng.uniform(25, 70) * cv.ppm
        if all(np.hypot(*(c - cv.px(s))) > r * 1.6 + 2 * DIE * cv.ppm for s in spots):
            finish.glare(cv.img, (float(c[0]), float(c[1])), float(r), rng.uniform(40, 110))
            return

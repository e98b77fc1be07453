"""Overhead frames of a roulette wheel, drawn apart from services/scenes/wheel.

The wheel is painted in polar coordinates (rows: angle, columns: radius) and unrolled onto
the table plane with cv2.warpPolar, then seen through the camera of camera.py (height, tilt,
lens distortion), possibly with the bowl partly out of frame (the rotor always in it).
Styles (`STYLES`) differ in wood, track, pocket colouring, fret metal, deflectors, cone and
turret, and in the proportions of the bands. The pocket order comes from the rules engine
(through services.vision.wheel.layout): a fact about wheels, not drawing code.

Readable frames: the ball at rest well inside one pocket. No-decision frames: the ball on the
ball track (`ball_on_track`), on the apron outside the bowl (`ball_on_apron`) or on a fret
between two pockets (`ball_on_fret`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from services.scenes.foreign import finish
from services.scenes.foreign.camera import Camera, Canvas, canvas_for, f32, shoot
from services.vision.wheel.layout import get_layout

ROTOR = 270.0  # mm, radius of the number ring's outer edge
ANGLES = 2880  # polar rows (1/8 degree)
RED, BLACK, GREEN = (35, 30, 175), (28, 24, 24), (40, 120, 20)


@dataclass(frozen=True)
class Style:
    wood: tuple[int, int, int]
    track: tuple[int, int, int]       # the ball track's polish
    pockets: str                      # "coloured" | "plain"
    pocket_plain: tuple[int, int, int]
    fret: tuple[int, int, int]
    deflectors: int
    cone: tuple[int, int, int]
    # bowl, track_in, numbers_in, pockets_in, cone_in (rotor radii)
    bands: tuple[float, float, float, float, float]


STYLES: dict[str, Style] = {
    "walnut": Style((30, 50, 85), (55, 85, 125), "coloured", (0, 0, 0), (190, 200, 205), 8,
                    (35, 60, 100), (1.48, 1.22, 0.85, 0.68, 0.25)),
    "maple": Style((95, 150, 200), (130, 180, 220), "coloured", (0, 0, 0), (150, 190, 215), 8,
                   (90, 140, 190), (1.42, 1.18, 0.82, 0.64, 0.22)),
    "black_lacquer": Style((22, 22, 24), (45, 45, 50), "coloured", (0, 0, 0), (200, 200, 200),
                           16, (30, 30, 32), (1.50, 1.24, 0.86, 0.70, 0.26)),
    "steel_plain": Style((40, 55, 75), (150, 150, 150), "plain", (160, 160, 165), (210, 210, 215),
                         8, (120, 120, 125), (1.45, 1.20, 0.84, 0.66, 0.24)),
    "mahogany": Style((25, 35, 95), (45, 70, 140), "coloured", (0, 0, 0), (80, 170, 210), 12,
                      (25, 45, 110), (1.46, 1.21, 0.83, 0.67, 0.23)),
}
CASES = ("pocket", "ball_on_track", "ball_on_apron", "ball_on_fret")


@dataclass(frozen=True)
class WheelParams:
    sizes: tuple[tuple[int, int], ...] = ((640, 480), (1280, 720))
    rotor_frac: tuple[float, float] = (0.26, 0.44)   # rotor radius / frame height
    tilt: tuple[float, float] = (0.0, 25.0)
    k1: tuple[float, float] = (0.0, 0.2)
    hfov: tuple[float, float] = (45.0, 75.0)
    styles: tuple[str, ...] = tuple(STYLES)
    variants: tuple[str, ...] = ("european", "american")
    partial_rate: float = 0.3                         # bowl partly out of frame
    no_decision_rate: float = 0.15


def render(rng: np.random.Generator, p: WheelParams) -> tuple[np.ndarray, dict[str, Any]]:
    w, h = p.sizes[rng.integers(len(p.sizes))]
    style_name = str(rng.choice(p.styles))
    style = STYLES[style_name]
    variant = str(rng.choice(p.variants))
    layout = get_layout(variant)
    partial = rng.random() < p.partial_rate
    cam = _camera(rng, p, w, h, style, partial)
    if cam is None:
        return render(rng, p)
    maps = cam.plane_maps()
    felt = f32(rng.choice([(40, 105, 35), (110, 65, 25), (30, 75, 30)]))
    cv = canvas_for(cam, maps, tuple(felt * rng.uniform(0.85, 1.1)))
    zero_angle = float(rng.uniform(0, 360))
    _paint_wheel(cv, rng, style, layout, zero_angle)
    case = "pocket" if rng.random() >= p.no_decision_rate else str(rng.choice(CASES[1:]))
    ball, pocket = _ball_place(rng, case, style, layout, zero_angle)
    if not _visible(cam, ball):
        return render(rng, p)
    _ball(cv, rng, ball)
    finish.lamp(cv.img, rng)
    if rng.random() < 0.4:
        _glare_off_ball(cv, rng, ball)
    frame = np.clip(shoot(cv, maps), 0, 255).astype(np.uint8)
    boxes = finish.overlays(frame, rng)
    bx, by = cam.project(ball[None])[0]
    if any(x0 - 8 < bx < x1 + 8 and y0 - 8 < by < y1 + 8 for x0, y0, x1, y1 in boxes):
        return render(rng, p)
    image = finish.sensor(frame.astype(np.float32), rng)
    rotor_px = _rotor_px(cam)
    label: dict[str, Any] = {
        "kind": "wheel", "renderer": "foreign", "variant": variant, "style": style_name,
        "size": [w, h], "tilt": round(cam.tilt, 1), "k1": round(cam.k1, 3),
        "partial": partial, "ball_xy": [round(float(bx), 1), round(float(by), 1)],
        "rotor_px": round(rotor_px, 1),
        "nuisances": [f"res_{w}", f"style_{style_name}", f"variant_{variant}",
                      f"tilt_{int(cam.tilt // 10 * 10)}", "partial_bowl" if partial else
                      "whole_bowl", f"rotor_{int(rotor_px // 50 * 50)}px"]}
    if case == "pocket":
        label.update(no_decision=False, pocket=pocket, reason=None)
    else:
        label.update(no_decision=True, pocket=None, reason=case)
    return image, label


def _rotor_px(cam: Camera) -> float:
    ring = np.array([[ROTOR * np.cos(a), ROTOR * np.sin(a)]
                     for a in np.linspace(0, 2 * np.pi, 24, endpoint=False)])
    pts = cam.project(ring)
    return float(np.mean(np.hypot(*(pts - pts.mean(0)).T)))


def _camera(rng: np.random.Generator, p: WheelParams, w: int, h: int, style: Style,
            partial: bool) -> Camera | None:
    """A camera that keeps the rotor (and, unless `partial`, the whole bowl) in frame."""
    f = w / 2 / np.tan(np.radians(rng.uniform(*p.hfov)) / 2)
    tilt = float(rng.uniform(*p.tilt))
    k1 = float(rng.uniform(*p.k1))
    roll = float(rng.uniform(-180, 180))
    for _ in range(30):
        frac = rng.uniform(*p.rotor_frac) * (1.25 if partial else 1.0)
        height = f * ROTOR * np.cos(np.radians(tilt)) ** 2 / (frac * h)
        # Where the camera's foot is relative to the wheel centre (0, 0)
        look = height * np.tan(np.radians(tilt))
        shift = rng.uniform(-0.35, 0.35, 2) * ROTOR * (2.0 if partial else 1.0)
        r = np.radians(roll)
        # the tilt looks along -y (camera axes), rolled: the ground point seen at the centre
        toward = np.array([-np.sin(r), np.cos(r)])
        nadir = -(toward * look) + shift
        cam = Camera(w, h, f, height, tilt, roll, k1, (float(nadir[0]), float(nadir[1])))
        rotor = _circle(cam, ROTOR * 1.04)
        bowl = _circle(cam, ROTOR * style.bands[0])
        if not _inside(rotor, w, h, 6):
            continue
        if _inside(bowl, w, h, 0) != (not partial):
            continue
        return cam
    return None


def _circle(cam: Camera, r: float) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    return cam.project(np.column_stack([r * np.cos(a), r * np.sin(a)]))


def _inside(pts: np.ndarray, w: int, h: int, margin: float) -> bool:
    return bool((pts[:, 0] >= margin).all() and (pts[:, 0] < w - margin).all() and
                (pts[:, 1] >= margin).all() and (pts[:, 1] < h - margin).all())


def _paint_wheel(cv: Canvas, rng: np.random.Generator, st: Style, layout: Any,
                 zero_angle: float) -> None:
    bowl, track_in, numbers_in, pockets_in, cone_in = st.bands
    rmax = ROTOR * bowl
    ncols = int(rmax * cv.ppm) + 2
    col_r = np.arange(ncols) / cv.ppm  # mm per column
    polar = np.zeros((ANGLES, ncols, 3), np.float32)
    ang = np.arange(ANGLES) * 360.0 / ANGLES

    def band(r0: float, r1: float) -> slice:
        return slice(int(r0 * ROTOR * cv.ppm), int(r1 * ROTOR * cv.ppm))

    wood = f32(st.wood) * rng.uniform(0.85, 1.15)
    polar[:] = wood
    polar[:, band(track_in + 0.02, bowl - 0.07)] = f32(st.track)   # ball track
    polar[:, band(bowl - 0.07, bowl)] = wood * 0.8                         # the rim
    polar[:, band(1.0, track_in)] = f32(st.track) * 0.8             # lower track
    polar[:, band(1.0, 1.025)] = f32(st.fret) * 0.85                # rotor's rim
    pitch = 360.0 / layout.n
    k = (((ang - zero_angle + pitch / 2) % 360) // pitch).astype(int)
    colours = f32([{"red": RED, "black": BLACK, "green": GREEN}[c]
                          for c in layout.colours])
    numbers = band(numbers_in, 1.0)
    polar[:, numbers] = colours[k][:, None, :]
    pockets = band(pockets_in, numbers_in)
    if st.pockets == "coloured":
        polar[:, pockets] = colours[k][:, None, :] * 0.8
    else:
        polar[:, pockets] = f32(st.pocket_plain)
        polar[k == 0, pockets] = GREEN
        if layout.n == 38:
            polar[k == layout.index("00"), pockets] = GREEN
    # frets: metal walls at pocket boundaries, across the pocket and number rings
    edge = np.abs((ang - zero_angle + pitch / 2) % pitch) < 0.5 * 360 / ANGLES * 6
    polar[edge, band(pockets_in, numbers_in)] = f32(st.fret)
    polar[edge, numbers] = f32(st.fret) * 0.9
    polar[:, band(numbers_in - 0.008, numbers_in + 0.008)] = f32(st.fret)
    polar[:, band(pockets_in - 0.012, pockets_in)] = f32(st.fret) * 0.9
    cone = band(cone_in, pockets_in)
    polar[:, cone] = f32(st.cone)
    spokes = ((ang // (360 / 8)) % 2 == 0)
    polar[spokes, cone] *= 1.15
    polar[:, band(0.0, cone_in)] = f32(st.cone) * 0.9
    _numbers(polar, layout, zero_angle, band(numbers_in, 1.0), cv.ppm)
    # lighting around the bowl (a lamp off to one side)
    polar *= (1 + 0.12 * np.cos(np.radians(ang - rng.uniform(0, 360))))[:, None, None]
    size = int(2 * rmax * cv.ppm) + 4
    flat = cv2.warpPolar(polar, (size, size), (size / 2, size / 2), ncols - 1,
                         cv2.WARP_POLAR_LINEAR | cv2.WARP_INVERSE_MAP | cv2.WARP_FILL_OUTLIERS)
    _deflectors_and_turret(flat, st, rng, cv.ppm, zero_angle)
    yy, xx = np.ogrid[:size, :size]
    inside = np.hypot(xx - size / 2, yy - size / 2) < rmax * cv.ppm - 1
    _paste(cv, flat, inside.astype(np.float32))
    del col_r


def _numbers(polar: np.ndarray, layout: Any, zero_angle: float, numbers: slice,
             ppm: float) -> None:
    """The pocket numbers, white, running round the number ring."""
    rows_per = ANGLES / layout.n
    width = numbers.stop - numbers.start
    for i, name in enumerate(layout.pockets):
        centre = (zero_angle + i * 360.0 / layout.n) % 360 * ANGLES / 360
        tile_h = int(rows_per * 0.8)
        if tile_h < 6 or width < 6:
            return
        patch = np.zeros((width, tile_h), np.uint8)  # text upright, radius downwards
        scale = min(width, tile_h) / 30.0
        (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        cv2.putText(patch, name, ((tile_h - tw) // 2, (width + th) // 2),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, 255, max(1, int(scale * 1.5)), cv2.LINE_AA)
        tile = np.rot90(patch, 1)[::-1]  # rows: angle, columns: radius (outer = top of text)
        r0 = int(round(centre - tile_h / 2))
        rows = np.arange(r0, r0 + tile_h) % ANGLES
        a = tile.astype(np.float32)[..., None] / 255 * 0.9
        seg = polar[rows, numbers]
        polar[rows, numbers] = seg * (1 - a) + 235 * a


def _deflectors_and_turret(flat: np.ndarray, st: Style, rng: np.random.Generator, ppm: float,
                           zero_angle: float) -> None:
    c = np.array(flat.shape[:2][::-1]) / 2
    r_def = (1.0 + st.bands[1]) / 2 * ROTOR
    off = rng.uniform(0, 360)
    for j in range(st.deflectors):
        a = np.radians(off + j * 360 / st.deflectors)
        d = np.array([np.cos(a), np.sin(a)])
        t = np.array([-d[1], d[0]])
        p = c + r_def * ppm * d
        along, across = (14 * ppm, 5 * ppm) if j % 2 else (5 * ppm, 12 * ppm)
        quad = np.array([p + along * t, p + across * d, p - along * t, p - across * d])
        cv2.fillPoly(flat, [np.round(quad * 16).astype(np.int32)], (205, 205, 210),
                     cv2.LINE_AA, 4)
    # turret: a cross of 3 or 4 arms with knobs, turning with the rotor
    arms = int(rng.choice([3, 4]))
    r_arm = st.bands[4] * ROTOR * 0.95
    for j in range(arms):
        a = np.radians(zero_angle + 17 + j * 360 / arms)
        end = c + r_arm * ppm * np.array([np.cos(a), np.sin(a)])
        cv2.line(flat, tuple(np.round(c * 16).astype(int)), tuple(np.round(end * 16).astype(int)),
                 (200, 200, 205), max(1, int(8 * ppm)), cv2.LINE_AA, 4)
        cv2.circle(flat, tuple(np.round(end * 16).astype(int)), int(7 * ppm * 16),
                   (215, 215, 220), -1, cv2.LINE_AA, 4)
    cv2.circle(flat, tuple(np.round(c * 16).astype(int)), int(14 * ppm * 16), (190, 190, 195),
               -1, cv2.LINE_AA, 4)


def _paste(cv: Canvas, flat: np.ndarray, mask: np.ndarray) -> None:
    """Put the wheel (centred at plane 0, 0) on the canvas."""
    size = flat.shape[0]
    x0, y0 = (np.round(cv.px(np.zeros(2)) - size / 2)).astype(int)
    h, w = cv.img.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + size, w), min(y0 + size, h)
    if xa >= xb or ya >= yb:
        return
    m = mask[ya - y0:yb - y0, xa - x0:xb - x0, None]
    roi = cv.img[ya:yb, xa:xb]
    roi[:] = roi * (1 - m) + flat[ya - y0:yb - y0, xa - x0:xb - x0] * m


def _ball_place(rng: np.random.Generator, case: str, st: Style, layout: Any,
                zero_angle: float) -> tuple[np.ndarray, str | None]:
    bowl, track_in, numbers_in, pockets_in, _ = st.bands
    pitch = 360.0 / layout.n
    i = int(rng.integers(layout.n))
    if case == "pocket":
        a = zero_angle + (i + rng.uniform(-0.12, 0.12)) * pitch
        r = ROTOR * rng.uniform(pockets_in + 0.045, numbers_in - 0.045)
        pocket: str | None = layout.pockets[i]
    elif case == "ball_on_fret":
        a = zero_angle + (i + 0.5 + rng.uniform(-0.05, 0.05)) * pitch
        r = ROTOR * rng.uniform(pockets_in + 0.045, numbers_in - 0.045)
        pocket = None
    elif case == "ball_on_track":
        a = rng.uniform(0, 360)
        r = ROTOR * rng.uniform(track_in + 0.06, bowl - 0.1)
        pocket = None
    else:  # on the apron: the felt or wood beside the bowl
        a = rng.uniform(0, 360)
        r = ROTOR * (bowl + rng.uniform(0.06, 0.3))
        pocket = None
    t = np.radians(a)
    return np.array([r * np.cos(t), r * np.sin(t)]), pocket


def _visible(cam: Camera, ball: np.ndarray) -> bool:
    x, y = cam.project(ball[None])[0]
    return 12 <= x < cam.width - 12 and 12 <= y < cam.height_px - 12


def _ball(cv: Canvas, rng: np.random.Generator, at: np.ndarray) -> None:
    """An ivory ball, 20 mm across, lit from one side, with its contact shadow."""
    r = rng.uniform(9.0, 10.5)
    light = np.radians(rng.uniform(0, 360))
    ld = np.array([np.cos(light), np.sin(light)])
    p = cv.ipx(at - ld * r * 0.35)
    cv2.circle(cv.img, tuple(p), int(r * 1.15 * cv.ppm * 16), (15, 15, 15), -1, cv2.LINE_AA, 4)
    base = f32(rng.choice([(235, 240, 245), (215, 225, 235), (245, 245, 245)]))
    cv2.circle(cv.img, tuple(cv.ipx(at)), int(r * cv.ppm * 16), tuple(map(float, base * 0.78)),
               -1, cv2.LINE_AA, 4)
    cv2.circle(cv.img, tuple(cv.ipx(at + ld * r * 0.15)), int(r * 0.8 * cv.ppm * 16),
               tuple(map(float, base)), -1, cv2.LINE_AA, 4)
    cv2.circle(cv.img, tuple(cv.ipx(at + ld * r * 0.45)), int(r * 0.22 * cv.ppm * 16),
               (255, 255, 255), -1, cv2.LINE_AA, 4)


def _glare_off_ball(cv: Canvas, rng: np.random.Generator, ball: np.ndarray) -> None:
    for _ in range(20):
        c = rng.uniform(-1.4, 1.4, 2) * ROTOR
        if np.hypot(*(c - ball)) > 140:
            finish.glare(cv.img, tuple(cv.px(c)), 40 * cv.ppm, float(rng.uniform(40, 90)))
            return

"""Render one labelled overhead CCTV frame of two dice on a craps table (synthetic).

The scene is drawn top-down in table millimetres at SS x the output resolution (anti-aliased
by downsampling), then the shared camera nuisances (services/scenes/nuisances.py) are
applied: geometric ones move the labelled landing area with the pixels.

Valid frames: two flat dice inside the landing area, apart, with distractors that must not be
read as dice or pips: chips, a card, the stick, dots on the felt, specular highlights on the
dice. No-decision frames («tirada nula» situations, seed 000 §3.1.5) carry the reason:
cocked (a leaning die), overlap (one die on the other), out_of_area, single_die.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from services.scenes import nuisances as nz
from services.scenes.dice import solid
from services.scenes.dice.paint import (
    SS,
    Canvas,
    face_texture,
    paste_quad,
    shadow,
    specular,
    square,
    unit,
)
from services.vision.dice import calibration as cal

W, H = 640, 480
# This generator's camera before any geometric nuisance: 2.2 px/mm, a 200 x 140 mm landing
# area at (100, 105). The readers know nothing of it (a frame's label carries its calibration).
SYNTH_PX_PER_MM = 2.2
SYNTH_LANDING_MM = (200.0, 140.0)
SYNTH_ORIGIN_PX = (100.0, 105.0)
PX = SYNTH_PX_PER_MM   # output pixels per table millimetre before geometric nuisances
DIE_PX = cal.DIE_MM * PX
RAIL_PX = 30               # the far wall (padded rail) along the top of the frame
NO_DECISION_REASONS = ("cocked", "overlap", "out_of_area", "single_die")

# name -> (body BGR, pip BGR); translucent casino dice are mostly red with white pips.
DICE_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "red": ((45, 40, 190), (235, 235, 235)),
    "white": ((232, 232, 228), (30, 30, 30)),
    "blue": ((170, 80, 25), (235, 235, 235)),
    "green": ((70, 150, 40), (235, 235, 235)),
    "yellow": ((60, 200, 225), (25, 25, 25)),
}
FELTS: dict[str, tuple[int, int, int]] = {
    "green": (45, 115, 30), "blue": (115, 70, 20), "teal": (95, 100, 25),
}
_CLASHES = {("green", "green"), ("green", "teal"), ("blue", "blue"), ("blue", "teal")}
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Widening:
    """What a widened frame may show beyond the held-out sets' one camera and five colours
    (issue 14: other die sizes, styles, cloths and resolutions). The held-out sets render
    with none (`render(..., wide=None)`, pixel for pixel as before); `WIDE` is the training
    generator's. `zoom` scales the frame about the dice (a die 42 px across becomes 30-88 px);
    a frame of `sizes` wider than 640 px is zoomed at least enough to fill it."""
    dice: Mapping[str, tuple[BGR, BGR]] = field(default_factory=lambda: dict(DICE_COLOURS))
    felts: Mapping[str, BGR] = field(default_factory=lambda: dict(FELTS))
    clashes: frozenset[tuple[str, str]] = frozenset(_CLASHES)
    zoom: tuple[float, float] = (1.0, 1.0)
    sizes: tuple[tuple[int, int], ...] = ((W, H),)
    # `solid`: the dice as cubes seen by a pinhole camera (solid.py) `height_mm` above the
    # felt, tilted `tilt` degrees from the vertical, a die `die_px` across (zoom unused)
    solid: bool = False
    tilt: tuple[float, float] = (0.0, 0.0)
    height_mm: tuple[float, float] = (350.0, 2500.0)
    die_px: tuple[float, float] = (28.0, 86.0)


WIDE = Widening(
    dice={**DICE_COLOURS,
          "white_red_pips": ((230, 232, 235), (45, 45, 185)),
          "white_blue_pips": ((232, 230, 226), (150, 70, 30)),
          "black": ((35, 35, 38), (230, 230, 230)),
          "ivory": ((200, 225, 235), (40, 40, 40)),
          "purple": ((120, 40, 110), (235, 235, 235)),
          "orange": ((40, 120, 230), (245, 245, 245))},
    felts={**FELTS, "navy": (75, 40, 20), "dark_green": (30, 75, 25),
           "burgundy": (40, 35, 110), "grey": (95, 95, 90)},
    clashes=frozenset(_CLASHES | {("green", "dark_green"), ("blue", "navy"),
                                  ("red", "burgundy"), ("purple", "burgundy")}),
    zoom=(0.72, 2.1), sizes=((640, 480), (640, 480), (1280, 720)))
# The widened dice and cloths seen by a solid camera: side faces show, the felt foreshortens
SOLID = dataclasses.replace(WIDE, solid=True, tilt=(0.0, 32.0))



def render(rng: np.random.Generator, nuisances: Sequence[str] = (),
           reason: str | None = None, wide: Widening | None = None
           ) -> tuple[np.ndarray, dict[str, Any]]:
    """One frame and its label. `reason` None: a valid roll; else a no-decision case.
    `wide`: the colours, zoom and sizes beyond the held-out camera's (None: that camera)."""
    if reason is not None and reason not in NO_DECISION_REASONS:
        raise ValueError(f"reason: {reason!r} not one of {NO_DECISION_REASONS}")
    look = wide or Widening()
    felt_name = str(rng.choice(list(look.felts)))
    dice_name = str(rng.choice([d for d in look.dice if (d, felt_name) not in look.clashes]))
    scene = Canvas(np.zeros((H * SS, W * SS, 3), np.float32), rng,
                   unit(rng.uniform(0, 2 * np.pi)))
    _draw_table(scene, look.felts[felt_name])
    values = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    dice = _place_dice(rng, reason)
    distractors = _draw_distractors(scene, [d["c"] for d in dice])
    if look.solid:
        img, quad, centres, sides = solid.shoot(
            scene, dice, values, look.dice[dice_name], look, nuisances, _landing_quad(),
            DIE_PX, PX)
    else:
        for die, value in zip(dice, values):
            _draw_die(scene, die, value, look.dice[dice_name])
        img = cv2.resize(scene.img, (W, H), interpolation=cv2.INTER_AREA)
        img = np.clip(img, 0, 255).astype(np.uint8)
        img, quad, centres, sides = _camera(img, rng, nuisances, dice, wide)
    label: dict[str, Any] = {
        "kind": "dice", "no_decision": reason is not None, "reason": reason,
        "values": None if reason else sorted(values),
        "dice_colour": dice_name, "felt": felt_name, "distractors": distractors,
        "nuisances": list(nuisances),
        "landing_area_px": quad.round(2).tolist(),
        # What a person would have clicked: the true corners give or take a pixel.
        "calibration": _calibration_json(quad + rng.normal(0, 0.7, quad.shape)),
        # Each die where it lies in the frame: what a reader trained on crops learns from.
        "dice_px": [{"centre": [round(float(x), 1) for x in c], "value": v, "pose": d["mode"],
                     "side": round(float(s), 1)}
                    for c, v, d, s in zip(centres, values, dice, sides)],
    }
    return img, label


def _calibration_json(quad: np.ndarray) -> dict[str, Any]:
    pts = tuple((float(x), float(y)) for x, y in quad)
    return cal.DiceCalibration(pts, SYNTH_LANDING_MM).to_json()


# ---------------------------------------------------------------- table, dice placement

def synth_calibration() -> cal.DiceCalibration:
    """This generator's camera as a calibration (before geometric nuisances)."""
    x0, y0, x1, y1 = _landing_rect_px()
    return cal.DiceCalibration(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), SYNTH_LANDING_MM)


def _landing_rect_px() -> tuple[float, float, float, float]:
    x0, y0 = SYNTH_ORIGIN_PX
    return x0, y0, x0 + SYNTH_LANDING_MM[0] * PX, y0 + SYNTH_LANDING_MM[1] * PX


def _landing_quad() -> np.ndarray:
    x0, y0, x1, y1 = _landing_rect_px()
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


def _draw_table(sc: Canvas, felt: tuple[int, int, int]) -> None:
    rng, img = sc.rng, sc.img
    img[:] = np.array(felt, np.float32) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    low = cv2.resize(rng.normal(0, 6, (12, 16)).astype(np.float32), (W * SS, H * SS),
                     interpolation=cv2.INTER_CUBIC)
    grain = rng.standard_normal((H * SS, W * SS), dtype=np.float32) * 4
    img += (low + grain)[..., None]  # dye variations + weave
    img[: sc.s(RAIL_PX)] = np.array((35, 55, 95), np.float32) * np.float32(rng.uniform(0.8, 1.2))
    cv2.line(img, (0, sc.s(RAIL_PX) - 3), (W * SS, sc.s(RAIL_PX) - 3), (70, 95, 140), 4)
    x0, y0, x1, y1 = _landing_rect_px()
    cv2.rectangle(img, (sc.s(x0), sc.s(y0)), (sc.s(x1), sc.s(y1)), (215, 220, 220),
                  sc.s(1.5), cv2.LINE_AA)


def _place_dice(rng: np.random.Generator, reason: str | None) -> list[dict[str, Any]]:
    """Centres/angles of the dice (output pixels). Valid dice: inside, clear of the line."""
    x0, y0, x1, y1 = _landing_rect_px()
    m = 0.9 * DIE_PX

    def inside() -> np.ndarray:
        return np.array([rng.uniform(x0 + m, x1 - m), rng.uniform(y0 + m, y1 - m)])

    first: dict[str, Any] = {"c": inside(), "a": rng.uniform(0, 90), "mode": "flat"}
    if reason == "single_die":
        return [first]
    if reason == "overlap":  # the second die rests partly on the first, nearer the camera
        off = unit(rng.uniform(0, 2 * np.pi)) * rng.uniform(0.45, 0.8) * DIE_PX
        return [first, {"c": first["c"] + off, "a": rng.uniform(0, 90), "mode": "on_top"}]
    while True:
        second = inside() if reason != "out_of_area" else _outside(rng)
        if np.linalg.norm(second - first["c"]) > 1.75 * DIE_PX:
            break
    mode = "cocked" if reason == "cocked" else "flat"
    return [first, {"c": second, "a": rng.uniform(0, 90), "mode": mode}]


def _outside(rng: np.random.Generator) -> np.ndarray:
    """A resting place outside the landing area but still in view: the margin or the rail."""
    x0, y0, x1, y1 = _landing_rect_px()
    side = int(rng.integers(4))
    if side == 0:  # between the line and the rail
        return np.array([rng.uniform(x0, x1), rng.uniform(RAIL_PX + 0.65 * DIE_PX,
                                                            y0 - 0.85 * DIE_PX)])
    if side == 1:
        return np.array([rng.uniform(x0, x1), rng.uniform(y1 + 0.85 * DIE_PX,
                                                            H - 0.65 * DIE_PX)])
    d = rng.uniform(0.9, 1.6) * DIE_PX
    return np.array([x0 - d if side == 2 else x1 + d, rng.uniform(y0, y1)])


# ---------------------------------------------------------------- dice

def _draw_die(sc: Canvas, die: dict[str, Any], value: int, colours: tuple) -> None:
    rng = sc.rng
    side = DIE_PX * (1.06 if die["mode"] == "on_top" else 1.0)
    if die["mode"] == "cocked":
        _draw_cocked(sc, die, value, colours)
        return
    quad = square(die["c"], die["a"], side)
    shadow(sc, quad, 0.12 * DIE_PX * (2.5 if die["mode"] == "on_top" else 1.0), DIE_PX)
    tex, alpha = face_texture(value, colours, rng)
    paste_quad(sc, tex, alpha, quad)
    if rng.random() < 0.35:
        specular(sc, quad, DIE_PX)


def _draw_cocked(sc: Canvas, die: dict[str, Any], value: int, colours: tuple) -> None:
    """A die leaning at 15-40 degrees: its top face foreshortened and one side face showing."""
    rng = sc.rng
    tilt = np.radians(rng.uniform(15, 40))
    u = unit(np.radians(die["a"]))  # the edge it pivots on runs along u
    v = np.array([-u[1], u[0]])
    top_len, side_len = DIE_PX * np.cos(tilt), DIE_PX * np.sin(tilt)
    start = die["c"] - v * (top_len + side_len) / 2
    half = u * DIE_PX / 2

    def strip(a: float, b: float) -> np.ndarray:
        return np.array([start + v * a - half, start + v * a + half,
                         start + v * b + half, start + v * b - half])

    top, side = strip(0, top_len), strip(top_len, top_len + side_len)
    shadow(sc, np.vstack([top, side]), 0.3 * DIE_PX, DIE_PX)
    tex, alpha = face_texture(value, colours, rng)
    paste_quad(sc, tex, alpha, top, gain=1.05)
    side_value = int(rng.choice([v_ for v_ in range(1, 7) if v_ not in (value, 7 - value)]))
    tex, alpha = face_texture(side_value, colours, rng)
    paste_quad(sc, tex, alpha, side, gain=0.7)


# ---------------------------------------------------------------- distractors

def _draw_distractors(sc: Canvas, dice_centres: list[np.ndarray]) -> list[str]:
    """Chips, a card, the stick and dots on the felt, kept clear of the dice."""
    rng, used = sc.rng, []
    keep_out = [(c, 1.15 * DIE_PX) for c in dice_centres]
    n_chips = int(rng.integers(0, 5))
    for _ in range(n_chips):
        if _chip(sc, keep_out):
            used.append("chip")
    if rng.random() < 0.35 and _card(sc, keep_out):
        used.append("card")
    if rng.random() < 0.35 and _stick(sc, keep_out):
        used.append("stick")
    n_dots = int(rng.integers(0, 15))
    for _ in range(n_dots):
        _dot(sc, keep_out)
    if n_dots:
        used.append("dots")
    return sorted(set(used))


def _free_spot(rng: np.random.Generator, keep_out: list, radius: float,
               tries: int = 30) -> np.ndarray | None:
    for _ in range(tries):
        p = np.array([rng.uniform(0, W), rng.uniform(RAIL_PX, H)])
        if all(np.linalg.norm(p - c) > r + radius for c, r in keep_out):
            return p
    return None


def _chip(sc: Canvas, keep_out: list) -> bool:
    rng = sc.rng
    r = 39 / 2 * PX  # a 39 mm casino chip
    p = _free_spot(rng, keep_out, r)
    if p is None:
        return False
    keep_out.append((p, r))
    colour = [(40, 40, 200), (200, 200, 200), (40, 140, 40), (30, 30, 30), (160, 60, 40),
              (40, 120, 220)][int(rng.integers(6))]
    c, rr = (sc.s(p[0]), sc.s(p[1])), sc.s(r)
    shadow(sc, np.array([p + r * unit(a) for a in np.linspace(0, 2 * np.pi, 24)]),
           0.1 * DIE_PX, DIE_PX, 0.35)
    cv2.circle(sc.img, c, rr, colour, -1, cv2.LINE_AA)
    for k in range(8):  # the edge spots ("inserts") of a casino chip
        a = rng.uniform(0, 1) * 0 + k * np.pi / 4
        q = p + (r * 0.82) * unit(a)
        cv2.ellipse(sc.img, (sc.s(q[0]), sc.s(q[1])), (sc.s(r * 0.14), sc.s(r * 0.07)),
                    np.degrees(a) + 90, 0, 360, (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(sc.img, c, sc.s(r * 0.6), (225, 225, 225), sc.s(1.5), cv2.LINE_AA)
    return True


def _card(sc: Canvas, keep_out: list) -> bool:
    rng = sc.rng
    w, h = 63 * PX, 88 * PX
    p = _free_spot(rng, keep_out, 0.62 * h)
    if p is None:
        return False
    keep_out.append((p, 0.62 * h))
    a = rng.uniform(0, 180)
    quad = square(p, a, 1.0)
    u, v = (quad[1] - quad[0]), (quad[3] - quad[0])
    corners = np.array([p - u * w / 2 - v * h / 2, p + u * w / 2 - v * h / 2,
                        p + u * w / 2 + v * h / 2, p - u * w / 2 + v * h / 2])
    cv2.fillPoly(sc.img, [(corners * SS * 16).astype(np.int32)], (240, 240, 240),
                 cv2.LINE_AA, shift=4)
    ink = (30, 30, 190) if rng.random() < 0.5 else (30, 30, 30)
    for fx, fy in ((-0.25, -0.3), (0.25, 0.3), (0, 0), (-0.25, 0.3), (0.25, -0.3)):
        q = p + u * fx * w + v * fy * h  # suit symbols: pip-like marks that are not dice
        cv2.circle(sc.img, (sc.s(q[0]), sc.s(q[1])), sc.s(0.08 * w), ink, -1, cv2.LINE_AA)
    return True


def _stick(sc: Canvas, keep_out: list) -> bool:
    """The stickman's stick: a long thin wooden rod with a hooked end, crossing the view."""
    rng = sc.rng
    for _ in range(20):
        a, b = np.array([rng.uniform(0, W), H + 5.0]), np.array([rng.uniform(0, W),
                                                                 rng.uniform(RAIL_PX, H / 2)])
        pts = [a + (b - a) * t for t in np.linspace(0, 1, 30)]
        hook = b + unit(np.arctan2(*(b - a)[::-1]) + np.pi / 2) * 0.8 * DIE_PX
        pts.append(hook)
        width = 0.3 * DIE_PX
        if all(min(np.linalg.norm(q - c) for q in pts) > r + width for c, r in keep_out):
            poly = (np.array(pts) * SS).astype(np.int32)
            cv2.polylines(sc.img, [poly], False, (60, 110, 160), sc.s(width), cv2.LINE_AA)
            return True
    return False


def _dot(sc: Canvas, keep_out: list) -> None:
    """Lint, stains or a printed dot on the felt: pip-sized, dark or light."""
    rng = sc.rng
    r = rng.uniform(0.04, 0.12) * DIE_PX
    p = _free_spot(rng, keep_out, r + 0.25 * DIE_PX)
    if p is None:
        return
    shade = (235, 235, 235) if rng.random() < 0.5 else (20, 20, 20)
    cv2.circle(sc.img, (sc.s(p[0]), sc.s(p[1])), max(sc.s(r), 1), shade, -1, cv2.LINE_AA)


# ---------------------------------------------------------------- camera

def _camera(img: np.ndarray, rng: np.random.Generator, nuisances: Sequence[str],
            dice: list[dict[str, Any]], wide: Widening | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Apply the camera's pose (and a widened frame's zoom) and photometric nuisances; return
    the frame, the landing quad, the dice centres and sides, all in the frame's pixels."""
    quad = _landing_quad()
    centres = np.array([d["c"] for d in dice])
    for _ in range(20):  # re-draw a pose that would push a die out of the picture
        mat = nz.homography(img.shape, rng, nuisances)
        moved = nz.warp_points(centres, mat)
        m = 0.55 * DIE_PX
        if np.all((moved > m) & (moved < [W - m, H - m])):
            break
    else:
        mat = np.eye(3)
    size = (W, H)
    if wide is not None:
        size = wide.sizes[int(rng.integers(len(wide.sizes)))]
        mat = _zoom(rng, nz.warp_points(centres, mat), wide.zoom, size) @ mat
    if not np.allclose(mat, np.eye(3)) or size != (W, H):
        img = cv2.warpPerspective(img, mat, size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    half = np.array([DIE_PX / 2, 0.0])
    across = nz.warp_points(centres + half, mat) - nz.warp_points(centres - half, mat)
    return (nz.apply(img, rng, nuisances), nz.warp_points(quad, mat),
            nz.warp_points(centres, mat), np.hypot(*across.T))


def _zoom(rng: np.random.Generator, centres: np.ndarray, zoom: tuple[float, float],
          size: tuple[int, int]) -> np.ndarray:
    """A scale about the dice into a frame of `size`, the dice kept a die's side inside it."""
    lo = zoom[0] if size[0] <= W else max(zoom[0], 0.75 * size[0] / W)
    s = float(rng.uniform(lo, max(zoom[1], lo)))
    lo_xy, hi_xy = centres.min(0), centres.max(0)
    room = np.array(size) - (hi_xy - lo_xy) * s - 2 * DIE_PX * s
    while np.any(room < 0) and s > lo:  # the dice too far apart for this zoom
        s = max(lo, s * 0.9)
        room = np.array(size) - (hi_xy - lo_xy) * s - 2 * DIE_PX * s
    start = DIE_PX * s + rng.uniform(0, 1, 2) * np.maximum(room, 0)  # where lo_xy lands
    t = start - lo_xy * s
    return np.array([[s, 0, t[0]], [0, s, t[1]], [0, 0, 1]])


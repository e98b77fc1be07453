"""The dice scene seen by a pinhole camera: dice as cubes, the felt as a plane (issue 14:
camera height and tilt).

scene.py draws the table top-down; a widening with `solid` set hands the drawing here. The
world is that drawing's output pixels (x right, y down) with a height z in the same units
above the felt. The camera stands `height_mm` above the felt, tilted from the vertical, turned
and rolled at random, aimed near the dice, with a focal length that makes a die `die_px`
across: a low camera with a wide lens shows the dice's side faces towards the frame's edges, a
tilted one shows them everywhere, as a real one does. Each die is a cube with its six values
placed as on a real die (opposite faces make 7); a leaning die turns about one bottom edge,
a die lying on the other is lifted onto it. Faces are painted far to near, those turned
from the camera left out; sides are shaded by the light that casts the shadows.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from services.scenes import nuisances as nz
from services.scenes.dice.paint import SS, Canvas, face_texture, paste_quad, shadow, specular


class Lens(Protocol):
    """What the camera is drawn from (scene.Widening has these): the tilt from the vertical
    (degrees), the height above the felt (mm), a die's side in the frame (px), frame sizes."""
    @property
    def tilt(self) -> tuple[float, float]: ...
    @property
    def height_mm(self) -> tuple[float, float]: ...
    @property
    def die_px(self) -> tuple[float, float]: ...
    @property
    def sizes(self) -> tuple[tuple[int, int], ...]: ...

# A die's corners (a side of 1, its base on the felt): the top face TL TR BR BL as seen
# from above, then the base in the same order. Faces: corners (top edge first) and normal.
_CORNERS = np.array([[-.5, -.5, 1], [.5, -.5, 1], [.5, .5, 1], [-.5, .5, 1],
                     [-.5, -.5, 0], [.5, -.5, 0], [.5, .5, 0], [-.5, .5, 0]], np.float64)
_FACES = (((0, 1, 2, 3), (0, 0, 1)), ((0, 1, 5, 4), (0, -1, 0)), ((1, 2, 6, 5), (1, 0, 0)),
          ((2, 3, 7, 6), (0, 1, 0)), ((3, 0, 4, 7), (-1, 0, 0)))
FOV = (8.0, 95.0)  # degrees across the frame a CCTV lens may see


@dataclass(frozen=True)
class Camera:
    """World points to frame pixels: p = K R (X - C)."""
    k: np.ndarray       # 3 x 3 intrinsics
    r: np.ndarray       # rows: the camera's right, down and forward, in the world
    c: np.ndarray       # the camera's centre in the world

    def project(self, points: np.ndarray) -> np.ndarray:
        uvw = (points - self.c) @ self.r.T @ self.k.T
        return np.asarray(uvw[:, :2] / uvw[:, 2:3])

    def table(self) -> np.ndarray:
        """The felt (z = 0) to the frame, as a homography of (x, y, 1)."""
        return np.asarray(self.k @ np.column_stack([self.r[:, 0], self.r[:, 1],
                                                    -self.r @ self.c]))


def look_at(target: np.ndarray, tilt: float, turn: float, roll: float, height: float,
            focal: float, size: tuple[int, int]) -> Camera:
    """A camera `height` above the felt, its axis `tilt` degrees from the vertical through
    `target` (on the felt), standing towards `turn` degrees, rolled `roll` degrees. Untilted
    and unrolled it sees the top-down drawing unmirrored (image x along x, y along y)."""
    t, u = np.radians(tilt), np.radians(turn)
    centre = np.asarray(target, np.float64) + height * np.array(
        [np.tan(t) * np.cos(u), np.tan(t) * np.sin(u), 1.0])
    forward = target - centre
    forward /= np.linalg.norm(forward)
    hint = np.array([np.cos(np.radians(roll)), np.sin(np.radians(roll)), 0.0])
    right = hint - (hint @ forward) * forward
    right /= np.linalg.norm(right)
    down = np.cross(right, forward)   # (1, 0, 0) x (0, 0, -1) = (0, 1, 0): unmirrored
    k = np.array([[focal, 0, size[0] / 2], [0, focal, size[1] / 2], [0, 0, 1]])
    return Camera(k, np.stack([right, down, forward]), centre)


@dataclass(frozen=True)
class Solid:
    """One die as a cube in the world."""
    corners: np.ndarray                    # 8 x 3, as _CORNERS
    values: tuple[int, int, int, int, int]  # top, then the faces of _FACES[1:]
    normals: np.ndarray                    # 5 x 3
    pose: str

    @property
    def top_centre(self) -> np.ndarray:
        return np.asarray(self.corners[:4].mean(0))

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.corners.mean(0))


def cube(die: dict[str, Any], value: int, side: float, rng: np.random.Generator) -> Solid:
    """A die placed by scene._place_dice (centre, angle, pose) as a cube of `side`."""
    a, b = rng.permutation([v for v in range(1, 7) if v not in (value, 7 - value)])[:2]
    if b == 7 - a:
        b = next(v for v in range(1, 7) if v not in (value, 7 - value, a, 7 - a))
    local, turn = _CORNERS.copy(), np.eye(3)
    if die["mode"] != "flat":  # about its edge at y = +1/2 on the felt, lifting the far one
        lean = np.radians(rng.uniform(15, 40) if die["mode"] == "cocked" else rng.uniform(8, 25))
        c, s = np.cos(lean), np.sin(lean)
        turn = np.array([[1, 0, 0], [0, c, s], [0, -s, c]])
        local = (local - [0, .5, 0]) @ turn.T + [0, .5, 0]
    lift = rng.uniform(0.55, 0.95) if die["mode"] == "on_top" else 0.0
    g = np.radians(die["a"])
    spin = np.array([[np.cos(g), -np.sin(g), 0], [np.sin(g), np.cos(g), 0], [0, 0, 1]])
    corners = (local + [0, 0, lift]) @ spin.T * side + [die["c"][0], die["c"][1], 0]
    normals = np.array([n for _, n in _FACES], np.float64) @ turn.T @ spin.T
    return Solid(corners, (value, int(a), int(b), 7 - int(a), 7 - int(b)), normals,
                 die["mode"])


def choose_camera(rng: np.random.Generator, look: Lens, size: tuple[int, int],
                  points: np.ndarray, side: float, px_per_mm: float) -> Camera:
    """A camera of the widening's ranges that sees every point a fifth of a die inside the
    frame; the dice are made smaller until one does."""
    die_px = rng.uniform(*look.die_px)
    for attempt in range(60):
        tilt = rng.uniform(*look.tilt) if attempt < 40 else 0.0
        height = float(np.exp(rng.uniform(*np.log(look.height_mm)))) * px_per_mm
        focal = die_px * height / np.cos(np.radians(tilt)) / side
        fov = np.degrees(2 * np.arctan(size[0] / 2 / focal))
        target = np.array([*(points[:, :2].mean(0) + rng.normal(0, 0.4 * side, 2)), 0.0])
        cam = look_at(target, tilt, rng.uniform(0, 360), rng.uniform(0, 360), height, focal,
                      size)
        uv = cam.project(points)
        m = 0.2 * die_px
        if FOV[0] <= fov <= FOV[1] and np.all((uv > m) & (uv < np.array(size) - m)):
            return cam
        die_px = max(look.die_px[0], 0.93 * die_px)
    # 5,000 placements of every kind (scene._place_dice) took at most 11 attempts
    raise RuntimeError("no camera of the widening sees every die")


def shoot(sc: Canvas, dice: list[dict[str, Any]], values: Sequence[int], colours: tuple,
          look: Lens, nuisances: Sequence[str], landing: np.ndarray, side: float,
          px_per_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The frame of the top-down drawing `sc` (dice not yet drawn) with these dice as cubes;
    the landing quad, the dice's centres (a flat die's top face, else its body) and their
    top faces' sides, in the frame's pixels."""
    rng = sc.rng
    solids = [cube(d, v, side, rng) for d, v in zip(dice, values)]
    for s in solids:
        base = cv2.convexHull(s.corners[:, :2].astype(np.float32)).reshape(-1, 2)
        shadow(sc, base, (0.12 if s.pose == "flat" else 0.3) * side, side)
    size = look.sizes[int(rng.integers(len(look.sizes)))]
    cam = choose_camera(rng, look, size, np.vstack([s.corners for s in solids]), side,
                        px_per_mm)
    frame = Canvas(_felt_seen(sc, cam, size), rng, sc.light)
    sun = _sun(rng, sc.light)
    for s in sorted(solids, key=lambda s: -float(np.linalg.norm(s.centre - cam.c))):
        _paint(frame, s, cam, colours, sun)
    img = cv2.resize(frame.img, size, interpolation=cv2.INTER_AREA)
    img = nz.apply(np.clip(img, 0, 255).astype(np.uint8), rng, nuisances)
    tops = [cam.project(s.corners[:4]) for s in solids]
    centres = np.array([cam.project((s.top_centre if s.pose == "flat" else s.centre)[None])[0]
                        for s in solids])
    sides = np.array([np.linalg.norm(t - np.roll(t, 1, axis=0), axis=1).mean() for t in tops])
    flat_landing = np.column_stack([landing, np.zeros(len(landing))])
    return img, cam.project(flat_landing), centres, sides


def _felt_seen(sc: Canvas, cam: Camera, size: tuple[int, int]) -> np.ndarray:
    """The drawn table as the camera sees it (at SS x the frame's size); beyond the drawing,
    plain cloth of its colour and grain (never the drawing mirrored: that repeats the
    outline and casts dice shadows with no dice)."""
    up = np.diag([SS, SS, 1.0])
    mat, out = up @ cam.table() @ np.linalg.inv(up), (size[0] * SS, size[1] * SS)
    table = cv2.warpPerspective(sc.img, mat, out, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    drawn = cv2.warpPerspective(np.ones(sc.img.shape[:2], np.float32), mat, out,
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    if drawn.min() >= 1.0:
        return np.asarray(table)
    rows = sc.img.shape[0]
    felt = np.median(sc.img[rows // 4:rows:7, ::7].reshape(-1, 3), axis=0)  # below the rail
    cloth = felt + sc.rng.standard_normal(table.shape[:2], dtype=np.float32)[..., None] * 4
    return np.asarray(table * drawn[..., None] + cloth * (1 - drawn[..., None]),
                      np.float32)


def _sun(rng: np.random.Generator, light: np.ndarray) -> np.ndarray:
    """The lamp's direction (towards it), from the way the shadows fall, 45-75 degrees up."""
    up = np.radians(rng.uniform(45, 75))
    return np.array([-light[0] * np.cos(up), -light[1] * np.cos(up), np.sin(up)])


def _paint(frame: Canvas, s: Solid, cam: Camera, colours: tuple, sun: np.ndarray) -> None:
    top_gain = 0.35 + 0.7 * sun[2]
    for i, ((idx, _), normal, value) in enumerate(zip(_FACES, s.normals, s.values)):
        middle = s.corners[list(idx)].mean(0)
        if normal @ (cam.c - middle) <= 0:
            continue  # turned from the camera
        gain = (0.35 + 0.7 * max(float(normal @ sun), 0.0)) / top_gain
        tex, alpha = face_texture(value, colours, frame.rng)
        quad = cam.project(s.corners[list(idx)])
        paste_quad(frame, tex, alpha, quad, gain=min(gain, 1.05))
        if i == 0 and s.pose == "flat" and frame.rng.random() < 0.35:  # the top face
            specular(frame, quad, float(np.linalg.norm(quad[1] - quad[0])))

"""Blobs on the felt and their measures in table millimetres (pure OpenCV + numpy).

A blob's kind (`Blob.kind`) comes from its size and shape alone: a die, a leaning die
(«cocked»), dice on dice (a cluster) or anything else. Contours are traced at half resolution
and mapped through the calibration's homography, so a tilted or zoomed camera measures the same.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from services.vision.dice.calibration import DiceCalibration
from services.vision.stats import median

MIN_SHARP = 0.15       # outline step per pixel / inner contrast (dice >= 0.19, glare lower)
MIN_SOLID = 0.85       # share of the outline's inside that is object (a ring of spots: low)
MAX_CLUSTER_ROUND = 0.8  # two dice on each other are squares (<= 0.75); a chip is a disc
MIN_CLUSTER_CONVEX = 0.85  # ... and compact; a chip's visible part is a crescent (< 0.83)


@dataclass(frozen=True)
class Blob:
    centre_mm: tuple[float, float]
    size_mm: tuple[float, float]     # minAreaRect sides, short first
    box_mm: np.ndarray               # 4x2 corners of the min-area rectangle (mm)
    area_mm2: float
    fill: float                      # blob area / rectangle area
    angle: float                     # minAreaRect angle (degrees)
    # The outline's qualities, measured only for a blob dice-sized by `dice_sized` (the others
    # are "other" whatever they are; measuring them was 0.7 ms per frame): None otherwise.
    solid: float | None = None       # share of the outline's inside that is object pixels
    sharp: float | None = None       # outline step per pixel / inner contrast (glare: low)
    round: float | None = None       # hull area / enclosing circle area (chip ~0.9+)
    convex: float | None = None      # area / convex hull area (dice on dice ~0.9+)
    touching: bool = False           # dice cut apart from one blob: they touch

    def kind(self, die_mm: float) -> str:
        """'die', 'cocked', 'cluster' or 'other', from size and shape alone."""
        short, long_ = (s / die_mm for s in self.size_mm)
        ratio, area = long_ / short, self.area_mm2 / die_mm ** 2
        if self.touching:
            return "cluster"  # two dice in contact: a person calls it (README limits)
        if not dice_sized(short, long_, area, self.fill) or self.solid is None:
            return "other"
        assert self.sharp is not None and self.round is not None and self.convex is not None
        if self.solid < MIN_SOLID or self.sharp < MIN_SHARP:
            return "other"  # a ring of spots (chip the colour of the felt); soft glare
        if short > 0.8 and long_ < 1.25 and ratio < 1.15 and 0.7 < area < 1.35 \
                and self.fill > 0.8:
            return "die"
        if 0.8 < short < 1.3 and 1.15 <= ratio < 1.8 and area < 2.0 and self.fill > 0.8:
            return "cocked"
        if short > 0.9 and long_ < 2.6 and 1.2 < area < 2.6 and self.fill > 0.55 \
                and self.round < MAX_CLUSTER_ROUND and self.convex > MIN_CLUSTER_CONVEX:
            return "cluster"
        return "other"


def dice_sized(short: float, long_: float, area: float, fill: float) -> bool:
    """Could a blob of these sides and area (dice, dice^2) and fill be a die, a leaning die or
    dice on dice (`Blob.kind`'s size limits, all three together)?"""
    return short > 0.8 and long_ < 2.6 and area < 2.6 and fill > 0.55


@dataclass(frozen=True)
class Frame:
    """One frame's half-resolution maps and its scale."""
    calibration: DiceCalibration
    to_mm: np.ndarray
    die_px: float          # die side in half-resolution pixels
    diff: np.ndarray       # felt difference
    grad: np.ndarray       # its gradient magnitude per pixel
    mask: np.ndarray       # object pixels (uint8 0/255)

    @property
    def die_area(self) -> float:
        return self.die_px ** 2


def components(mask: np.ndarray) -> list[np.ndarray]:
    """Outer outlines of every component, including those inside another's hole: the printed
    landing-area outline can survive the opening as a closed frame around the dice."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    return [c for c, h in zip(contours, hierarchy[0]) if h[3] < 0]



def measure(frame: Frame, c: np.ndarray, offset: tuple[int, int],
             own: np.ndarray) -> Blob | None:
    """Measure one contour (half-resolution pixels relative to `offset`; `own` is the mask
    it was traced in, in the same frame of reference) in millimetres."""
    if cv2.contourArea(c) < 0.3 * frame.die_area:
        return None
    x, y, bw, bh = cv2.boundingRect(c)
    ox, oy = offset
    hs, ws = frame.mask.shape
    if x + ox <= 2 or y + oy <= 2 or x + ox + bw >= ws - 2 or y + oy + bh >= hs - 2:
        return None  # cut by the frame edge: its true shape is unknown (and it is off-area)
    full = c + [ox, oy]
    pts = cv2.perspectiveTransform(full.reshape(-1, 1, 2).astype(np.float64) * 2 + 0.5,
                                   frame.to_mm).reshape(-1, 2).astype(np.float32)
    (cx, cy), (a, b), ang = cv2.minAreaRect(pts)
    w_mm, h_mm = frame.calibration.landing_area_mm
    reach = 3 * frame.calibration.die_mm  # look this far outside the landing area
    if not (-reach < cx < w_mm + reach and -reach < cy < h_mm + reach):
        return None
    area = float(cv2.contourArea(pts))
    box = cv2.boxPoints(((cx, cy), (a, b), ang))
    blob = Blob((cx, cy), (min(a, b), max(a, b)), box, area, area / max(a * b, 1e-6), ang)
    die = frame.calibration.die_mm
    if not dice_sized(blob.size_mm[0] / die, blob.size_mm[1] / die, area / die ** 2, blob.fill):
        return blob
    _, radius = cv2.minEnclosingCircle(pts)
    hull = float(cv2.contourArea(cv2.convexHull(pts)))
    inside = fill(c, (x, y, bw, bh))
    solid = cv2.countNonZero(cv2.bitwise_and(inside, own[y:y + bh, x:x + bw])) / \
        max(cv2.countNonZero(inside), 1)
    return dataclasses.replace(
        blob, solid=solid, sharp=sharpness(frame, full, inside, (x + ox, y + oy)),
        round=hull / (np.pi * radius ** 2 + 1e-6), convex=area / max(hull, 1e-6))


def fill(c: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = rect
    filled = np.zeros((h, w), np.uint8)
    cv2.drawContours(filled, [c - [x, y]], -1, 255, -1)
    return filled


def sharpness(frame: Frame, outline: np.ndarray, inside: np.ndarray,
               origin: tuple[int, int]) -> float:
    """Colour step per pixel across the outline relative to the blob's inner contrast: about
    1/(edge width), whatever the contrast; a die's edge is a step, a glare halo's a slope.
    Where the frame's edge cuts the blob there is no step to measure: a chip cut by it whose
    remainder was measured there looked soft, and a die-shaped piece of it was kept as a die
    (tuning seed 7101, frame 26)."""
    x, y = origin
    h, w = inside.shape
    xs, ys = outline[:, 0, 0], outline[:, 0, 1]
    hs, ws = frame.grad.shape
    inner = (xs > 2) & (ys > 2) & (xs < ws - 3) & (ys < hs - 3)
    if inner.any():
        xs, ys = xs[inner], ys[inner]
    step = median(frame.grad[ys, xs])
    level = median(frame.diff[y:y + h, x:x + w][inside > 0])
    return step / max(level, 1.0)

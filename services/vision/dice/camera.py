"""Do two dice's side faces fit one camera? A die from a tilted or low, wide camera shows its
side faces; so does a leaning die («dado montado / inclinado») from above. A crop of one die
cannot tell them apart (README, "Dice as cubes under a real camera"); the frame can: under a
pinhole camera every flat die's top face is pushed away from the point below the camera
(the vertical vanishing point V) by

    s(p) = k (p - V),   k = cos(tilt) / focal length,

in die sides, where p is the die's place in the frame (the derivative of the projection of
p + t * up: cos(tilt) / depth * (p - V), over the die's width focal / depth). A straight-down
camera has V at the frame's middle and small s; a tilted one has V far off and s alike on
both dice. Two flat dice then satisfy s(a) - s(b) = k (a - b) for one k between 0 and
KW_MAX / width; a leaning die's side points where it leans, and the pair does not fit.

Each die's s is measured from its silhouette (top face and visible sides, as `SideFace`):
its centroid lies halfway between the top face and the base, so s is twice the way from
the centroid to the top face's centre (the candidate's centre: the pips' grid's).
"""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.dice.candidates import Candidate
from services.vision.stats import column_medians

# A die's silhouette: pixels within REACH sides of its centre whose colour is made of the
# body's (its top face within TOP sides of the centre) and the felt's (a ring RING sides out)
# with a body share of BODY at least and more body than felt, the rest of the colour under
# RESIDUAL of the body's (a printed letter of another colour is not the die), away from the
# other die (OTHER of its side), joined to the top face.
TOP = 0.4
RING = (1.5, 2.0)
REACH = 1.6
BODY = 0.3
RESIDUAL = 0.2
OTHER = 0.75
# The pair fits one camera when the residual of s(a) - s(b) against k (a - b) is under FIT
# (die sides) with k * width at most KW_MAX: a horizontal field of view over 2 atan(1 / 0.9)
# = 96 degrees at no tilt, wider than the solid camera's widest (95, scenes/dice/solid.py).
# Chosen on development frames (README, "One camera for both dice, measured"): flat pairs of
# the first generator, its widened and solid cameras leave misfits of 0.05-0.17 at the 99th
# percentile; leaning dice a classifier took for flat 0.21-1.35, but for dice leaning along
# the line between the two (0.03-0.10). Printed ink of the die's own colour touching it
# spoils the silhouette (the foreign renderer's tuning region: one flat pair in six over 0.2).
KW_MAX = 1.8
FIT = 0.15
# Shaded sides only (`shaded`, the reader's guard: guard._guard): on the foreign renderer's
# tuning region flat pairs over FIT fell from 113 of 546 to 16 of 562; it misses a leaning
# die's lit side, so alone it may refuse a frame, never rescue one (rescuing with it decided
# 3 more leaning frames of 499 and read one value wrong), but for pale dice that lean under
# rescue.SHADED_LEAN, whose whole silhouettes white print spoils (rescue.RESCUE_SHADED).
SHADED = 0.92
SHADED_FROM = 0.55
# A die's top face at least TOP_CONTRAST (BGR distance of the medians) from the felt round it:
# else its colour cannot be told from the felt's and nothing is measured (two dots of the
# felt's print read as a 2 at 0.63 fitted one camera with a die lying on another: a fresh
# development seed, 753001 frame 168). 30 changed no reading of 1,351 readable development
# frames; 60 cost 17.
TOP_CONTRAST = 30.0
# ... and felt and body colours not of one hue: the determinant of their Gram matrix above
# COLINEAR of its diagonal's product (the squared sine of the angle between them; 1e-9 is
# about 0.002 degrees: only colours exactly in line are left unmeasured).
COLINEAR = 1e-9
# Both dice seen leaning are flat dice under a tilted camera only when their sides point
# alike, within ALIKE (tilted._tilted): on the development solid camera the pairs it read
# point within 30 degrees; a die leaning away from the other under a camera looking down
# between them fits one camera with sides 135 degrees apart (a fresh solid-camera seed,
# 786001, frame 45).
ALIKE = np.radians(45)
SIDE_PX = 16.0  # a die's silhouette is measured shrunk to this side (px) at most: 13 ms a
# pair of 45 px dice at full resolution, 2.5 at 16 px, the same readings on the development
# frames (README); blocks of whole pixels (a numpy mean) mixed printed ink into the body


def side_vector(image: np.ndarray, die: Candidate, other: Candidate | None,
                shaded: bool = False) -> np.ndarray | None:
    """s of `die` (die sides, x right and y down; `other`, the other die, kept out of its
    silhouette, None when not known), None when its top face or the felt round it is too
    little in view, its top is the felt's colour (TOP_CONTRAST) or its silhouette runs
    out of the frame. `shaded`: beyond SHADED_FROM of its centre only the body's colour
    darker than its top face (under SHADED of its body share) counts: printed ink of the
    die's own colour and brightness touching it is left out, and so is a side face lit as
    brightly as the top."""
    return side_vectors(image, die, other, (shaded,))[0]


def side_vectors(image: np.ndarray, die: Candidate, other: Candidate | None,
                 parts: tuple[bool, ...] = (False, True)) -> tuple[np.ndarray | None, ...]:
    """`side_vector` of each of `parts` (False: the whole silhouette, True: its shaded
    part) from one look at the die: the patch and its colours are measured once."""
    x, y, side = die.x, die.y, die.side
    h, w = image.shape[:2]
    r = RING[1] * side
    x0, y0 = max(int(x - r), 0), max(int(y - r), 0)
    x1, y1 = min(int(x + r) + 1, w), min(int(y + r) + 1, h)
    patch = _shrunk(image[y0:y1, x0:x1], SIDE_PX / side)
    ph, pw = patch.shape[:2]
    sy, sx = (y1 - y0) / ph, (x1 - x0) / pw     # frame pixels a patch pixel
    # The pixels' centres in the frame: a row of x and a column of y (numpy broadcasts them)
    xs = (x0 + (np.arange(pw) + 0.5) * sx - 0.5)[None, :]
    ys = (y0 + (np.arange(ph) + 0.5) * sy - 0.5)[:, None]
    dx, dy = (xs - x) / side, (ys - y) / side
    dist = np.hypot(dx, dy)
    top = np.maximum(np.abs(dx), np.abs(dy)) < TOP
    ring = (dist > RING[0]) & (dist < RING[1])
    if ring.sum() < 30 or top.sum() < 9:
        return (None,) * len(parts)
    body, felt = column_medians(patch[top]), column_medians(patch[ring])
    if np.linalg.norm(body - felt) < TOP_CONTRAST:
        return (None,) * len(parts)
    basis = np.stack([felt, body])                              # 2 x 3
    gram = basis @ basis.T
    # Felt and body of one hue (a black die on grey cloth: (14, 14, 14) and (95, 95, 95))
    # span one line of colours, not two: no share of each can be told, so nothing is measured
    # (np.linalg.solve raised on such a pair: solid 1471001 frame 223).
    if np.linalg.det(gram) <= COLINEAR * gram[0, 0] * gram[1, 1]:
        return (None,) * len(parts)
    share = np.linalg.solve(gram, basis)                        # colour -> (felt, body)
    pixels = patch.reshape(-1, 3)
    ab = pixels @ share.T
    rest = np.linalg.norm(pixels - ab @ basis, axis=1).reshape(dist.shape)
    a, b = ab[:, 0].reshape(dist.shape), ab[:, 1].reshape(dist.shape)
    mask = (b > BODY) & (b > a) & (rest < RESIDUAL * np.linalg.norm(body)) & (dist < REACH)
    if other is not None:
        mask &= np.hypot(xs - other.x, ys - other.y) >= OTHER * other.side
    mask |= top
    centre = (min(int((y - y0 + 0.5) / sy), ph - 1), min(int((x - x0 + 0.5) / sx), pw - 1))
    edges = (x0 == 0, y0 == 0, x1 == w, y1 == h)
    return tuple(_centroid_vector(mask & ((b < SHADED) | (dist < SHADED_FROM)) if shaded
                                  else mask, centre, edges, xs, ys, x, y, side)
                 for shaded in parts)


def _shrunk(patch: np.ndarray, f: float) -> np.ndarray:
    """The patch scaled by f (INTER_AREA) when f is under 1, as float32."""
    if f < 1:
        patch = cv2.resize(patch, (max(round(patch.shape[1] * f), 1),
                                   max(round(patch.shape[0] * f), 1)),
                           interpolation=cv2.INTER_AREA)
    return patch.astype(np.float32)


def _centroid_vector(mask: np.ndarray, centre: tuple[int, int],
                     edges: tuple[bool, bool, bool, bool], xs: np.ndarray, ys: np.ndarray,
                     x: float, y: float, side: float) -> np.ndarray | None:
    """Twice the way (die sides) from the centroid of the part of `mask` joined to the top
    face's `centre` to the die's centre (x, y); None when it runs into the frame's edge."""
    _, labels = cv2.connectedComponents(mask.astype(np.uint8))
    mine = labels == labels[centre]
    if _cut(mine, edges):
        return None
    n = mine.sum()
    return np.array([2 * (x - float(mine.sum(0) @ xs[0]) / n) / side,
                     2 * (y - float(mine.sum(1) @ ys[:, 0]) / n) / side])


def _cut(mine: np.ndarray, edges: tuple[bool, bool, bool, bool]) -> bool:
    """Does the silhouette run into the frame's edge (its centroid is then off)? `edges`:
    which of the patch's left, top, right and bottom sides are the frame's."""
    left, top, right, bottom = edges
    return bool(left and mine[:, 0].any() or top and mine[0].any() or
                right and mine[:, -1].any() or bottom and mine[-1].any())


def sides(image: np.ndarray, a: Candidate, b: Candidate,
          shaded: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """The two dice's side vectors (`side_vector`, each with the other kept out of its
    silhouette), or None when either cannot be measured."""
    sa, sb = side_vector(image, a, b, shaded), side_vector(image, b, a, shaded)
    return None if sa is None or sb is None else (sa, sb)


def misfit(image: np.ndarray, a: Candidate, b: Candidate,
           shaded: bool = False) -> float | None:
    """How far (die sides) the two dice's side vectors are from any one camera's; None when
    either cannot be measured. `shaded`: as side_vector's."""
    measured = sides(image, a, b, shaded)
    return None if measured is None else residual(measured, a, b, image.shape[1])


def misfits(image: np.ndarray, a: Candidate, b: Candidate) -> tuple[float | None, ...]:
    """`misfit` by the whole silhouettes and by the shaded sides, from one look at each die
    (`side_vectors`)."""
    va, vb = side_vectors(image, a, b), side_vectors(image, b, a)
    return tuple(None if sa is None or sb is None else residual((sa, sb), a, b, image.shape[1])
                 for sa, sb in zip(va, vb))


def residual(measured: tuple[np.ndarray, np.ndarray], a: Candidate, b: Candidate,
             width: int) -> float:
    """How far (die sides) side vectors `measured` of dice `a` and `b` are from those of
    one camera (k between 0 and KW_MAX / `width`, the frame's width in px)."""
    d = measured[0] - measured[1]
    apart = np.array([a.x - b.x, a.y - b.y])
    k = float(np.clip(d @ apart / float(apart @ apart), 0.0, KW_MAX / width))
    return float(np.linalg.norm(d - k * apart))


def alike(measured: tuple[np.ndarray, np.ndarray]) -> bool:
    """Do two dice's side vectors point within ALIKE of each other, as a tilted camera's do
    (the point below it far off the frame: s alike on both dice)?"""
    sa, sb = measured
    return bool(sa @ sb >= np.cos(ALIKE) * np.linalg.norm(sa) * np.linalg.norm(sb))

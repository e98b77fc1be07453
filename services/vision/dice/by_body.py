"""The other die of a frame with one sure die, found by the sure die's body (again.py's
look again at a `single_die` frame): the two dice of a roll are a pair, one colour.

1. **Pieces of its body colour** (`_pieces`): the pixels within BODY_COLOUR (BGR distance)
   of the sure die's body (the median of 8 points 0.16 of its side round its centre, between
   its pips), opened with a square of OPEN sides, in pieces of AREA die sides squared and no
   wider than WIDE sides, at least AWAY sides from the sure die.
2. **Pips of its own** (`candidates`): round each piece, the top-hat (the black-hat for dark
   pips) above PIP_SHARE of its highest value within 0.45 of a side of the piece's centre:
   the die's own contrast, where the pip finder's one level for the frame (pipfinder.MIN_HAT)
   misses a dim die's pips or runs them into glare or the die's corner. Their candidates
   (candidates.py's groups and grids) with a grid, within 0.45 of a side of the piece's
   centre, are looked at by the classifier like any other.

On development frames (README, "The other die by its body") the pieces found the missed
die of 21 of the 28 `single_die` frames of the tuning set.
"""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.dice import pipfinder
from services.vision.dice.candidates import Candidate, at_pips, colours_at

BODY_COLOUR = 40.0        # BGR distance from the sure die's body colour
OPEN = 0.15               # opening square (die sides): pips and print edges cut off
AREA = (0.35, 1.8)        # a piece's area (die sides squared): a die's top, with or without sides
WIDE = 1.9                # a piece's bounding box at most this many sides across
AWAY = 1.1                # a piece's centre at least this many sides from the sure die's
PIP_SHARE = 0.4           # a piece's pips: the hat above this share of its highest value ...
MIN_LEVEL = 12.0          # ... and above this (grey levels): a plain piece has no pips
ON_PIECE = 0.45           # candidates (and the hat's highest value) within this many sides
HALF_MIN = 240            # px: the body colour looked for at half resolution when half is this tall
_A = np.linspace(0, 2 * np.pi, 8, endpoint=False) + 0.4
_RING = 0.16 * np.stack([np.cos(_A), np.sin(_A)], 1)  # between a die's pips (die sides)


def candidates(image: np.ndarray, die: Candidate) -> list[Candidate]:
    """Candidates with a pips' grid on the pieces of `die`'s body colour (see above)."""
    op = cv2.MORPH_BLACKHAT if die.dark else cv2.MORPH_TOPHAT
    return [c for x, y in _pieces(image, die) for c in _on_piece(image, op, die, x, y)]


def _pieces(image: np.ndarray, die: Candidate) -> list[tuple[float, float]]:
    """The centres of the pieces of the frame in `die`'s body colour that may be a die."""
    h, w = image.shape[:2]
    body = np.median(colours_at(image, [die], _RING)[0], axis=0)
    # at half resolution (a die is still 7 px or more across): a quarter of the work
    small = cv2.pyrDown(image) if min(h, w) >= 2 * HALF_MIN else image
    scale = w / small.shape[1]
    # a scalar as absdiff's second operand (OpenCV's stubs know only arrays)
    d = cv2.absdiff(small, (*(float(v) for v in body), 0.0)  # type: ignore[call-overload]
                    ).astype(np.float32)
    square = cv2.transform(cv2.multiply(d, d), np.ones((1, 3), np.float32))
    s = die.side / scale
    k = max(int(OPEN * s), 1)
    mask = cv2.morphologyEx((square < BODY_COLOUR ** 2).astype(np.uint8), cv2.MORPH_OPEN,
                           np.ones((k, k), np.uint8))
    out = []
    # each piece's outer outline: its pips' holes filled, a die's top whatever its pips
    for c in pipfinder.outer_outlines(mask):
        _, _, bw, bh = cv2.boundingRect(c)
        m = cv2.moments(c)
        if not AREA[0] * s * s <= m["m00"] <= AREA[1] * s * s or max(bw, bh) > WIDE * s:
            continue
        x, y = (np.array([m["m10"], m["m01"]]) / m["m00"] + 0.5) * scale - 0.5
        if np.hypot(x - die.x, y - die.y) >= AWAY * die.side:
            out.append((float(x), float(y)))
    return out


def _on_piece(image: np.ndarray, op: int, die: Candidate, x: float, y: float
              ) -> list[Candidate]:
    """The candidates with a grid of the pips on the piece centred at (x, y), found in its
    own hat above PIP_SHARE of the hat's highest value near its centre."""
    s, r, near = die.side, int(0.75 * die.side), int(ON_PIECE * die.side)
    x0, y0 = max(int(x) - r, 0), max(int(y) - r, 0)
    grey = cv2.cvtColor(image[y0:int(y) + r, x0:int(x) + r], cv2.COLOR_BGR2GRAY)
    hat = cv2.morphologyEx(cv2.GaussianBlur(grey, (3, 3), 0), op, pipfinder.HAT_KERNEL)
    cx, cy = int(x) - x0, int(y) - y0
    inner = hat[max(cy - near, 0):cy + near, max(cx - near, 0):cx + near]
    if inner.size == 0:
        return []
    level = max(PIP_SHARE * float(inner.max()), MIN_LEVEL)
    pips = [pipfinder.Pip(p.x + x0, p.y + y0, p.r, p.dark, p.shape)
            for p in pipfinder.spots(hat, level, die.dark)]
    pips = [p for p in pips if np.hypot(p.x - x, p.y - y) < 0.6 * s]
    if not pips:
        return []
    return [c for c in at_pips(pips, image.shape) if c.fit is not None
            and np.hypot(c.x - x, c.y - y) < ON_PIECE * s]

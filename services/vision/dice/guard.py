"""The last check of a decided frame (`_guard`, learned.py's last step): a view beside one of
its dice leaning GUARD_LEAN or more, or two dice that fit no one camera (`_unfit`: pale dice,
`_pale`, by their shaded sides too), refuse it as `cocked` (camera.py measures the fit).
"""
from __future__ import annotations

import numpy as np

from services.vision.dice import camera
from services.vision.dice.candidates import Candidate
from services.vision.dice.views import Seen, _near
from services.vision.reading import Reading, no_decision
from services.vision.stats import column_medians

# A decided frame with a view beside one of its dice leaning GUARD_LEAN or more is kept only
# when the dice's shaded sides fit one camera (`_guard`): on development frames it refused 2
# of the 4 leaning frames decided of 499 (leaning set 128, TUNING validation 35) and 6 of
# 1,350 readable frames (5 in the foreign renderer's tuning region, 1 of the solid camera).
GUARD_LEAN = 0.5
# A decided frame with no leaning view beside its dice (GUARD_LEAN) is refused as `cocked`
# when its dice fit no one camera by both measures at UNFIT or more (`_unfit`): a white die
# cocked on the cloth, its top face read sure, shows a side face as big as half its top (the
# TUNING region's white style alone: 11 of 685 leaning frames decided, 5 at the first look,
# 4 rescued, 2 by a look again). On flat pairs the whole silhouette misfits often (white
# print joins a white die: 168 of 464 read right over 0.2) and the shaded part seldom (0 of
# them; 11 of 1,264 other development reads, dice whose lit side it misses), both together
# on 5 of 1,728.
# Development frames: 0.2 caught 5 leaks and cost 5 reads, 0.24 caught 4 and cost 3, 0.3
# caught 2 and cost 1. Fresh seeds at 0.24 (`dev_sets read --set guard.UNFIT=0`):
# white_leaning 1357001 18 -> 14 of 800 decided, leaning 1367001 4 -> 3 of 600, tuning
# 1366001 377 -> 376 of 412 read (frame 83), white 1356001 and solid 1361001 unchanged.
UNFIT = 0.24
# ... asked only when a die is read below UNFIT_BELOW: each die's two side vectors cost 0.4 ms
# (camera.side_vectors), and 58 % of the pairs read right have both dice at 0.99 or more.
# Development frames and the fresh seeds above: the leaks caught at 0.99 are those caught
# asking every pair, and TUNING validation 276 is read again; at 0.98 two leaks get through.
UNFIT_BELOW = 0.99
# A pair of pale dice (`_pale`) decided after the first decision (`_inside`, rescued, read as
# a tilted camera's, or by a look again) is refused when its shaded sides alone misfit by UNFIT or
# more: those paths took the dice's whole silhouettes as fitting one camera or the dice as
# seen leaning, and a pale opaque die's shaded part is its side faces (a translucent body's
# is not: green TUNING 1366001 frames 451 and 493, read right, misfit 0.3 so). Development
# and used frames: 7 leaks fewer of 6,500 leaning frames, no read lost (2 without `_pale`);
# fresh seeds (white_leaning 1417001, leaning 1427001, white 1416001, TUNING 1426001, solid
# 1421001): 20 -> 12 of 2,005 no-decision frames decided, 1 read lost of 995 (white
# 1416001 frame 55).
LATER_SHADED = True
# A pale die's top: median channels PALE_GREY or more, within PALE_CHROMA of the brightest
# (the TUNING region's white dice under its lamps: 82-139 grey, spread 0.1; its green
# translucent ones 0.5-0.7, black ones 10-16 grey).
# UNFIT asked of pale dice only (`_pale`), like LATER_SHADED: on other dice it was a wash
# (all development and used sets, 5,900 readable and 7,000 leaning frames: 5 leaks caught, 4
# reads lost: a red die against the dark stick, green and black dice whose shaded part is
# no side face) and cost 0.16 ms a frame (interleaved, 450 development frames).
UNFIT_PALE = True
PALE_GREY = 80.0
PALE_CHROMA = 0.25


def _guard(image: np.ndarray, seen: list[Seen], reading: Reading,
           dice: list[Seen], later: bool = False) -> Reading:
    """A decided frame where a view beside one of its dice leans GUARD_LEAN or more, kept
    only when the dice's shaded sides fit one camera (camera.misfit, `shaded`); any other
    decided frame kept unless its dice fit no one camera by both their whole silhouettes and
    their shaded sides, each at UNFIT or more, or (pale dice decided `later` than the first
    decision) by their shaded sides (`_unfit`); else `cocked`."""
    lean = max((s.lean for s in seen if any(_near(s.candidate, d.candidate) for d in dice)),
               default=0.0)
    if lean < GUARD_LEAN:
        if UNFIT and (off := _unfit(image, dice, later)) is not None:
            return no_decision("dice", "cocked", why="the two dice fit no one camera",
                               misfit=off, **reading.detail)
        return reading
    off = camera.misfit(image, dice[0].candidate, dice[1].candidate, shaded=True)
    if off is not None and off < camera.FIT:
        return reading
    return no_decision("dice", "cocked", why="a view beside a die leans and the two dice "
                       "fit no one camera", misfit=None if off is None else round(off, 3),
                       lean=round(lean, 3), **reading.detail)


def _unfit(image: np.ndarray, dice: list[Seen], later: bool = False) -> float | None:
    """The smaller of the two dice's misfits (whole silhouettes, shaded sides) when both are
    measured and UNFIT or more, else None: print of a die's colours joined to it spoils the
    whole silhouette, a side lit as brightly as the top is missed by the shaded part; a
    leaning die's side face pointing where it leans spoils both. Only asked when a die is
    read below UNFIT_BELOW (a die cocked so is read sure, but seldom surer), of pale dice
    (`_pale`, UNFIT_PALE). A pair of pale dice decided `later` than the first decision: the
    shaded sides' misfit alone (LATER_SHADED)."""
    a, b = dice[0].candidate, dice[1].candidate
    if later and LATER_SHADED and _both_pale(image, dice):
        m = camera.misfit(image, a, b, shaded=True)
        return round(m, 3) if m is not None and m >= UNFIT else None
    # the belief first: most decided pairs stop there, before the two looks at their colours
    if min(d.belief for d in dice) >= UNFIT_BELOW or UNFIT_PALE and not _both_pale(image, dice):
        return None
    misfits = [m for m in camera.misfits(image, a, b) if m is not None]
    return round(min(misfits), 3) if len(misfits) == 2 and min(misfits) >= UNFIT else None


def _both_pale(image: np.ndarray, dice: list[Seen]) -> bool:
    return _pale(image, dice[0].candidate) and _pale(image, dice[1].candidate)


def _pale(image: np.ndarray, die: Candidate) -> bool:
    """Is the die's body pale: the median colour of its top face's middle (within 0.3 of a
    side of its centre) at PALE_GREY or more with channels within PALE_CHROMA of its
    brightness? An opaque white body's side faces are its shaded parts; a translucent
    coloured body (saturated) or a black one (dark) shows no such shading."""
    r = 0.3 * die.side
    h, w = image.shape[:2]
    patch = image[max(int(die.y - r), 0):min(int(die.y + r) + 1, h),
                  max(int(die.x - r), 0):min(int(die.x + r) + 1, w)]
    if patch.size == 0:
        return False
    bgr = column_medians(patch.reshape(-1, 3))
    return bool(bgr.max() >= PALE_GREY and bgr.max() - bgr.min() <= PALE_CHROMA * bgr.max())

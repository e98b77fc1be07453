"""Frames decided again when the two dice fit one camera (camera.py): a frame with no two sure
dice, its faces taken at RESCUE_P, when each die read below FACE_P is backed by its pips'
grid (`_rescue`, `_grid_backs`, `_lonely`; pale dice by their shaded sides alone:
`_shaded_camera`), and a frame refused as `cocked` only for leaning views inside dice read
sure (`_inside`). `_one_camera` is the fit both take, and the tilted camera's (tilted.py).
"""
from __future__ import annotations

import numpy as np

from services.vision.dice import camera, guard, views
from services.vision.dice.classifier import NOTHING
from services.vision.dice.guard import _both_pale
from services.vision.dice.views import Seen, _on_die, _surest, decide
from services.vision.reading import Reading

# Frames with no two sure dice (RESCUED reasons) are read again taking faces at RESCUE_P,
# decided only when the two dice fit one camera (`_rescue`). Development frames (README, "One
# camera for both dice, measured"): 0.5 read 13 more of 428 readable frames of the tuning
# set, 11 more of 261 of the tuning region's validation seed, 29 more of 226 from the solid
# camera, 4 more of 436 of the first generator and its widening, and decided 2 more of 499
# no-decision frames (a die leaning along the line between the two, an `out_of_area` one).
RESCUE_P = 0.5
RESCUED = ("no_dice", "single_die", "unreadable")
# ... and each die read below FACE_P must have no other face of RIVAL_P or more: its doubt is
# whether it leans, not which face it shows (the tuning set's frame 414: a 3 whose middle pip
# the pip finder missed read 2 at 0.76 with 3 at 0.18; 0.1 left it out and cost 6 of 1,350
# readable development frames the rescue read right).
RIVAL_P = 0.1
# ... or under RIVAL_SHARE of its own belief: a die read at 0.81-0.88 with a rival of
# 0.10-0.16 (first generator and its widening: 4 frames of 436 the rescue missed, both dice
# fitting one camera at 0.02-0.05), where frame 414's 2 had 0.18 against 0.76 (0.24).
RIVAL_SHARE = 0.2
# ... and a die read 1 below FACE_P must be the only pip on its face: no other candidate of
# its pips' polarity within LONELY of its side (a lone pip's grid is a 1's whatever lies
# beside it). A fresh development seed (742001, frame 199) read a 2 with a reflection
# beside one pip as (1, 1) at 0.60; on 1,351 readable development frames it cost 5 reads.
LONELY = 0.5
# ... a candidate within SAME_PIP of its side stands on the 1's own pip (its radius is
# faces.PIP_RADIUS, 0.085 of a side), not beside it: the tuning set's frame 345, a white 1
# read at 0.76, was refused for the same pip seen at 88 px as a `split` one.
SAME_PIP = 0.1
# ... and a candidate the classifier sees as no die's centre (NOTHING at LONELY_NOTHING or
# more) is no pip of the 1's face: a translucent 1 shows a pip of its far face through its
# body 0.41 of a side off (the tuning set's frame 351, TUNING validation 170: the ghost's
# crop and the pair's read nothing at 0.60-0.89), a 2's pair is centred on its die and read
# as a 2. Development frames: +2 read, nothing else changed (0.7: +1); used seeds: none.
LONELY_NOTHING = 0.5
# A rescued pair (`_rescue`: a die read below FACE_P, the whole silhouettes fitting one camera)
# is refused also when its shaded sides misfit by UNFIT or more: a wide-angle camera with its
# foot at the flat die explains a leaning die's side face on the whole silhouettes.
# Development frames and the used seeds above (3,900 readable frames, 4,400 leaning ones): 3
# leaks fewer (white_leaning 1347001 frames 331 and 550, 1377001 frame 600), no read lost;
# fresh seeds (white_leaning 1397001, leaning 1407001, white 1396001, TUNING 1406001): no
# frame changed.
RESCUE_UNFIT = True
# A rescue whose dice's whole silhouettes fit no one camera is taken when both dice are pale
# (`_pale`), neither leans SHADED_LEAN or more, and their shaded sides fit one camera
# (`_shaded_camera`): white print joins a white die's whole silhouette (stop 34: 168 of 464
# white pairs read right misfit over 0.2 so), never its shaded part. Development frames (the
# 26 sets, stop 35's network): without the lean cap +58 reads and 10 leaks (cocked dice read
# 0.51-0.64, leaning 0.29-0.49); at 0.25 +54 reads (white 40, TUNING region 14), 2 leaks of
# 6,895 no-decision frames, no read lost, 0 wrong.
RESCUE_SHADED = True
SHADED_LEAN = 0.25


def _inside(image: np.ndarray, seen: list[Seen]) -> Reading | None:
    """The reading of a frame refused as `cocked` only for leaning views inside dice read
    sure (`decide(inside=True)`), when the two dice fit one camera (camera.py), or None."""
    reading = decide(seen, inside=True)
    if reading.no_decision:
        return None
    return _one_camera(image, reading, _surest(seen))


def _one_camera(image: np.ndarray, reading: Reading, dice: list[Seen],
                alike: bool = False, shown: float = 0.0, shaded: bool = False
                ) -> Reading | None:
    """`reading` with its two dice's misfit (`one_camera`) in its detail when they fit one
    camera (camera.py), `alike`, their sides point alike (camera.alike) and each side vector
    is `shown` sides long at least, else None. `shaded`: by their shaded sides alone (marked
    `shaded` in the detail)."""
    a, b = dice[0].candidate, dice[1].candidate
    measured = camera.sides(image, a, b, shaded)
    if measured is None or alike and not camera.alike(measured):
        return None
    if min(float(np.linalg.norm(v)) for v in measured) < shown:
        return None
    off = camera.residual(measured, a, b, image.shape[1])
    if off >= camera.FIT:
        return None
    return Reading("dice", values=reading.values, confidence=reading.confidence,
                   detail={**reading.detail, "one_camera": round(off, 3),
                           **({"shaded": True} if shaded else {})})


def _rescue(image: np.ndarray, seen: list[Seen]) -> Reading | None:
    """The reading of a frame whose dice the classifier reads below FACE_P (a die showing
    its side faces: README, "One camera for both dice"), or None. Decided as by `decide` at
    RESCUE_P, when each die read below FACE_P has found pips whose grid makes the value read
    (two pieces of evidence agree: `_grid_backs`), no view leaning UNSURE_P or more lies
    SIDE_FACE or more from both (a die-like thing no die accounts for), and the two dice's
    side faces fit one camera (camera.py: a leaning die's do not; for pale dice leaning
    under SHADED_LEAN, their shaded sides alone may: RESCUE_SHADED) and their shaded sides do
    not misfit by UNFIT or more (RESCUE_UNFIT). A fresh first-generator
    seed (998001, frame 105) read a felt's dot in a shadow as a 1 at 0.52 beside a 5, its 3
    seen leaning at 0.62 elsewhere; no development frame was lost to that."""
    reading = decide(seen, RESCUE_P, RESCUE_P)
    if reading.no_decision:
        return None
    dice = _surest(seen, RESCUE_P, RESCUE_P)
    if any(d.belief < views.FACE_P and not _grid_backs(d, seen) for d in dice):
        return None
    if any(s.lean >= views.UNSURE_P and not s.candidate.split and not _on_die(s, dice)
           for s in seen):
        return None
    rescued = _one_camera(image, reading, dice)
    if rescued is None:   # a shaded rescue's sides fit under camera.FIT, below UNFIT
        return _shaded_camera(image, reading, dice) if RESCUE_SHADED else None
    if not RESCUE_UNFIT:
        return rescued
    shaded = camera.misfit(image, dice[0].candidate, dice[1].candidate, shaded=True)
    return None if shaded is not None and shaded >= guard.UNFIT else rescued


def _shaded_camera(image: np.ndarray, reading: Reading, dice: list[Seen]) -> Reading | None:
    """`reading`, its detail marked `shaded`, when its two dice are pale (`_pale`), neither
    leans SHADED_LEAN or more, and their shaded sides fit one camera; else None."""
    if max(d.lean for d in dice) >= SHADED_LEAN or not _both_pale(image, dice):
        return None
    return _one_camera(image, reading, dice, shaded=True)


def _grid_backs(die: Seen, seen: list[Seen]) -> bool:
    """Do the die's found pips back the value read below FACE_P: their grid makes it, no
    other face reaches both RIVAL_P and RIVAL_SHARE of its belief, and a 1 is the only pip
    on its face (`_lonely`)?"""
    return die.candidate.fit == die.value and \
        (die.rival <= RIVAL_P or die.rival <= RIVAL_SHARE * die.belief) and \
        (die.value != 1 or _lonely(die, seen))


def _lonely(die: Seen, seen: list[Seen]) -> bool:
    """Is this die's candidate the only one of its pips' polarity within LONELY of its side,
    but for candidates on its own pip (within SAME_PIP of its side: the pip seen at another
    size, a `split` one or the half-resolution look's) and those seen as no die's centre
    (NOTHING at LONELY_NOTHING)?"""
    c = die.candidate
    return not any(o.candidate is not c and o.candidate.dark == c.dark and
                   not (o.value == NOTHING and o.belief >= LONELY_NOTHING) and
                   SAME_PIP * c.side <= np.hypot(o.candidate.x - c.x, o.candidate.y - c.y)
                   < LONELY * c.side for o in seen)

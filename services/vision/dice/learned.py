"""Read two dice on a frame from a camera nobody calibrated: candidates found by their pips
(candidates.py), each crop judged by the face classifier (classifier.py), a crop it is
unsure of by the mean of its turns and mirror images (TURN_P).

Decide only when the frame is plain: exactly two dice, each seen by the classifier as a flat
face with at least FACE_P of its belief (GUESSED_P when its pips make no grid), every
candidate on one die agreeing on the value,
no candidate anywhere looking like a leaning die (LEAN_P; a lone pip split off a pair is
looked at for a 1's face only), nothing else looking like an unread
die (UNSURE_P), the two dice of about one size and apart. Anything else is no decision with
its reason (seed 000 §3.1.5: the «tirada nula» cases are for people): `cocked`, `no_dice`,
`single_die`, `too_many_dice`, `overlap`, `unreadable`. The detail names each die's value,
belief, centre and side, and the value its pips' grid makes, so a person can check it.

A frame with no two sure dice is decided again with faces taken at RESCUE_P when the dice
read below FACE_P have pips making their value and the two dice's side faces fit one camera
(camera.py: a tilted camera shows flat dice's sides, which lowers the classifier's belief;
pale dice by their shaded sides alone when white print spoils their silhouettes);
a frame refused as `cocked` only for leaning views inside dice read sure (their own crops off
centre), when they fit one camera (`_inside`); a frame whose dice are seen leaning as a
tilted camera shows flat dice, when their side faces fit one camera (`_tilted`, looking at a
leaning view again without its side faces: side_faces.py).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from services.vision.dice import by_body, camera, side_faces
from services.vision.dice.candidates import (
    Candidate,
    Frame,
    at_side,
    colours_at,
    crop,
    distinct,
    same_size,
)
from services.vision.dice.classifier import LEANING, NOTHING, classify, turned
from services.vision.reading import Reading, no_decision
from services.vision.stats import column_medians

# Chosen on development frames only (README, "Without a calibration"): FACE_P 0.8 read a few
# more and decided more leaning dice; LEAN_P 0.5 refused flat dice as leaning (57 frames of
# the tuning set against 21).
FACE_P = 0.9       # a die's face: the classifier's belief in its value
# ... when its found pips make no grid (the candidate is their mean, its side a guess): a
# 1 seen as a 2 off its centre (0.92 and 0.95, tuning set, the model of 2026-11-26 04:08)
GUESSED_P = 0.97
LEAN_P = 0.7       # a leaning die anywhere refuses the frame
UNSURE_P = 0.5     # a die-like candidate no die accounts for: the frame is unreadable ...
# ... unless it lies on plain ground (`_plain`): dots of the cloth's print a few pip sizes
# apart, with no die's body round them, read 2 or 3 at 0.54-0.85 (fresh first-generator seeds
# 857001 and 858001: 3 of 30 frames missed so). On 1,351 development frames and 2,300 fresh
# ones (877001-882001) it changed nothing. A die whose body is the cloth's colour (a black
# die on an unlit navy cloth, widened 243) is plain too: it may be read, never refuse.
SAME_DIE = 0.5     # candidates within this many sides are one die
SAME_SIZE = 1.45   # two dice of one frame: sides within this ratio (a lone pip's guess)
HOLE_CHROMA = 30.0  # a 1's pip the colour of what lies round its die: a hole in printed ink
HOLE_BRIGHT = 1.35
# ... on HOLE_SHARE of a ring round its die: the median of the ring took a die's white 1
# lying across white print for a hole (3 of 1,351 readable development frames; those
# rings match the pip at 0.08-0.17, the holes the rule finds there at 0.75-0.96).
HOLE_SHARE = 0.65
# (HOLE_CHROMA was 25 until stop 30: a small hole's darkest pixel is the felt blurred with the
# ink round it, 22-26 off on the ring of a fresh leaning seed's printed 9, 957001 frame 479,
# read as a 1 beside a flat 6. 30 changed no other of 3,250 development frames nor any of
# 1,900 fresh ones: README, "Stop 30".)
APART = 1.1        # two dice's centres at least this many sides apart, else one lies on the other
# A lone pip whose ground 0.3 and 0.9 of a side round it is one colour (BGR distance of the
# medians): felt or print, never asked. On 1,950 development frames (dev-first, -tuning,
# -wide, -leaning, -solid) 20 skipped 30-34 % of all candidates, changed no value read and
# decided no further no-decision frame.
PLAIN = 20.0
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
# A frame refused as `cocked` only for leaning views inside dice read sure, of fewer pips than
# their value (a subset of a 4's pips off its centre: the crop shows the die's edge) is read
# when the two dice fit one camera (`_inside`). Within INSIDE of the die's side: development
# frames read 6 more of 1,350 (tuning set 359 -> 364, first generator 204 -> 205) and decided
# no further no-decision frame of 499, with or without the camera check.
INSIDE = 0.35
# A decided frame with a view beside one of its dice leaning GUARD_LEAN or more is kept only
# when the dice's shaded sides fit one camera (`_guard`): on development frames it refused 2
# of the 4 leaning frames decided of 499 (leaning set 128, TUNING validation 35) and 6 of
# 1,350 readable frames (5 in the foreign renderer's tuning region, 1 of the solid camera).
GUARD_LEAN = 0.5
# A crop likely a die (nothing below TURN_NOTHING) that the classifier is less sure of than
# TURN_P is judged by the mean of its 8 turns and mirror images (classifier.turned). On
# development frames (README, "Turned crops") of 1,351 readable: 28 more read; leaning dice
# decided 2 of 499 no-decision frames either way (one each side); a tenth of the crops.
TURN_P = 0.97
TURN_NOTHING = 0.5
# A frame with one sure die (`single_die`) is decided again at FACE_P with every other
# candidate also looked at at that die's side where its own is RESIZED times off (`_one_size`:
# a lone pip's side is a guess from its radius). Development frames: 11 more read of 1,351
# (tuning set 377 -> 383, solid camera 121 -> 125, widened 207 -> 208), no further
# no-decision frame decided (taking the rescue after it decided a leaning die: first
# generator 121); at 1.3 instead of 1.15, 9 more.
RESIZED = 1.15
# ... and a frame refused as `unreadable` with two sure dice, every face seen at a side
# RESIZED times off theirs looked at again at it (`_at_dice_side`). Development frames: 4
# more read of 1,351 (tuning set 386 -> 388, widened 209 -> 210, first generator 209 ->
# 210), no further no-decision frame decided.
# A frame refused as `cocked` (later also `no_dice`, `single_die` or `unreadable`: TILTED)
# whose two dice are both seen leaning, as a tilted camera shows flat dice, is read
# (`_tilted`) when each die's likeliest face has TILT_SHARE of the belief the lean leaves and
# is the face its pips' grid makes, and the dice fit one camera with sides pointing alike
# (camera.ALIKE).
# Development frames: solid camera 125 -> 141 of 226 at 0.5, 139 at 0.7, no further
# no-decision frame decided; without "both dice seen leaning" 7 of the leaning set's 150
# were. At 0.5 a fresh solid-camera seed (785001, frame 70) read a 4 with a lamp's glare
# in its middle as a 5 (share 0.51, the glare taken for its middle pip).
TILT_SHARE = 0.7
# ... and one die seen leaning beside one read flat (`_flat_beside`) when their leans are
# less than LEAN_GAP apart. Without the gap, on the development solid camera (780002) and two
# fresh solid seeds (790001, 791001) 60 frames were read so, all right, and 8 of 1,350
# frames of the leaning set and three fresh leaning seeds were decided, each with leans
# 0.67-0.99 apart (a die seen flat from above beside one plainly leaning); the gap costs
# 8 of the 60. Fresh seeds after it: solid 798001 139 -> 159 and 801001 144 -> 166 of 300
# read, leaning 799001 and 800001 no further frame decided of 800.
LEAN_GAP = 0.65
# A leaning view within SIDE_FACE sides of a die is that die's side face (`_tilted`), not a
# leaning die: under the solid camera's steep tilts the views centred on a flat die's side
# face lie 0.55-0.91 sides from its top face's centre and read leaning at 0.70-0.99 (12
# development frames refused for them alone). Two dice are APART (1.1 sides) or more.
# At SAME_DIE (0.5), as before: development solid camera 157 of 226; 0.75: 167; 1.0: 169,
# used seeds solid 786001 160 -> 168 of 223, no further no-decision frame decided of 1,400.
SIDE_FACE = 1.0
# `_tilted` also reads two dice both read flat (at RESCUE_P, each backed by its pips' grid)
# with leaning views beside them, when both dice's side vectors are SIDE_SHOWN sides long at
# least: a tilted camera shows every die's side (on the tuning region the shorter of a pair's
# vectors has a median of 0.03 sides at tilts of 0-3 degrees, 0.12 at 9-12, 0.17 at 12-15),
# and a flat die seen from above shows none, so two such dice are not a tilted camera's; and
# when their most leaning views are under LEAN_GAP apart (`_sides_alike`). Development
# frames: +4 read (solid camera 3, tuning set 1), no further no-decision frame decided;
# SIDE_SHOWN 0.1 costs a solid frame (vectors 0.05) and a used tuning seed's (0.12 and 0.01,
# 742001 frame 228), `_sides_alike` a solid frame (151: leans 0.05 and 0.81).
SIDE_SHOWN = 0.1
# Frames still refused for these reasons are looked at for a tilted camera's dice (`_tilted`).
TILTED = ("cocked", *RESCUED)
# Stricter: a die's value must also be the one its found pips' grid makes. Off: on the
# development frames it refused 25 of 344 dice read right (pips missed or one too many), and
# no value read wrong was refused by it.
GRID_AGREES = False
# A leaning view showing a side face is looked at again without it (`_unsided`,
# side_faces.py) when `_as_face` does not take it. Development frames: solid camera 171 ->
# 178 of 226, the rest unchanged, no further no-decision frame decided (at BEYOND 0.55: 175,
# and 174 with the grid's face alone, without FACE_P for another); used seeds: solid 786001
# +2.
UNSIDED = True
# A leaning view more than BIG times the side of the frame's biggest sure die whose grid
# measures it (two pips or more making its value) is no die of this roll (the two dice of one
# frame are one size) and refuses nothing (`decide`): a lone spot's side guessed from its
# radius 2.5-5.6 dice wide (half resolution doubles it) crops a die small in the middle of
# the felt round it, which the classifier may call leaning (first generator 1298001 frame
# 186: 234 px beside dice of 42, leaning 0.87). Development frames and 3,000 of used first-
# generator seeds: +3 read, nothing else changed; fresh seeds (`score_ab --ref ff04832`,
# 3,600 frames): first 1328001 443 -> 444 of 448, solid 1331001 185 -> 187 of 236, leaning
# 1327001 and 1337001 (1,400 frames) as before, 0 wrong.
BIG = 2.0
# A frame refused as `unreadable` whose two sure dice both have guessed sides (lone pips, or
# pips making no grid) is looked at again at the mean of the two (`_at_dice_side`): a lamp's
# streak by a 1's pip swells the pip, and the guess from its radius, 55 px beside another 1's
# 32 (first generator 1058001 frame 599, "dice of different sizes"). Development frames and
# 1,200 of used first-generator seeds: +1 (that frame), nothing else changed; fresh seeds
# (2,500 frames): first 1318001 450 -> 451 of 456 (frame 114, a 1 and a 6), nothing else.
GUESSED_SIDES = True
# A decided frame with no leaning view beside its dice (GUARD_LEAN) is refused as `cocked`
# when its dice fit no one camera by both measures at UNFIT or more (`_unfit`): a white die
# cocked on the cloth, its top face read sure, shows a side face as big as half its top (the
# TUNING region's white style alone: 11 of 685 leaning frames decided, 5 at the first look,
# 4 rescued, 2 by a look again). On flat pairs the whole silhouette misfits often (white
# print joins a white die: 168 of 464 read right over 0.2) and the shaded part seldom (0 of
# them; 11 of 1,264 other development reads, dice whose lit side it misses), both together
# on 5 of 1,728.
# Development frames: 0.2 caught 5 leaks and cost 5 reads, 0.24 caught 4 and cost 3, 0.3
# caught 2 and cost 1. Fresh seeds at 0.24 (`dev_sets read --set learned.UNFIT=0`):
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


@dataclass(frozen=True)
class Seen:
    candidate: Candidate
    value: int         # the classifier's class
    belief: float      # its probability
    lean: float        # the probability of a leaning die
    rival: float = 0.0  # the probability of the likeliest other face (1-6)
    rival_face: int = 0  # that face
    plain: bool = False  # on plain ground (`_plain`): no die's body, so never `unsure`


def read_learned(image: np.ndarray, frame: Frame | None = None) -> Reading:
    frame = frame or Frame(image)
    seen = look(image, frame)
    first = reading = decide(seen)
    dice = _surest(seen)
    if reading.no_decision and reading.reason == "cocked":
        reading = _inside(image, seen) or reading
    elif reading.no_decision and reading.reason in RESCUED:
        reading = _rescue(image, seen) or reading
        dice = _surest(seen, RESCUE_P, RESCUE_P)
    if reading.no_decision and reading.reason in TILTED and (tilted := _tilted(image, seen)):
        reading, seen = tilted
        dice = _surest(seen, RESCUE_P, RESCUE_P)
    for look_again in AGAIN.get(reading.reason or "", ()) if reading.no_decision else ():
        more = look_again(frame, seen)
        if not (again := decide(more)).no_decision:
            seen, reading, dice = more, again, _surest(more)
            break
    return reading if reading.no_decision else \
        _guard(image, seen, reading, dice, later=reading is not first)


def _one_size(frame: Frame, seen: list[Seen]) -> list[Seen]:
    """What was seen, and every other candidate looked at again at the side of the frame's
    one sure die where its own is RESIZED times off it (two dice of one frame are one size;
    a lone pip's side is a guess from its radius). The frame is then decided at FACE_P
    only."""
    sure = _surest(seen)
    if len(sure) != 1:
        return seen
    die = sure[0].candidate
    again = {dataclasses.replace(s.candidate, side=die.side) for s in seen
             if not _near(s.candidate, die) and _sizes_apart(s.candidate.side, die.side, RESIZED)}
    return seen + _look(frame.image, sorted(again, key=lambda c: (c.x, c.y)))


def _at_dice_side(frame: Frame, seen: list[Seen]) -> list[Seen]:
    """What was seen, each face's view (1-6) whose side is RESIZED times off the frame's die
    side replaced by its view at that side: the mean side of its two sure dice whose grids
    of two pips or more measure it (a lone pip's side is a guess from its radius, and two
    dice of one frame are one size). For a frame refused as `unreadable`: a 5 read from a
    lone pip at 38 px beside a 3 of 56 ("dice of different sizes"), a pip read 2 at 0.50 at
    25 px beside dice of 63 (`unsure`). When neither die's grid measures it (both read from
    guesses, GUESSED_SIDES), the mean of their two sides. A leaning or nothing view is kept
    as it is; the frame is decided again at FACE_P only."""
    sure = _surest(seen)
    measured = _measured(sure)
    if len(sure) == 2 and not measured and GUESSED_SIDES:
        measured = [d.candidate.side for d in sure]
    if len(sure) != 2 or not measured:
        return seen
    side = float(np.mean(measured))
    off = [i for i, s in enumerate(seen)
           if 1 <= s.value <= 6 and _sizes_apart(s.candidate.side, side, RESIZED)]
    again = _look(frame.image, [dataclasses.replace(seen[i].candidate, side=side) for i in off])
    swap = dict(zip(off, again))
    return [swap.get(i, s) for i, s in enumerate(seen)]


def _another_die(frame: Frame, seen: list[Seen]) -> list[Seen]:
    """What was seen and, when it shows one sure die, the views of the candidates found on
    pieces of the frame in that die's body colour, by pips of their own contrast (by_body.py:
    a dim die's pips, or pips run into glare or the die's corner, that the frame's one pip
    level missed)."""
    sure = _surest(seen)
    if len(sure) != 1:
        return seen
    return seen + _look(frame.image, by_body.candidates(frame.image, sure[0].candidate))


def _streaked(frame: Frame, seen: list[Seen]) -> list[Seen]:
    """What was seen and the views of the candidates the pips inside spots that are no pip
    make (candidates.Frame.streaked: a lamp's streak run into a pip, on the first
    generator's dice the commonest miss), those not seen already, when the frame's sure
    dice have bright pips (a streak is bright; the dice of a roll are a pair): pips of their
    pips' size."""
    dice = [d.candidate for d in _surest(seen)]
    if not dice or any(d.dark for d in dice):
        return seen
    known = {s.candidate for s in seen}
    return seen + _look(frame.image, [c for c in frame.streaked(dice) if c not in known])


def _at_side(frame: Frame, seen: list[Seen]) -> list[Seen]:
    """What was seen and, when it shows one sure die, the views of candidates of another die
    of its side among the frame's pips (candidates.at_side), those not seen already."""
    sure = _surest(seen)
    if not AT_SIDE or len(sure) != 1:
        return seen
    known = [s.candidate for s in seen]
    more = [c for c in at_side(frame.pips(), sure[0].candidate)
            if all(distinct(c, k) or k.fit is None for k in known)]
    more = [c for c, plain in zip(more, _plain(frame.image, more)) if not plain]
    return seen + _look(frame.image, more) if more else seen


# A frame still `single_die` is looked at once more for the other die among the frame's pips
# of the sure die's size and polarity, taken at its side (`_at_side`, candidates.at_side):
# the pip finder's groups link a white die's pips to dark gaps in print beside it, and no
# group, subset or corner pair of its own is the face alone (white 1346001: 11 of 33
# `single_die` misses had no candidate on the missed die). A candidate already seen at
# its place and size is not looked at again, unless that one is a group's mean (a guess).
# Development frames (the 26 sets, README step 15): +32 reads (white +25, TUNING region +7),
# no further no-decision frame decided of 6,895, no read lost, 0 wrong.
AT_SIDE = True


# A frame still refused for one of these reasons with the dice taken at one size (and, for
# one sure die, the other looked for by its body; then both, by the pips under a lamp's
# streak; then the other among the pips of the sure die's size, at its side): the
# candidates looked at again, in turn (decided at FACE_P only, never rescued).
AGAIN = {"single_die": (_one_size, _another_die, _streaked, _at_side),
         "unreadable": (_at_dice_side, _streaked)}


def _sizes_apart(a: float, b: float, ratio: float) -> bool:
    """Are two sides more than `ratio` times apart?"""
    return max(a, b) > ratio * min(a, b)


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


def _tilted(image: np.ndarray, seen: list[Seen]) -> tuple[Reading, list[Seen]] | None:
    """The reading of a frame still refused (TILTED) whose dice are seen leaning, as a tilted
    camera shows flat dice (their side faces in view), and what it was decided on; or None.
    A leaning view is taken as its likeliest face (`_as_face`) when that face has TILT_SHARE
    of the belief the lean leaves and is the face its pips' grid makes, or as the face it
    reads without its side faces (`_unsided`; one lying on a surer die's side face is that
    die's, `_tops`); the frame is decided as by `decide` at RESCUE_P when both dice are such
    views, or one is and the other is read flat as a tilted camera's die may be
    (`_flat_beside`), or both are read flat, each backed by its pips' grid (`_grid_backs`);
    both side vectors SIDE_SHOWN long when both dice are read flat or one is read without
    its side faces (a camera tilted enough to show one flat die's sides shows both); every other
    view leaning LEAN_P or more lies within SIDE_FACE of one of the two (it is that die's
    side face), and the two dice's side faces fit one camera (camera.py: a leaning die's side
    points where it leans; a flat die beside it, seen from above, shows none)."""
    faces = {s.candidate: f for s in seen if (f := _as_face(s)) is not None}
    unsided = {s.candidate: f for s in seen if s.candidate not in faces
               and (f := _unsided(image, s) if UNSIDED else None) is not None}
    dice = _surest([faces.get(s.candidate, unsided.get(s.candidate, s)) for s in seen
                    if s.value != LEANING or s.candidate in faces or s.candidate in unsided],
                   RESCUE_P, RESCUE_P)
    dice = _tops(dice, unsided)
    faces |= {c: f for c, f in unsided.items() if any(d.candidate == c for d in dice)
              or not _on_die(f, dice)}
    if len(dice) != 2:
        return None
    read_flat = [d for d in dice if d.candidate not in faces]
    if len(read_flat) == 2 and not (all(_grid_backs(d, seen) for d in dice) and
                                    _sides_alike(dice, seen)):
        return None
    if len(read_flat) == 1:   # the other die is a leaning view taken as a face: that view
        other = next(d.candidate for d in dice if d.candidate in faces)
        if not _flat_beside(read_flat[0], next(s for s in seen if s.candidate == other), seen):
            return None
    on_dice = [s for s in seen if s.value == LEANING and s.candidate not in faces
               and _on_die(s, dice)]
    flat = [faces.get(s.candidate, s) for s in seen if s not in on_dice]
    reading = decide(flat, RESCUE_P, RESCUE_P)
    if reading.no_decision:
        return None
    side_shown = len(read_flat) == 2 or any(d.candidate in unsided for d in dice)
    fits = _one_camera(image, reading, dice, alike=True,
                       shown=SIDE_SHOWN if side_shown else 0.0)
    if fits is None:
        return None
    return Reading("dice", values=fits.values, confidence=fits.confidence,
                   detail={**fits.detail, "tilted": True}), flat


def _tops(dice: list[Seen], unsided: dict[Candidate, Seen]) -> list[Seen]:
    """The dice but those read without their side faces (`unsided`) lying within SIDE_FACE of
    a die read surer: a view centred on a die's side face, its own side painted out, may
    read as a face too."""
    tops: list[Seen] = []
    for d in sorted(dice, key=lambda d: -d.belief):
        if not (d.candidate in unsided and _on_die(d, tops)):
            tops.append(d)
    return [d for d in dice if d in tops]


def _flat_beside(die: Seen, leaning: Seen, seen: list[Seen]) -> bool:
    """May a die read flat (at RESCUE_P) beside one seen `leaning` be a flat die under the
    same tilted camera? Its pips' grid must back its value (`_grid_backs`), and the classifier
    must not see the two plainly apart (their leans LEAN_GAP or more apart), as a leaning die
    beside a flat one seen from above; a tilted camera shows both dice's sides alike."""
    return _grid_backs(die, seen) and leaning.lean - die.lean < LEAN_GAP


def _sides_alike(dice: list[Seen], seen: list[Seen]) -> bool:
    """Do two dice read flat show their sides alike, as under one tilted camera: the most
    leaning views on each (within SIDE_FACE, its own view included) less than LEAN_GAP
    apart? A die leaning on its own beside one seen flat from above shows a plainly leaning
    view (a fresh leaning seed, 1007001 frame 526: a cocked 4 read flat at 0.81 with a view
    leaning 0.98 on it, beside a 2 whose views lean 0.00)."""
    a, b = (max((s.lean for s in seen if _on_die(s, [d]) and not s.candidate.split),
                default=d.lean) for d in dice)
    return abs(a - b) < LEAN_GAP


def _as_face(s: Seen) -> Seen | None:
    """A leaning view (not a `split` lone pip) as its likeliest face, with that face's share
    of the belief the lean leaves, when the share is TILT_SHARE or more and its pips' grid
    makes that face; else None."""
    if s.value != LEANING or s.candidate.split or s.candidate.fit != s.rival_face:
        return None
    share = s.rival / max(1.0 - s.lean, 1e-6)
    return Seen(s.candidate, s.rival_face, share, 0.0) if share >= TILT_SHARE else None


def _unsided(image: np.ndarray, s: Seen) -> Seen | None:
    """A leaning view (not a `split` lone pip) showing a side face (its side vector SIDE_SHOWN
    long at least) looked at again without it (side_faces.py): the face the classifier then
    sees, when that is the face its pips' grid makes at TILT_SHARE or another at FACE_P
    (under a steep camera the grid often misses a pip or takes one off a side face); else
    None."""
    if s.value != LEANING or s.candidate.split:
        return None
    c = s.candidate
    v = camera.side_vector(image, c, None)     # measured alone: no other die known yet
    if v is None or float(np.linalg.norm(v)) < SIDE_SHOWN:
        return None
    p = turned(side_faces.without_sides(image, c, v)[None])[0]
    k, belief = int(p.argmax()), float(p.max())    # a Python float: compared in float64
    if not 1 <= k <= 6 or belief < (TILT_SHARE if k == c.fit else FACE_P):
        return None
    return Seen(c, k, belief, 0.0)


def _within(s: Seen, dice: list[list[Seen]]) -> bool:
    """Is this view inside a die read sure (within INSIDE of its side from its centre) and
    made of fewer pips than its value: a crop of that die off its centre, which shows its
    edge as a leaning die's side would?"""
    return any(np.hypot(s.candidate.x - d[0].candidate.x, s.candidate.y - d[0].candidate.y)
               < INSIDE * d[0].candidate.side and s.candidate.pips < d[0].value for d in dice)


def decide(seen: list[Seen], face_p: float = FACE_P, guessed_p: float = GUESSED_P,
           inside: bool = False) -> Reading:
    """The frame's reading from what the classifier saw at each candidate, a die's face taken
    at `face_p` (`guessed_p` where its pips make no grid); `inside`: a leaning view inside a
    die read sure is that die's (`_within`), not a leaning die's. A leaning view more than
    BIG times the side of the biggest sure die its grid measures is no die of this roll."""
    detail: dict[str, Any] = {"dice": []}
    sure = _sure(seen, face_p, guessed_p)
    dice = _dice(sure)
    leaning = [s for s in seen if s.lean >= LEAN_P and not s.candidate.split]
    if BIG and (measured := _measured(sure)):
        leaning = [s for s in leaning if s.candidate.side <= BIG * max(measured)]
    if inside:
        leaning = [s for s in leaning if not _within(s, dice)]
    if leaning:
        s = max(leaning, key=lambda s: s.lean)
        return no_decision("dice", "cocked", leaning=_where(s), **detail)
    detail["dice"] = [_where(d[0]) for d in dice]
    if any(len({s.value for s in d}) > 1 or _read_otherwise(d[0], seen) for d in dice):
        return no_decision("dice", "unreadable", why="one die read two ways", **detail)
    if GRID_AGREES and not all(_grid_agrees(d[0], seen) for d in dice):
        return no_decision("dice", "unreadable", why="no pip grid makes the value read",
                           **detail)
    unsure = [s for s in seen if 1 <= s.value <= 6 and s.belief >= UNSURE_P and s not in sure
              and not s.plain and not any(_near(s.candidate, d[0].candidate) for d in dice)]
    if len(dice) != 2:
        reason = {0: "no_dice", 1: "single_die"}.get(len(dice), "too_many_dice")
        return no_decision("dice", reason, **detail)
    if unsure:
        return no_decision("dice", "unreadable", unsure=[_where(s) for s in unsure], **detail)
    a, b = (d[0] for d in dice)
    sa, sb = a.candidate.side, b.candidate.side
    if _sizes_apart(sa, sb, SAME_SIZE):
        return no_decision("dice", "unreadable", why="dice of different sizes", **detail)
    if np.hypot(a.candidate.x - b.candidate.x, a.candidate.y - b.candidate.y) < \
            APART * (sa + sb) / 2:
        return no_decision("dice", "overlap", **detail)
    values = sorted((a.value, b.value))
    return Reading("dice", values=(values[0], values[1]), confidence=min(a.belief, b.belief),
                   detail=detail)


def _measured(dice: list[Seen]) -> list[float]:
    """The sides of these views of dice that their pips' grid measures: two pips or more
    making the value read (a lone pip's side is a guess from its radius)."""
    return [d.candidate.side for d in dice if d.candidate.pips > 1 and d.candidate.fit == d.value]


def _read_otherwise(die: Seen, seen: list[Seen]) -> bool:
    """Is a die read from a view whose pips' grid does not make its value also seen as
    another face at UNSURE_P or more, one its pips' grid makes? A green translucent 4 showed
    the ghost of a pip of its far side in its middle: the lone ghost's crop read 5 at 0.97,
    the 4's grid 4 at 0.88, and the frame was read (4, 5) for (4, 4) (a fresh widened seed,
    811001, frame 34)."""
    if die.candidate.fit == die.value:
        return False
    return any(1 <= s.value <= 6 and s.value != die.value and s.belief >= UNSURE_P
               and s.candidate.fit == s.value and _near(s.candidate, die.candidate)
               for s in seen)


def look(image: np.ndarray, frame: Frame | None = None) -> list[Seen]:
    """Every candidate with the classifier's view of it: at the frame's resolution without
    the pips' cores, then, when that does not show two sure dice nor a leaning die (decide
    refuses a frame with a leaning die whatever else is seen; only which leaning die its
    detail names could differ), with the cores and at half resolution too."""
    frame = frame or Frame(image)
    first = _look(image, frame.candidates(cores=False))
    if len(_dice(_sure(first))) >= 2 or any(s.lean >= LEAN_P for s in first):
        return first
    # The second look: the frame's candidates with the pips' cores (pipfinder: pips run into
    # a light die's corners; the cores can change a group, so its candidates are taken anew,
    # each one already looked at not looked at twice), then half resolution. A half-
    # resolution candidate of a place and size already looked at is left out before the
    # classifier sees it (what it would say of it is not kept). The classifier sees the new
    # candidates of both in one batch (a crop's probabilities do not depend on its batch).
    known = {s.candidate: s for s in first}
    full = frame.candidates()
    new = [c for c in full if c not in known]
    more = [c for c in frame.half() if not any(
        _near(c, t) and same_size(c, t) for t in full)]
    return [known[c] for c in full if c in known] + _look(image, new + more) + \
        _twos(image, frame, first)


def _twos(image: np.ndarray, frame: Frame, first: list[Seen]) -> list[Seen]:
    """The 2s read sure among the frame's pairs of pips (candidates.pairs) when the first look
    found one sure die (`single_die`, the commonest miss), away from it and not on plain
    ground (`_plain`). A pair is a 2 or nothing: what else the classifier says of it is not
    kept, so a pair can add a die and never refuse a frame; and it is judged by its own
    view, not its turns (with turns as other crops have, a second-look frame took 7 ms more
    instead of 4, and as many were read)."""
    one = _surest(first)
    pairs = frame.pairs([one[0].candidate]) if len(one) == 1 else []
    pairs = [c for c, plain in zip(pairs, _plain(image, pairs)) if not plain]
    if not pairs:
        return []
    probs = classify(_crops(image, pairs))
    return [Seen(c, 2, float(p[2]), float(p[LEANING])) for c, p in zip(pairs, probs)
            if p[2] >= FACE_P]


def _sure(seen: list[Seen], face_p: float = FACE_P, guessed_p: float = GUESSED_P) -> list[Seen]:
    """The views of a flat die's face with belief `face_p` at least (`guessed_p` where its
    pips make no grid)."""
    return [s for s in seen if 1 <= s.value <= 6 and
            s.belief >= (face_p if s.candidate.fit is not None else guessed_p)]


def _surest(seen: list[Seen], face_p: float = FACE_P,
            guessed_p: float = GUESSED_P) -> list[Seen]:
    """The surest view of each die read at `face_p` (`guessed_p`: see `_sure`)."""
    return [d[0] for d in _dice(_sure(seen, face_p, guessed_p))]


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
    if any(d.belief < FACE_P and not _grid_backs(d, seen) for d in dice):
        return None
    if any(s.lean >= UNSURE_P and not s.candidate.split and not _on_die(s, dice)
           for s in seen):
        return None
    rescued = _one_camera(image, reading, dice)
    if rescued is None:   # a shaded rescue's sides fit under camera.FIT, below UNFIT
        return _shaded_camera(image, reading, dice) if RESCUE_SHADED else None
    if not RESCUE_UNFIT:
        return rescued
    shaded = camera.misfit(image, dice[0].candidate, dice[1].candidate, shaded=True)
    return None if shaded is not None and shaded >= UNFIT else rescued


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


def _look(image: np.ndarray, cands: list[Candidate]) -> list[Seen]:
    """The classifier's view of each candidate; a lone pip on plain ground (`_plain`) is
    nothing without asking it (half of all candidates are lone pips, nearly all of them
    dots and print on the cloth), and any other that may be an unread die (a face read at
    UNSURE_P, below GUESSED_P) is marked `plain` when it lies on it."""
    lone = [i for i, c in enumerate(cands) if c.pips == 1]
    plain = {i for i, p in zip(lone, _plain(image, [cands[i] for i in lone])) if p}
    asked = [c for i, c in enumerate(cands) if i not in plain]
    if not asked:
        return [Seen(c, NOTHING, 1.0, 0.0) for c in cands]
    crops = _crops(image, asked)
    probs = classify(crops)
    unsure = np.flatnonzero((probs.max(axis=1) < TURN_P) & (probs[:, NOTHING] < TURN_NOTHING))
    if len(unsure):
        probs[unsure] = turned(crops[unsure], probs[unsure])
    k = probs.argmax(axis=1)
    faces = probs[:, 1:7].copy()
    own = np.flatnonzero((k >= 1) & (k <= 6))
    faces[own, k[own] - 1] = 0.0   # a face's rival is another face
    belief = probs[np.arange(len(asked)), k]
    doubt = [asked[i] for i in np.flatnonzero((k >= 1) & (k <= 6) & (belief >= UNSURE_P) &
                                             (belief < GUESSED_P)) if asked[i].pips > 1]
    on_plain = {c for c, p in zip(doubt, _plain(image, doubt)) if p}
    seen = {c: Seen(c, int(k[i]), float(belief[i]), float(probs[i, LEANING]),
                    float(faces[i].max()), int(faces[i].argmax()) + 1, c in on_plain)
            for i, c in enumerate(asked)}
    return [Seen(c, NOTHING, 1.0, 0.0) if s is None else
            Seen(c, NOTHING, s.belief, s.lean) if s.value == 1 and _hole(image, c) else s
            for c in cands for s in [seen.get(c)]]


def _crops(image: np.ndarray, cands: list[Candidate]) -> np.ndarray:
    """The classifier's crop of each candidate (candidates.crop), stacked."""
    return np.stack([crop(image, c.x, c.y, c.side) for c in cands])


def _plain(image: np.ndarray, cands: list[Candidate]) -> list[bool]:
    """Does each candidate lie on plain ground: the same colour (medians within PLAIN) on a
    ring 0.3 of its side round it, where a 1's body would be, and on one 0.9 out,
    where the cloth round a die would be? A die's 1 has its body inside and the cloth
    outside. All the candidates' rings read and their medians taken at once (the same values
    as one by one: a test keeps that code)."""
    if not cands:
        return []
    v = colours_at(image, cands, _PLAIN_RINGS)
    k, n = len(cands), len(_PLAIN_RINGS) // 2
    inner, outer = (column_medians(ring.transpose(1, 0, 2).reshape(n, -1)).reshape(k, 3)
                    for ring in (v[:, :n], v[:, n:]))
    return [bool(np.linalg.norm(d) < PLAIN) for d in inner - outer]


def _hole(image: np.ndarray, c: Candidate) -> bool:
    """Is a 1's pip a hole through to what lies round the die (a printed letter's counter in
    white ink on the felt reads as a pip on a white body)? Its colour (its most contrasted
    pixel within 2 px of its centre: a small hole is blurred) is the colour of at least
    HOLE_SHARE of a square ring 0.75 of a side out, beyond any turn of the die (chroma
    within HOLE_CHROMA, brightness within HOLE_BRIGHT times). Round a white 1 on a die lying
    across white print, the print is on part of that ring only."""
    x, y = int(round(c.x)), int(round(c.y))
    pip = image[max(y - 2, 0):y + 3, max(x - 2, 0):x + 3].reshape(-1, 3).astype(np.float32)
    around = colours_at(image, [c], _RING)[0]
    grey = pip.sum(axis=1)
    colour = pip[int(np.argmin(grey) if c.dark else np.argmax(grey))]
    hue = 255 * around / (around.sum(axis=1, keepdims=True) + 60)
    ratio = (around.sum(axis=1) + 1) / (float(colour.sum()) + 1)
    alike = (np.linalg.norm(hue - 255 * colour / (colour.sum() + 60), axis=1) < HOLE_CHROMA) & \
        (ratio > 1 / HOLE_BRIGHT) & (ratio < HOLE_BRIGHT)
    return bool(alike.mean() >= HOLE_SHARE)


_A = np.linspace(0, 2 * np.pi, 12, endpoint=False)
_PLAIN_RINGS = np.vstack([0.3 * np.stack([np.cos(_A), np.sin(_A)], 1),
                          0.9 * np.stack([np.cos(_A + 0.26), np.sin(_A + 0.26)], 1)])
_K = np.linspace(-0.75, 0.75, 7)[:-1]
_RING = np.array([*((k, -0.75) for k in _K), *((0.75, k) for k in _K),
                  *((-k, 0.75) for k in _K), *((-0.75, -k) for k in _K)])


def _dice(sure: list[Seen]) -> list[list[Seen]]:
    """Sure faces grouped by die, the surest first in each."""
    groups: list[list[Seen]] = []
    for s in sorted(sure, key=lambda s: -s.belief):
        home = next((g for g in groups if _near(s.candidate, g[0].candidate)), None)
        if home is None:
            groups.append([s])
        else:
            home.append(s)
    return groups


def _grid_agrees(die: Seen, seen: list[Seen]) -> bool:
    """Do the pips found on this die make the value the classifier read (the pips' count and
    grid, the explainable check beside the learned one)?"""
    return any(t.candidate.fit == die.value and _near(t.candidate, die.candidate) for t in seen)


def _near(a: Candidate, b: Candidate) -> bool:
    return _apart(a, b) < SAME_DIE


def _on_die(s: Seen, dice: list[Seen]) -> bool:
    """Does this view lie within SIDE_FACE of one of the dice (on its top or side face)?"""
    return any(_apart(s.candidate, d.candidate) < SIDE_FACE for d in dice)


def _apart(a: Candidate, b: Candidate) -> float:
    """How far apart two candidates' centres are, in the larger one's sides."""
    return float(np.hypot(a.x - b.x, a.y - b.y) / max(a.side, b.side))


def _where(s: Seen) -> dict[str, Any]:
    c = s.candidate
    return {"value": s.value, "belief": round(s.belief, 3), "centre": [round(c.x), round(c.y)],
            "side": round(c.side, 1), "pips_grid": c.fit}

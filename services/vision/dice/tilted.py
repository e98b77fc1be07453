"""Frames still refused (TILTED) whose dice are seen leaning as a tilted camera shows flat dice
(`_tilted`): a leaning view taken as its likeliest face (`_as_face`) or as the face it reads
without its side faces (`_unsided`, side_faces.py), one die seen leaning beside one read flat
(`_flat_beside`), or two read flat showing their sides alike (`_sides_alike`); views on a
die's side face are that die's (`_tops`), and the two dice's side faces must fit one camera
with sides pointing alike (rescue.py's `_one_camera`, camera.py). A steep camera's frame
whose first look stopped at one die's side face is looked at a second time (TILTED_AGAIN).
"""
from __future__ import annotations

import numpy as np

from services.vision.dice import camera, rescue, side_faces, views
from services.vision.dice.candidates import Candidate, Frame
from services.vision.dice.classifier import LEANING, turned
from services.vision.dice.rescue import _grid_backs, _one_camera
from services.vision.dice.views import Seen, _on_die, _surest, decide
from services.vision.reading import Reading

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
TILTED = ("cocked", *rescue.RESCUED)
# A leaning view showing a side face is looked at again without it (`_unsided`,
# side_faces.py) when `_as_face` does not take it. Development frames: solid camera 171 ->
# 178 of 226, the rest unchanged, no further no-decision frame decided (at BEYOND 0.55: 175,
# and 174 with the grid's face alone, without FACE_P for another); used seeds: solid 786001
# +2.
UNSIDED = True
# A frame whose first look stopped at a leaning view (views.look), in which `_tilted` finds
# one die showing its side faces SIDE_SEEN sides long (over the TUNING region's median at
# tilts of 12-15 degrees, 0.17: SIDE_SHOWN's note; a leaning die's own lean shows more), is
# looked at a second time with the pips' cores (views.second_look without half resolution:
# AGAIN_HALF) and `_tilted` tried again
# on all it saw (TILTED_AGAIN): under a steep camera the other die's corner pip runs into
# its lit corner and is found only with the cores, while its side face already stopped the
# first look (README, step 17). Development frames (the 41 sets): +23 read (solid camera
# 22), no read lost, no further no-decision frame decided; 0.992 of the speed on the TUNING
# region, 0.975 on the solid camera's. The whole second look for one or two dice read 32
# at 0.974 (TUNING), but the bench then timed foreign dice at 98 frames/s, under 100 (103
# at stop 37's bench; the wheel's unchanged reader 185 against 184).
TILTED_AGAIN = True
SIDE_SEEN = (0.2, 0.6)
AGAIN_HALF = False


def _tilted(image: np.ndarray, seen: list[Seen], frame: Frame | None = None
            ) -> tuple[Reading, list[Seen]] | None:
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
    points where it leans; a flat die beside it, seen from above, shows none).
    With the `frame` whose first look `seen` is, one die found showing its sides SIDE_SEEN
    long has the frame looked at a second time, with the pips' cores (TILTED_AGAIN), and
    read so again."""
    memo: dict[Candidate, Seen | None] = {}
    faces, unsided, dice = _dice(image, seen, memo)
    read = _read(image, seen, faces, unsided, dice) if len(dice) == 2 else None
    if read or frame is None or frame.looked_twice or not TILTED_AGAIN or \
            len(dice) != 1 or not _sides_seen(image, dice[0]):
        return read
    more = views.second_look(image, frame, seen, half=AGAIN_HALF)
    faces, unsided, dice = _dice(image, more, memo)
    return _read(image, more, faces, unsided, dice) if len(dice) == 2 else None


def _sides_seen(image: np.ndarray, die: Seen) -> bool:
    """Does the die show its side faces SIDE_SEEN sides long (measured alone; both bounds
    inclusive)?"""
    v = camera.side_vector(image, die.candidate, None)
    return v is not None and SIDE_SEEN[0] <= float(np.linalg.norm(v)) <= SIDE_SEEN[1]


def _dice(image: np.ndarray, seen: list[Seen], memo: dict[Candidate, Seen | None]
          ) -> tuple[dict[Candidate, Seen], dict[Candidate, Seen], list[Seen]]:
    """The leaning views taken as faces (`_as_face`), those read without their side faces
    (`_unsided`; each candidate's answer kept in `memo`, so that a second look does not ask
    again of the first look's views),
    and the dice they and the views read flat make at RESCUE_P (`_tops`)."""
    faces = {s.candidate: f for s in seen if (f := _as_face(s)) is not None}
    for s in seen:
        if s.candidate not in faces and s.candidate not in memo:
            memo[s.candidate] = _unsided(image, s) if UNSIDED else None
    unsided = {c: f for s in seen if (c := s.candidate) not in faces
               and (f := memo[c]) is not None}
    dice = _surest([faces.get(s.candidate, unsided.get(s.candidate, s)) for s in seen
                    if s.value != LEANING or s.candidate in faces or s.candidate in unsided],
                   rescue.RESCUE_P, rescue.RESCUE_P)
    dice = _tops(dice, unsided)
    faces |= {c: f for c, f in unsided.items() if any(d.candidate == c for d in dice)
              or not _on_die(f, dice)}
    return faces, unsided, dice


def _read(image: np.ndarray, seen: list[Seen], faces: dict[Candidate, Seen],
          unsided: dict[Candidate, Seen], dice: list[Seen]
          ) -> tuple[Reading, list[Seen]] | None:
    """`_tilted`'s reading of two dice (`_dice`), or None."""
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
    reading = decide(flat, rescue.RESCUE_P, rescue.RESCUE_P)
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
    if not 1 <= k <= 6 or belief < (TILT_SHARE if k == c.fit else views.FACE_P):
        return None
    return Seen(c, k, belief, 0.0)

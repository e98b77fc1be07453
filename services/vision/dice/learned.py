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
leaning view again without its side faces: side_faces.py; and at a steep camera's frame a
second time when its first look stopped at one die's side face: TILTED_AGAIN).

`read_learned` below runs them in turn: the first decision, `_inside` or `_rescue`,
`_tilted`, the looks again (AGAIN), then `_guard` on a decided frame. Each rule lives, with
its constants and how they were measured, in a module of its own:
- views.py: `Seen`, `look` (the classifier's view of every candidate: TURN_P, `_plain`,
  `_hole`, `_twos`) and `decide` (the first decision: FACE_P, GUESSED_P, LEAN_P, UNSURE_P,
  SAME_SIZE, APART, INSIDE, BIG), and the helpers the others share (`_surest`, `_near`,
  `_on_die` with SIDE_FACE);
- rescue.py: `_inside`, `_rescue` and `_shaded_camera` (RESCUE_P, RESCUED, RIVAL_P, LONELY,
  RESCUE_UNFIT, RESCUE_SHADED), and `_one_camera`, the fit they and `_tilted` take;
- tilted.py: `_tilted` and its parts (`_as_face`, `_unsided`, `_tops`, `_flat_beside`,
  `_sides_alike`: TILTED, TILT_SHARE, LEAN_GAP, SIDE_SHOWN, UNSIDED);
- again.py: the looks again (AGAIN: `_one_size`, `_at_dice_side`, `_another_die`,
  `_streaked`, `_at_side`; RESIZED, GUESSED_SIDES, AT_SIDE);
- guard.py: `_guard`, the last check of a decided frame (GUARD_LEAN, `_unfit` with UNFIT,
  `_pale`).
A name with a leading underscore is the dice reader's own: its modules import it from each
other. A threshold is read from the module that defines it when it is used (`views.FACE_P`,
`rescue.RESCUE_P`, `guard.UNFIT`, `tilted.TILTED`...), never imported by name: a test
patches it, and `dev_sets read --set` sets it, once, for every rule that reads it.
"""
from __future__ import annotations

import numpy as np

from services.vision.dice import rescue, tilted
from services.vision.dice.again import AGAIN, decided
from services.vision.dice.candidates import Frame
from services.vision.dice.guard import _guard
from services.vision.dice.rescue import _inside, _rescue
from services.vision.dice.tilted import _tilted
from services.vision.dice.views import _surest, decide, look
from services.vision.reading import Reading


def read_learned(image: np.ndarray, frame: Frame | None = None) -> Reading:
    frame = frame or Frame(image)
    seen = look(image, frame)
    first = reading = decide(seen)
    dice = _surest(seen)
    if reading.no_decision and reading.reason == "cocked":
        reading = _inside(image, seen) or reading
    elif reading.no_decision and reading.reason in rescue.RESCUED:
        reading = _rescue(image, seen) or reading
        dice = _surest(seen, rescue.RESCUE_P, rescue.RESCUE_P)
    if reading.no_decision and reading.reason in tilted.TILTED and \
            (by_tilt := _tilted(image, seen, frame)):
        reading, seen = by_tilt
        dice = _surest(seen, rescue.RESCUE_P, rescue.RESCUE_P)
    for look_again in AGAIN.get(reading.reason or "", ()) if reading.no_decision else ():
        more = look_again(frame, seen)
        again, again_dice = decided(image, look_again, more)
        if not again.no_decision:
            seen, reading, dice = more, again, again_dice
            break
    return reading if reading.no_decision else \
        _guard(image, seen, reading, dice, later=reading is not first)

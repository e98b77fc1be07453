"""The looks again (AGAIN): a frame still refused as `single_die` or `unreadable` has its
candidates looked at again, in turn, and is decided at FACE_P only: at the one sure die's
side (`_one_size`), at the two dice's side (`_at_dice_side`), by the sure die's body colour
(`_another_die`, by_body.py), by the pips inside a lamp's streak (`_streaked`), among the
pips of the sure die's size, at its side (`_at_side`, candidates.at_side; what this last
one sees may be rescued too: `decided`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from services.vision.dice import by_body, rescue
from services.vision.dice.candidates import Frame, at_side, distinct
from services.vision.dice.rescue import _rescue
from services.vision.dice.views import (
    Seen,
    _look,
    _measured,
    _near,
    _plain,
    _sizes_apart,
    _surest,
    decide,
)
from services.vision.reading import Reading

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
# A frame refused as `unreadable` whose two sure dice both have guessed sides (lone pips, or
# pips making no grid) is looked at again at the mean of the two (`_at_dice_side`): a lamp's
# streak by a 1's pip swells the pip, and the guess from its radius, 55 px beside another 1's
# 32 (first generator 1058001 frame 599, "dice of different sizes"). Development frames and
# 1,200 of used first-generator seeds: +1 (that frame), nothing else changed; fresh seeds
# (2,500 frames): first 1318001 450 -> 451 of 456 (frame 114, a 1 and a 6), nothing else.
GUESSED_SIDES = True


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


# A frame still `single_die` is looked at once more for the other die among the frame's pips
# of the sure die's size and polarity, taken at its side (`_at_side`, candidates.at_side):
# the pip finder's groups link a white die's pips to dark gaps in print beside it, and no
# group, subset or corner pair of its own is the face alone (white 1346001: 11 of 33
# `single_die` misses had no candidate on the missed die). A candidate already seen at
# its place and size is not looked at again, unless that one is a group's mean (a guess).
# Development frames (the 26 sets, README step 15): +32 reads (white +25, TUNING region +7),
# no further no-decision frame decided of 6,895, no read lost, 0 wrong.
AT_SIDE = True


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


# What `_at_side` saw, when still no decision at FACE_P, is rescued as a first look's would
# be (rescue._rescue: the die read below FACE_P backed by its pips' grid, the two dice
# fitting one camera) when neither die leans AT_SIDE_LEAN or more (`decided`): white dice on
# print found so read 0.79-0.88. Development and used frames (the 26 sets and 8 fresh ones
# of this stop, 16,250 frames): +7 reads and 2 leaks (white_leaning dice found at 0.52 and
# 0.57, leaning 0.37 and 0.42); at 0.25 +6 reads (a solid camera's 2 leaning 0.32 lost), no
# further no-decision frame decided.
AT_SIDE_RESCUE = True
AT_SIDE_LEAN = 0.25


def decided(image: np.ndarray, look_again: Callable[[Frame, list[Seen]], list[Seen]],
            more: list[Seen]) -> tuple[Reading, list[Seen]]:
    """The reading of what a look again saw, and the dice it stands on: `decide` at
    FACE_P; for `_at_side`'s, when that is no decision, `_rescue` when neither of its dice
    leans AT_SIDE_LEAN or more (AT_SIDE_RESCUE)."""
    reading = decide(more)
    if reading.no_decision and look_again is _at_side and AT_SIDE_RESCUE:
        dice = _surest(more, rescue.RESCUE_P, rescue.RESCUE_P)
        # the lean first: it costs nothing, the rescue measures the two dice's sides
        if len(dice) == 2 and max(d.lean for d in dice) < AT_SIDE_LEAN and \
                (rescued := _rescue(image, more)) is not None:
            return rescued, dice
    return reading, _surest(more)


# A frame still refused for one of these reasons with the dice taken at one size (and, for
# one sure die, the other looked for by its body; then both, by the pips under a lamp's
# streak; then the other among the pips of the sure die's size, at its side): the
# candidates looked at again, in turn (decided at FACE_P only, never rescued, but
# `_at_side`'s: `decided`).
AGAIN = {"single_die": (_one_size, _another_die, _streaked, _at_side),
         "unreadable": (_at_dice_side, _streaked)}

"""What the classifier sees of a frame's candidates, and the first decision on it (learned.py
reads a frame with these; the rescue, tilted, again and guard modules read what they see).

`look` asks the face classifier (classifier.py) about each candidate found by its pips
(candidates.py): a crop it is unsure of by the mean of its turns and mirror images (TURN_P),
a lone pip on plain ground (`_plain`) or a 1's pip that is a hole in printed ink (`_hole`)
taken as nothing; a frame whose first look shows no two sure dice nor a leaning die is looked
at again with the pips' cores, at half resolution and by its pairs of pips (`_twos`).
`decide` reads two dice from those views (`Seen`) or refuses the frame with its reason. The
small helpers the other rules share are here too: the sure views (`_sure`, `_surest`), dice
grouped (`_dice`), how far apart two views are (`_near`, `_on_die`, `_apart`,
`_sizes_apart`) and a die's detail (`_where`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from services.vision.dice.candidates import Candidate, Frame, colours_at, crop, same_size
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
# A frame refused as `cocked` only for leaning views inside dice read sure, of fewer pips than
# their value (a subset of a 4's pips off its centre: the crop shows the die's edge) is read
# when the two dice fit one camera (`_inside`). Within INSIDE of the die's side: development
# frames read 6 more of 1,350 (tuning set 359 -> 364, first generator 204 -> 205) and decided
# no further no-decision frame of 499, with or without the camera check.
INSIDE = 0.35
# A crop likely a die (nothing below TURN_NOTHING) that the classifier is less sure of than
# TURN_P is judged by the mean of its 8 turns and mirror images (classifier.turned). On
# development frames (README, "Turned crops") of 1,351 readable: 28 more read; leaning dice
# decided 2 of 499 no-decision frames either way (one each side); a tenth of the crops.
TURN_P = 0.97
TURN_NOTHING = 0.5
# A leaning view within SIDE_FACE sides of a die is that die's side face (`_tilted`), not a
# leaning die: under the solid camera's steep tilts the views centred on a flat die's side
# face lie 0.55-0.91 sides from its top face's centre and read leaning at 0.70-0.99 (12
# development frames refused for them alone). Two dice are APART (1.1 sides) or more.
# At SAME_DIE (0.5), as before: development solid camera 157 of 226; 0.75: 167; 1.0: 169,
# used seeds solid 786001 160 -> 168 of 223, no further no-decision frame decided of 1,400.
SIDE_FACE = 1.0
# Stricter: a die's value must also be the one its found pips' grid makes. Off: on the
# development frames it refused 25 of 344 dice read right (pips missed or one too many), and
# no value read wrong was refused by it.
GRID_AGREES = False
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


@dataclass(frozen=True)
class Seen:
    candidate: Candidate
    value: int         # the classifier's class
    belief: float      # its probability
    lean: float        # the probability of a leaning die
    rival: float = 0.0  # the probability of the likeliest other face (1-6)
    rival_face: int = 0  # that face
    plain: bool = False  # on plain ground (`_plain`): no die's body, so never `unsure`


def _sizes_apart(a: float, b: float, ratio: float) -> bool:
    """Are two sides more than `ratio` times apart?"""
    return max(a, b) > ratio * min(a, b)


def _within(s: Seen, dice: list[list[Seen]]) -> bool:
    """Is this view inside a die read sure (within INSIDE of its side from its centre) and
    made of fewer pips than its value: a crop of that die off its centre, which shows its
    edge as a leaning die's side would?"""
    return any(np.hypot(s.candidate.x - d[0].candidate.x, s.candidate.y - d[0].candidate.y)
               < INSIDE * d[0].candidate.side and s.candidate.pips < d[0].value for d in dice)


def decide(seen: list[Seen], face_p: float | None = None, guessed_p: float | None = None,
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
    return second_look(image, frame, first)


def second_look(image: np.ndarray, frame: Frame, first: list[Seen],
                half: bool = True) -> list[Seen]:
    """The first look's views (`first`) and those of the second: the candidates with the
    pips' cores and, when `half`, those at half resolution and the pairs of pips (`_twos`).
    Marks the frame `looked_twice`."""
    # The second look: the frame's candidates with the pips' cores (pipfinder: pips run into
    # a light die's corners; the cores can change a group, so its candidates are taken anew,
    # each one already looked at not looked at twice), then half resolution. A half-
    # resolution candidate of a place and size already looked at is left out before the
    # classifier sees it (what it would say of it is not kept). The classifier sees the new
    # candidates of both in one batch (a crop's probabilities do not depend on its batch).
    frame.looked_twice = True
    known = {s.candidate: s for s in first}
    full = frame.candidates()
    new = [c for c in full if c not in known]
    more = [c for c in frame.half() if not any(
        _near(c, t) and same_size(c, t) for t in full)] if half else []
    return [known[c] for c in full if c in known] + _look(image, new + more) + \
        (_twos(image, frame, first) if half else [])


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


def _sure(seen: list[Seen], face_p: float | None = None,
          guessed_p: float | None = None) -> list[Seen]:
    """The views of a flat die's face with belief `face_p` at least (`guessed_p` where its
    pips make no grid); FACE_P and GUESSED_P unless told, read when asked (a test or
    `dev_sets read --set` changes them for every rule)."""
    face_p = FACE_P if face_p is None else face_p
    guessed_p = GUESSED_P if guessed_p is None else guessed_p
    return [s for s in seen if 1 <= s.value <= 6 and
            s.belief >= (face_p if s.candidate.fit is not None else guessed_p)]


def _surest(seen: list[Seen], face_p: float | None = None,
            guessed_p: float | None = None) -> list[Seen]:
    """The surest view of each die read at `face_p` (`guessed_p`: see `_sure`)."""
    return [d[0] for d in _dice(_sure(seen, face_p, guessed_p))]


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

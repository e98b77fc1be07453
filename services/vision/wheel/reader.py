"""`read_wheel`: the winning pocket from one overhead frame, or no decision and why.

Steps (each module says how it works): find the rotor's ellipse (locate.py, or take it from
a per-camera calibration), read the rotor's orientation and bend from the number ring
(rotor.py), look for the ball among what does not belong to the wheel (strips.py): first in
the pocket ring, then on the tracks; map it to a pocket. A pocket is reported only when
every step is sure: the number ring matches the layout with a clear margin, exactly one
round ball-sized white spot lies inside the pocket ring, and it sits away from the frets.
Anything else is "no decision" with the reason (reasons.py). The reader never guesses.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from services.vision.wheel import reasons as R
from services.vision.wheel.geometry import NOMINAL
from services.vision.wheel.hidden import arm_across, glare_in_ring
from services.vision.wheel.layout import WheelLayout, get_layout
from services.vision.wheel.locate import Ellipse, inner_rotor, locate_rotor
from services.vision.wheel.reading import WheelReading
from services.vision.wheel.rotor import RotorReading, read_rotor
from services.vision.wheel.strips import (
    BOWL_COLS,
    CELL,
    PER_POCKET,
    Spot,
    Strip,
    bowl_strip,
    fret_shift,
    halo,
    pocket_strip,
    spots,
)

# Is there a wheel, and can its pockets be told apart? (tuning frames: score 0.6-0.9,
# margin 0.16-0.6 for 99.8 % of them, 30+ boundaries, residual ~0.3 degree)
ROTOR_SCORE_MIN = 0.3
ROTOR_MARGIN_MIN = 0.1      # wrong zeros (a hand over the zero) measured <= 0.048
BOUNDARIES_MIN = 20
WARP_RESIDUAL_MAX = 0.8      # degrees
EDGE_AGREEMENT_MIN = 0.75    # fraction of directions that agree on the rotor's edge
# Sectors (of 12) whose own phase is > 1/4 pocket off the fitted bend. On 526 correct
# readings of foreign-renderer tuning frames (as rendered, seen by a camera turned 8-14
# degrees more, scaled 1.5x to 1280x720, both): 515 at 0, all but 2 at <= 3; the wrong ones
# (one or two pockets off: boundaries locked onto the red/black pattern) at 4.
SECTORS_OFF_MAX = 3
# What a ball at rest looks like in a strip (areas in ball areas, contrast in noise units)
BALL_AREA = (0.45, 1.7)
BALL_ELONGATION_MAX = 1.9    # a ball (maybe shaken by the camera) somewhere in the ring
BALL_CONTRAST_MIN = 4.0      # above the strip's noise
BALL_WHITENESS_MIN = 0.68    # peak over the frets' brightness nearby (balls ~1.0-2.0)
# ... and to decide, a ball clearly at rest: round and white. On 2196 settled balls of the
# tuning frames: elongation <= 1.47, whiteness >= 0.98 but for one at 0.76; the nearest
# look-alikes that were round enough (blurred streaks) reached whiteness 0.73
AT_REST = {"elongation": 1.55, "whiteness": 0.85, "contrast": BALL_CONTRAST_MIN}
# A camera's shake or slow shutter blurs the frame along a line of a few pixels (the
# generator: 3-7 at 640x480), a fixed part of the field of view and so a larger part of a
# small ball: on rotors of 86-96 px (ball radius ~3.2 px) settled balls under it measured
# elongation 1.46-1.65, against <= 1.45 on larger rotors (development sets, 1,033 settled
# frames, seeds 795001-795006). The at-rest bound rises linearly from 1.55 at a rotor radius
# of 125 px to 1.70 at 90 px and below - radii as a 640x480 camera with the same field of
# view sees them (a 1280x720 frame's divided by 1.5: the shake is an angle, its pixels grow
# with the resolution) -, for a white ball only (whiteness >= 1.0; those balls: 1.42-2.26):
# a moving ball on a 98 px rotor measured 1.78 with whiteness 0.88 (no-decision frames
# with small rotors and camera blur, seed 795005). What else reached the decision that
# far was refused before it: balls on a fret (offset), glare and hands (area > 1.45).
SMALL_ROTOR_PX = (125.0, 90.0)
SMALL_ROTOR_ELONGATION = 0.15
SMALL_ROTOR_WHITENESS = 1.0
# A settled ball's area at half height: <= 1.08 ball areas on 751 correct readings (tuning
# region, and the first generator with cameras up to 25 degrees and 2.5 radii; seeds
# 515140-515141) but one at 1.60; the fingers of a hand over a ball merged with it at 1.68.
WHOLE_BALL_AREA_MAX = 1.45
# Plain silver pockets (floors over half as bright as the frets) leave a settled ball less
# above them: on 146 settled balls of steel-style tuning frames (first generator, seed
# 515070, cameras tilted up to 25 degrees and as near as 2.5 rotor radii) whiteness fell to
# 0.63, while the ball stayed about as bright as the frets (brightness >= 0.97) and round
# (elongation <= 1.30). There, lamp reflections over a ball (seed 515062) passed as balls at
# elongation 1.49-1.55 and the ghost of a moving ball measured brightness 0.79. So, on such
# floors, a round ball as bright as the frets with whiteness >= 0.55 is white enough.
# Only the ball's brightest part stands above half its peak there: its area fell to 0.35.
# Nor does it stand as far above the strip's noise (glare and the camera's noise on a bright
# silver floor): under motion blur, settled balls there stood 3-4 noise levels high, never
# found as peaks. Being as bright as the frets and round is the evidence there, so 3 noise
# levels suffice: widened generator, steel and chrome styles (seeds 580005-580006, 400
# settled), 379 -> 386 read, 0 wrong; no-decision frames of all styles (580001-580003,
# 580008, 580010: 1,200) none decided, nor with 2 noise levels.
# ... and peaks that weak are looked for only on wheels whose pocket floors are over this
# fraction of the frets' brightness across the ring: steel and chrome wheels measured
# 0.29-0.87 (median 0.65-0.71; shadows and glare make the low ones), coloured pockets
# 0.15-0.31 (tuning region), 95 % of the labelled sets' styles <= 0.33 (seed 580004).
PLAIN_WHEEL = 0.35
PLAIN = {"floor_level": 0.5, "brightness": 0.97, "whiteness": 0.55, "elongation": 1.35,
         "area": 0.3, "contrast": 3.0}
# A lamp's reflection over the ball (a saturated disc 2.2-3.5 ball radii wide) leaves a bump
# on a plateau: the wheel 1.6-2.4 ball radii around it as bright as its centre (`halo`).
# Steel and chrome frames (first generator, tilt <= 25, 2.5-9 radii; seeds 520011-520022):
# 300 settled balls <= 0.89, glare spots taken for a ball >= 0.95 (seed 515062 frame 30: 1.0)
GLARE_HALO_MIN = 0.92
BALL_RADIUS = (0.68, 0.83)   # ball centre inside the pocket ring, off its edges
# Peaks looked for only near it: on plain silver pockets the number ring's edge beside a
# green pocket leaves bright leftovers at the strip's top row (0.88) that took all 8 places
PEAK_RADIUS = (0.62, 0.86)
# Off the rotor (only the reason depends on it): against the plain wood around it
BOWL_WHITENESS_MIN = 0.45
BOWL_ELONGATION_MAX = 1.45   # round: a ball resting there, not one running past
DEFLECTOR_ZONE = 1.225       # lower track (deflectors) inside this radius, ball track outside
TRACK_EDGE = 1.42            # the rim
# |offset from the pocket centre| beyond this: on a fret. Rendered balls are within 0.2
# ("clearly in a pocket") or 0.4 or more (on a fret); measured on tuning frames (seeds 4242,
# 6161, 7373, 7474): settled balls <= 0.256 (1740 frames), balls on a fret >= 0.324 (1488).
# A wrong pocket costs more than a glance, so the line sits nearer the settled side.
FRET_LIMIT = 0.28
# The frets beside the ball (1.5 and 2.5 pockets either side) seen further than a quarter
# pocket from where the bend puts them (`strips.fret_shift`): the bend is wrong near the
# ball, so its pocket is not known (the quarter pocket of `SECTORS_OFF_MAX`). Settled balls:
# at most 0.15 (296, widened generator, seed 580004) and 0.13 (423, tuning region); a ball on
# a fret read as in the pocket beside it through an extrapolated bend (seed 561001 frame
# 109): 0.38.
FRET_SHIFT_MAX = 0.25
# A ball at rest stands alone in the pocket ring: no settled ball of the development sets
# had a second ball-like leftover there. A moving ball's blurred streak (2.5-5 ball
# diameters) can break into ball-like bumps: one nearly as strong (>= 0.6 of its contrast)
# further than the ball's own halves (2 ball radii: a fret splits a ball into two peaks about
# a ball radius apart) and within a streak's length (10 ball radii) is the same ball moving.
# Seed 561004 frame 100: two bumps 3 ball radii apart (contrast 4.14 and 4.03) had been read
# as a settled ball in pocket 13.
STREAK_RADII = (2.0, 10.0)


def read_wheel(frame: np.ndarray, variant: str = "european", calibration=None) -> WheelReading:
    """Read one BGR frame. `calibration`: a WheelCalibration for this camera, or None."""
    layout = get_layout(variant)
    _check_frame(frame)
    if calibration is not None:
        ell, agreement = calibration.rotor_ellipse(), 1.0
    else:
        found = locate_rotor(frame)
        if found is None:
            return _no(layout, R.NO_WHEEL)
        ell, agreement = found
    rotor = read_rotor(frame, ell, layout)
    if calibration is None and not _reads(rotor):
        inner = inner_rotor(frame, ell)
        again = None if inner is None else read_rotor(frame, inner[0], layout)
        if inner is not None and _reads(again):
            (ell, agreement), rotor = inner, again
    if rotor is None:  # too few red/black boundaries: not a number ring, or hidden
        return _no(layout, R.ROTOR_UNREADABLE if agreement >= EDGE_AGREEMENT_MIN
                   else R.NO_WHEEL, ell)
    if rotor.score < ROTOR_SCORE_MIN or agreement < EDGE_AGREEMENT_MIN:
        if arm_across(bowl_strip(frame, ell, rotor)):
            return _no(layout, R.OCCLUDED, ell)
        return _no(layout, R.ROTOR_UNREADABLE if agreement >= EDGE_AGREEMENT_MIN
                   else R.NO_WHEEL, ell)
    return _read_ball(frame, layout, ell, rotor)


def _reads(rotor: RotorReading | None) -> bool:
    """The number ring read as well as a decision needs (the thresholds of `_in_pocket_ring`)."""
    return rotor is not None and rotor.score >= ROTOR_SCORE_MIN and \
        rotor.margin >= ROTOR_MARGIN_MIN and rotor.boundaries >= BOUNDARIES_MIN and \
        rotor.residual <= WARP_RESIDUAL_MAX and rotor.sectors_off <= SECTORS_OFF_MAX


def _check_frame(frame) -> None:
    if not (isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3
            and frame.dtype == np.uint8):
        got = getattr(frame, "shape", type(frame).__name__)
        raise ValueError(f"frame: expected a BGR image (H x W x 3, uint8), got {got}")


def _ball_like(s: Spot, whiteness_min: float = BALL_WHITENESS_MIN) -> bool:
    plain = _white_on_plain(s)
    return ((BALL_AREA[0] if not plain else PLAIN["area"]) <= s.area <= BALL_AREA[1]
            and s.elongation <= BALL_ELONGATION_MAX
            and s.contrast >= (BALL_CONTRAST_MIN if not plain else PLAIN["contrast"])
            and not s.edge and (s.whiteness >= whiteness_min or plain))


def _read_ball(frame, layout: WheelLayout, ell: Ellipse, rotor: RotorReading) -> WheelReading:
    strip = pocket_strip(frame, ell, rotor)
    weakest = PLAIN["contrast"] if _plain_floors(strip) else BALL_CONTRAST_MIN
    candidates = _join_halves(spots(strip, PER_POCKET, layout.n, max_spots=8, local=True,
                                    r_range=PEAK_RADIUS, local_noise=True,
                                    min_contrast=weakest), layout, strip)
    inside = [s for s in candidates if _ball_like(s) and BALL_RADIUS[0] <= s.r <= BALL_RADIUS[1]
              and not _repeats(s, candidates, layout.n)]
    if inside:
        # the rotor's radius as a 640x480 camera with the same field of view would see it
        rotor_px = ell.radius * 480.0 / min(frame.shape[:2])
        return _in_pocket_ring(layout, ell, rotor, strip, inside, rotor_px)
    return _elsewhere(frame, layout, ell, rotor, strip)


def _may_rest_on_bowl(s: Spot) -> bool:
    """On its coarse measures, a spot the bowl's test above can still take: the loosest of
    `_ball_like`'s bounds (the plain-floor ones) and the bowl's elongation. The others
    need no finer measures (the test refuses them whatever those say)."""
    return (min(BALL_AREA[0], PLAIN["area"]) <= s.area <= BALL_AREA[1] and not s.edge
            and s.elongation <= min(BALL_ELONGATION_MAX, BOWL_ELONGATION_MAX)
            and s.contrast >= min(BALL_CONTRAST_MIN, PLAIN["contrast"]))


def _plain_floors(strip: Strip) -> bool:
    """The wheel may have plain silver pockets (`PLAIN_WHEEL`): across the pocket ring
    (every 4th column, every other row) the floors (30th percentile) over a third as bright
    as the frets (97th). Only there are peaks under 4 noise levels looked for: they cost
    time, and elsewhere they could not pass as a ball (`PLAIN` asks the wheel near the
    spot for floors over half as bright as the frets)."""
    r0, r1 = np.searchsorted(strip.rows, BALL_RADIUS)
    ring = strip.values[r0:r1:2, ::4]
    lo, hi = (int(q * (ring.size - 1)) for q in (0.30, 0.97))
    part = np.partition(ring, [lo, hi], axis=None)
    return float(part[lo]) >= PLAIN_WHEEL * max(float(part[hi]), 10.0)


def _join_halves(found: list[Spot], layout: WheelLayout, strip: Strip) -> list[Spot]:
    """A fret under a ball is subtracted from the residual and can split it: the brighter
    half alone is then too small, while the weaker peak's region (at its lower half-height)
    holds both halves. Such a half takes the area of the whole; its own peak, whiteness and
    centre are kept."""
    out = []
    for s in found:
        if s.area < BALL_AREA[0]:
            whole = [o.area for o in found if o is not s and BALL_AREA[0] <= o.area
                     <= BALL_AREA[1] and o.peak < s.peak and not _apart(layout, strip, s, o)]
            s = replace(s, area=max(whole)) if whole else s
        out.append(s)
    return out


def _repeats(s: Spot, others: list[Spot], n: int) -> bool:
    """Another leftover as strong at the same radius a whole number of pockets away: the
    pocket ring's own pattern imperfectly removed (a washed-out frame), not a ball. Only a
    ball-sized leftover repeats a ball: around a dark green zero among plain silver pockets
    the local measure leaves a plateau of 12-16 ball areas, cut off by the strip's edges,
    that had refused settled balls a whole number of pockets from the zero."""
    for o in others:
        steps = abs(((o.position - s.position + n / 2) % n) - n / 2)
        if (o is not s and not o.edge and o.area <= BALL_AREA[1]
                and steps >= 0.85 and abs(steps - round(steps)) < 0.15
                and abs(o.r - s.r) < 0.02 and o.contrast >= 0.7 * s.contrast):
            return True
    return False


def _white_on_plain(s: Spot) -> bool:
    return (s.floor_level >= PLAIN["floor_level"] and s.brightness >= PLAIN["brightness"]
            and s.whiteness >= PLAIN["whiteness"] and s.elongation <= PLAIN["elongation"])


def _at_rest(s: Spot, rotor_px: float) -> bool:
    plain = _white_on_plain(s)
    round_enough = s.elongation <= AT_REST["elongation"] or (
        s.elongation <= at_rest_elongation(rotor_px) and s.whiteness >= SMALL_ROTOR_WHITENESS)
    return (round_enough
            and (s.whiteness >= AT_REST["whiteness"] or plain)
            and s.contrast >= (AT_REST["contrast"] if not plain else PLAIN["contrast"]))


def at_rest_elongation(rotor_px: float) -> float:
    """The largest elongation of a ball at rest on a rotor of radius `rotor_px` (pixels)."""
    big, small = SMALL_ROTOR_PX
    t = min(max((big - rotor_px) / (big - small), 0.0), 1.0)
    return AT_REST["elongation"] + SMALL_ROTOR_ELONGATION * t


def _in_pocket_ring(layout, ell, rotor: RotorReading, strip: Strip, inside: list[Spot],
                    rotor_px: float):
    ball = inside[0]
    k = int(np.round(ball.position)) % layout.n
    zero_xy, outline = _zero_and_outline(ell, rotor, k)
    geo = _geometry(layout, ell, rotor, strip, ball, zero_xy)
    rivals = [s for s in inside[1:] if _at_rest(s, rotor_px) and s.contrast >= 0.6 * ball.contrast
              and _apart(layout, strip, ball, s)]
    if rivals:
        return _no(layout, R.NO_BALL, ell, **geo)  # two ball-like spots: not sure which
    if _streak(layout, strip, ball, inside[1:]):  # pieces of one blurred, moving ball
        return _no(layout, R.BALL_MOVING, ell, **geo)
    offset = float(ball.position - np.round(ball.position))
    geo["scores"].update(offset=offset)
    if abs(offset) > FRET_LIMIT:
        return _no(layout, R.BALL_ON_FRET, ell, **geo)
    geo["scores"].update(fret_shift=fret_shift(strip, ball))
    if geo["scores"]["fret_shift"] > FRET_SHIFT_MAX:  # the bend is wrong near the ball
        return _no(layout, R.ROTOR_UNREADABLE, ell, **geo)
    if ball.area > WHOLE_BALL_AREA_MAX:  # something bright joins the ball: a hand by it
        return _no(layout, R.OCCLUDED, ell, **geo)
    geo["scores"].update(halo=halo(strip, ball))
    if geo["scores"]["halo"] >= GLARE_HALO_MIN:  # a bump on a lamp's reflection, not a ball
        return _no(layout, R.GLARE, ell, **geo)
    if not _at_rest(ball, rotor_px):  # a ball-like smear, not a sharp ball: still moving
        return _no(layout, R.BALL_MOVING, ell, **geo)
    if (rotor.margin < ROTOR_MARGIN_MIN or rotor.boundaries < BOUNDARIES_MIN
            or rotor.residual > WARP_RESIDUAL_MAX or rotor.sectors_off > SECTORS_OFF_MAX):
        # the run of hidden boundaries only says which reason (15 us: taken only here)
        run = rotor.longest_unseen_run()[0]
        return _no(layout, R.OCCLUDED if run >= 3 else R.ROTOR_UNREADABLE, ell, **geo)
    return WheelReading(layout.pockets[k], False, None, _confidence(ball, offset, rotor),
                        layout.variant, pocket_outline=outline, **geo)


def _confidence(ball: Spot, offset: float, rotor: RotorReading) -> float:
    """0..1, the weakest of the things the decision rests on, each scaled so that a clean
    frame scores 1: the ball's contrast and whiteness, its distance from the frets, the zero's
    margin over any other rotor angle, and how many boundaries the bend was fitted to."""
    terms = (ball.contrast / 10.0, ball.whiteness / 1.0,
             (FRET_LIMIT - abs(offset)) / (FRET_LIMIT - 0.1), rotor.margin / 0.15,
             rotor.boundaries / 30.0)
    return float(min(max(min(terms), 0.01), 1.0))


def _apart(layout: WheelLayout, strip: Strip, a: Spot, b: Spot) -> bool:
    """Further apart than one ball (a fret across the ball can split it into two peaks)."""
    return _radii_apart(layout, a, b) > 4


def _radii_apart(layout: WheelLayout, a: Spot, b: Spot) -> float:
    """Distance between two spots of the pocket strip, in ball radii."""
    cells_per_pocket = (2 * np.pi * a.r / layout.n) / CELL
    dcol = abs(((a.position - b.position + layout.n / 2) % layout.n) - layout.n / 2)
    return float(np.hypot(dcol * cells_per_pocket, a.row - b.row)) * CELL / NOMINAL.ball


def _streak(layout: WheelLayout, strip: Strip, ball: Spot, others: list[Spot]) -> bool:
    """Another ball-like leftover nearly as strong, beyond the ball's own halves but within
    a streak's length: the ball is moving (`STREAK_RADII`)."""
    return any(s.contrast >= 0.6 * ball.contrast
               and STREAK_RADII[0] < _radii_apart(layout, ball, s) <= STREAK_RADII[1]
               for s in others)


def _elsewhere(frame, layout, ell, rotor: RotorReading, strip: Strip) -> WheelReading:
    """No ball at rest in the pocket ring: say what hides it, or where it is."""
    bowl = bowl_strip(frame, ell, rotor)
    geo = _geometry(layout, ell, rotor, None, None)
    if arm_across(bowl):  # an arm reaching in: whatever else, the ball may be under it
        return _no(layout, R.OCCLUDED, ell, **geo)
    if glare_in_ring(strip, layout.n):
        return _no(layout, R.GLARE, ell, **geo)
    on_bowl = [s for s in spots(bowl, BOWL_COLS / 360.0, 360.0, max_spots=12,
                                r_range=(NOMINAL.lower_in, TRACK_EDGE), local=True,
                                fine=_may_rest_on_bowl)
               if _ball_like(s, BOWL_WHITENESS_MIN) and s.elongation <= BOWL_ELONGATION_MAX]
    if on_bowl:
        b = on_bowl[0]
        reason = R.BALL_ON_DEFLECTOR if b.r < DEFLECTOR_ZONE else R.BALL_ON_TRACK
        return _no(layout, reason, ell, **_geometry(layout, ell, rotor, bowl, b, geo["zero_xy"]))
    if rotor.longest_unseen_run()[0] >= 3:
        return _no(layout, R.OCCLUDED, ell, **geo)
    return _no(layout, R.BALL_MOVING, ell, **geo)


def _geometry(layout, ell: Ellipse, rotor: RotorReading, strip: Strip | None,
              ball: Spot | None, zero_xy: tuple[float, float] | None = None) -> dict:
    """`zero_xy`: the zero's point (`_zero_and_outline`) when already taken."""
    if zero_xy is None:
        zero_xy = _zero_and_outline(ell, rotor, None)[0]
    geo: dict = {"zero_xy": zero_xy,
                 "rotor_ellipse": (ell.cx, ell.cy, ell.a, ell.b, ell.angle),
                 "scores": {"rotor_score": rotor.score, "rotor_margin": rotor.margin,
                            "boundaries": float(rotor.boundaries),
                            "warp_residual": rotor.residual,
                            "sectors_off": float(rotor.sectors_off)}}
    if ball is not None and strip is not None:
        col = int(round(ball.col)) % strip.values.shape[1]
        row = min(max(int(round(ball.row)), 0), len(strip.rows) - 1)
        geo["ball_xy"] = (float(strip.mx[row, col]), float(strip.my[row, col]))
        geo["ball_position"] = float(ball.position)
        geo["scores"].update(ball_contrast=ball.contrast, ball_area=ball.area,
                             ball_elongation=ball.elongation, ball_radius=ball.r,
                             ball_whiteness=ball.whiteness, ball_brightness=ball.brightness,
                             floor_level=ball.floor_level)
    return geo


def _zero_and_outline(ell: Ellipse, rotor: RotorReading, k: int | None
                      ) -> tuple[tuple[float, float], tuple[tuple[float, float], ...] | None]:
    """The frame point of the zero's number (radius 0.92) and, given a pocket `k`, the
    corners of its outline (pocket ring to rotor edge), through one `angle_of`: elementwise,
    so the same values as taken apart (eleventh round; its three fixed-point steps on 1
    and on 4 points cost as much as on 5)."""
    ks, rs = [0.0], [0.92]
    if k is not None:
        ks += [k - 0.5, k + 0.5, k + 0.5, k - 0.5]
        rs += [NOMINAL.pockets_in, NOMINAL.pockets_in, 1.0, 1.0]
    r = np.array(rs)
    xs, ys = ell.points(rotor.angle_of(np.array(ks), r), r)
    points = tuple((float(x), float(y)) for x, y in zip(xs.tolist(), ys.tolist()))
    return points[0], (points[1:] if k is not None else None)


def _no(layout: WheelLayout, reason: str, ell: Ellipse | None = None, **geo) -> WheelReading:
    if ell is not None:
        geo.setdefault("rotor_ellipse", (ell.cx, ell.cy, ell.a, ell.b, ell.angle))
    return WheelReading(None, True, reason, 0.0, layout.variant, **geo)

"""Wheel styles: the looks of wheels found on real floors (wood, lacquer, brass, chrome;
coloured or plain pockets; cross or spire turret; with or without deflectors), plus a
per-scene jitter so no two rendered wheels are exactly alike. Colours are BGR."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from services.vision.wheel.geometry import Bands

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class WheelStyle:
    name: str
    bowl: BGR            # outer wooden bowl and rim
    track: BGR           # ball track (polished, lighter)
    lower: BGR           # lower track with the deflectors
    red: BGR
    black: BGR
    green: BGR
    digits: BGR          # numbers printed on the number ring
    frets: BGR           # pocket separators and ring lines
    cone: BGR
    turret: BGR
    deflector: BGR
    pockets_coloured: bool = True  # pocket bottoms in the number's colour (else `plain`)
    plain: BGR = (40, 70, 110)
    green_plain: bool = False      # plain pockets, but the zero(s) green
    turret_kind: str = "cross"     # "cross" (4 arms) or "spire"
    deflectors: int = 8            # 0 on low-profile wheels
    bands: Bands = Bands()


STYLES: dict[str, WheelStyle] = {s.name: s for s in (
    WheelStyle("classic", bowl=(30, 50, 95), track=(120, 170, 205), lower=(90, 135, 170),
               red=(40, 35, 180), black=(30, 28, 28), green=(50, 130, 30),
               digits=(235, 240, 240), frets=(200, 200, 195), cone=(45, 80, 130),
               turret=(210, 210, 205), deflector=(200, 205, 205)),
    WheelStyle("brass", bowl=(25, 40, 70), track=(105, 150, 190), lower=(75, 115, 150),
               red=(45, 30, 150), black=(25, 25, 30), green=(60, 110, 25),
               digits=(120, 200, 230), frets=(80, 170, 210), cone=(35, 65, 110),
               turret=(70, 160, 205), deflector=(75, 165, 210), turret_kind="spire"),
    WheelStyle("lacquer", bowl=(22, 22, 24), track=(140, 150, 160), lower=(95, 100, 110),
               red=(35, 25, 200), black=(18, 18, 18), green=(60, 150, 20),
               digits=(245, 245, 245), frets=(215, 215, 215), cone=(30, 30, 32),
               turret=(220, 220, 220), deflector=(215, 215, 215)),
    WheelStyle("plain_pockets", bowl=(35, 60, 105), track=(135, 180, 215), lower=(100, 145, 180),
               red=(40, 40, 175), black=(35, 30, 30), green=(55, 125, 35),
               digits=(230, 235, 235), frets=(195, 195, 190), cone=(50, 90, 140),
               turret=(205, 205, 200), deflector=(200, 200, 200), pockets_coloured=False,
               plain=(40, 75, 120)),
    WheelStyle("low_profile", bowl=(28, 45, 80), track=(115, 160, 195), lower=(85, 125, 160),
               red=(50, 40, 170), black=(35, 35, 35), green=(45, 120, 40),
               digits=(220, 225, 225), frets=(190, 190, 185), cone=(40, 70, 115),
               turret=(200, 200, 195), deflector=(200, 200, 200), deflectors=0,
               turret_kind="spire"),
)}


# Named only (never drawn at random, so the labelled sets stay as they were): styles that
# widen the generator, e.g. a steel wheel with plain silver pockets and metal tracks.
EXTRA_STYLES: dict[str, WheelStyle] = {s.name: s for s in (
    WheelStyle("steel", bowl=(45, 55, 70), track=(150, 150, 152), lower=(120, 120, 125),
               red=(38, 32, 178), black=(28, 26, 26), green=(45, 125, 25),
               digits=(235, 235, 235), frets=(212, 212, 216), cone=(120, 120, 125),
               turret=(215, 215, 220), deflector=(210, 210, 215), pockets_coloured=False,
               plain=(165, 165, 170), green_plain=True),
    WheelStyle("chrome", bowl=(60, 60, 66), track=(175, 175, 178), lower=(140, 140, 145),
               red=(40, 35, 170), black=(30, 28, 28), green=(45, 125, 25),
               digits=(240, 240, 240), frets=(222, 222, 226), cone=(150, 150, 155),
               turret=(225, 225, 230), deflector=(220, 220, 225), pockets_coloured=False,
               plain=(192, 192, 196), green_plain=True, deflectors=0, turret_kind="spire"),
)}


def _jitter_colour(rng: np.random.Generator, c: BGR, amount: float) -> BGR:
    gain = rng.uniform(1 - amount, 1 + amount, 3)
    return tuple(int(v) for v in np.clip(np.asarray(c) * gain, 0, 255))  # type: ignore[return-value]


def jittered(style: WheelStyle, rng: np.random.Generator) -> WheelStyle:
    """The same wheel model from another maker's batch: colours and ring proportions vary."""
    colours: dict[str, Any] = {f: _jitter_colour(rng, getattr(style, f), 0.12)
               for f in ("bowl", "track", "lower", "red", "black", "green", "cone", "plain")}
    b = style.bands
    k = rng.uniform(0.985, 1.015)
    bands = replace(b, numbers_in=b.numbers_in * rng.uniform(0.98, 1.02),
                    pockets_in=b.pockets_in * rng.uniform(0.97, 1.03),
                    track_in=b.track_in * k, track_out=b.track_out * k, bowl=b.bowl * k)
    return replace(style, bands=bands, **colours)


def pick_style(rng: np.random.Generator, name: str | None = None,
               with_deflectors: bool = False) -> WheelStyle:
    """A named style (ValueError naming `style` if unknown) or a random one (among those
    with deflectors if asked), jittered."""
    if name is None:
        names = [n for n, s in STYLES.items() if s.deflectors or not with_deflectors]
        name = names[int(rng.integers(len(names)))]
    known = STYLES | EXTRA_STYLES
    if name not in known:
        raise ValueError(f"style: unknown wheel style {name!r}; known: {', '.join(known)}")
    return jittered(known[name], rng)

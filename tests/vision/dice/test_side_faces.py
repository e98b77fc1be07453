"""A leaning view looked at again without its side faces (side_faces.py, tilted._unsided):
on a drawn die and on the development solid camera's frames (named_sets: never an
evaluation seed)."""
from __future__ import annotations

import numpy as np

from services.scenes import named_sets
from services.vision.dice import learned, side_faces, tilted, views
from services.vision.dice.candidates import CROP, CROP_SIDES
from services.vision.dice.classifier import LEANING
from tests.vision.dice.test_one_camera import FELT, SIDE, die, table


def test_the_side_towards_the_base_is_painted_the_felts_colour_and_the_top_kept():
    img = table()
    c = die(img, 320, 240, (0.4, 0.0))       # the base 0.4 sides left of the top face
    got = side_faces.without_sides(img, c, np.array([0.4, 0.0])).astype(int)
    px = CROP / (CROP_SIDES * SIDE)            # crop pixels a frame pixel
    mid = CROP // 2

    def at(dx: float) -> np.ndarray:           # the crop's colour dx die sides right of c
        return got[mid + 3, int(round(mid + dx * SIDE * px))]
    assert np.abs(at(-0.7) - FELT).max() <= 8          # the side face: felt now
    assert np.abs(at(-0.49) - FELT).max() <= 8         # the top face beyond BEYOND (0.45)
    assert at(-0.3).min() > 200 and at(0.3).min() > 200    # the top face kept
    plain = side_faces.without_sides(img, c, np.array([-0.4, 0.0])).astype(int)
    assert plain[mid + 3, int(round(mid - 0.7 * SIDE * px))].max() < 200   # painted the other way


def view(index: int, value: int) -> tuple[np.ndarray, views.Seen]:
    """The development solid camera's frame and its leaning view read `value` unsided."""
    _, img, _ = named_sets.render(("dev-solid", "dice", index))
    seen = views.look(img)
    s = next(s for s in seen if tilted._as_face(s) is None
             and (u := tilted._unsided(img, s)) is not None and u.value == value)
    return img, s


def test_a_tilted_cameras_dice_seen_leaning_are_read_without_their_side_faces(monkeypatch):
    """Frame 117: a 4 read flat and a 5 seen leaning at 0.75 (its side face in view); without
    its side face it reads 5 at 0.98. Without the look, `cocked` (with the second look for a
    steep camera's other die off too: since stop 38 that look finds the 5 as a face)."""
    _, img, label = named_sets.render(("dev-solid", "dice", 117))
    r = learned.read_learned(img)
    assert r.values == tuple(sorted(label["values"])) == (4, 5) and r.detail["tilted"]
    monkeypatch.setattr(tilted, "UNSIDED", False)
    monkeypatch.setattr(tilted, "TILTED_AGAIN", False)
    assert learned.read_learned(img).reason == "cocked"


def test_a_face_its_grid_does_not_make_needs_face_p(monkeypatch):
    """Frame 117's 5: its pips' grid makes a 2 (pips missed under the tilt): taken at FACE_P."""
    img, s = view(117, 5)
    got = tilted._unsided(img, s)
    assert got is not None and s.candidate.fit != 5 and s.value == LEANING
    monkeypatch.setattr(views, "FACE_P", got.belief)
    assert tilted._unsided(img, s) is not None
    monkeypatch.setattr(views, "FACE_P", float(np.nextafter(got.belief, 1.0)))
    assert tilted._unsided(img, s) is None


def test_the_face_its_grid_makes_needs_tilt_share(monkeypatch):
    """Frame 177's 5 (grid 5) reads 0.896 without its side face (under FACE_P): at TILT_SHARE
    (frame 136 before stop 35's network)."""
    img, s = view(177, 5)
    got = tilted._unsided(img, s)
    assert got is not None and s.candidate.fit == 5 and got.belief < views.FACE_P
    monkeypatch.setattr(tilted, "TILT_SHARE", got.belief)
    assert tilted._unsided(img, s) is not None
    monkeypatch.setattr(tilted, "TILT_SHARE", float(np.nextafter(got.belief, 1.0)))
    assert tilted._unsided(img, s) is None


def test_a_view_showing_no_side_is_not_looked_at_again():
    """A die seen from above (side vector under SIDE_SHOWN) has no side face to paint out,
    and a view read as a face is not looked at again; the same die showing its side is."""
    img = table()
    c = die(img, 320, 240, (0.0, 0.0))
    assert tilted._unsided(img, views.Seen(c, LEANING, 0.9, 0.9, 0.05, 3)) is None
    steep = table()
    c = die(steep, 320, 240, (0.4, 0.0))
    assert tilted._unsided(steep, views.Seen(c, 3, 0.9, 0.05)) is None
    got = tilted._unsided(steep, views.Seen(c, LEANING, 0.9, 0.9, 0.05, 3))
    assert got is not None and got.value == 3


def test_a_view_on_a_dies_side_face_read_without_it_is_that_die_not_a_third(monkeypatch):
    """A fresh solid-camera seed's frame (1111001, 331: two flat 4s): a view centred on the
    upper 4's side face (0.7 of its side off its top) reads 2 at 0.80 with its own side
    painted out; it lies within SIDE_FACE of the 4 read surer, so it is that die's side
    (`_tops`). Taken as a third die, the frame was refused."""
    from services.scenes.dice_crops import frame
    img, label = frame("solid", 1_111_001, 331)
    assert sorted(label["values"]) == [4, 4]
    assert learned.read_learned(img).values == (4, 4)
    monkeypatch.setattr(tilted, "_tops", lambda dice, unsided: dice)
    assert learned.read_learned(img).no_decision


# (A fresh leaning seed's frame, 1137001/26, was here: a cocked 2 read 2 at 0.77 without its
# side faces beside a 1 seen from above, refused because the 1 shows no side (SIDE_SHOWN).
# With stop 37's network the cocked 2 is seen leaning 0.92 and the frame is refused before;
# SIDE_SHOWN at 0 changes one frame of the 41 development sets, a read gained (dev-solid 94),
# and decides no no-decision frame. Its boundary is pinned on two dice read flat:
# test_tilted.test_two_dice_read_flat_with_side_faces_in_view_are_a_tilted_cameras.)

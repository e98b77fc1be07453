"""Candidates from pips (services/vision/dice/candidates.py): two dice a few sides apart link
into one group of more than 7 pips, which is split into its faces (`_faces`) rather than
thrown away; a ring of a chip's inserts is still no face."""
from __future__ import annotations

import cv2
import numpy as np

from services.vision.dice.candidates import LINK, candidates
from services.vision.dice.faces import LAYOUT, PIP_OFFSET, PIP_RADIUS
from services.vision.dice.pipfinder import find_pips, group

FELT, BODY, PIP = (115, 70, 20), (232, 232, 228), (30, 30, 30)


def face(image: np.ndarray, centre: tuple[float, float], value: int, side: float) -> None:
    x, y = centre
    h = side / 2
    cv2.rectangle(image, (int(x - h), int(y - h)), (int(x + h), int(y + h)), BODY, -1)
    for gx, gy in LAYOUT[value]:
        p = (int(round((x + gx * PIP_OFFSET * side) * 16)),
             int(round((y + gy * PIP_OFFSET * side) * 16)))
        cv2.circle(image, p, int(PIP_RADIUS * side * 16), PIP, -1, cv2.LINE_AA, shift=4)


def test_two_dice_whose_pips_link_into_one_group_are_each_a_candidate():
    image = np.full((300, 400, 3), FELT, np.uint8)
    side = 42.0
    # a 6 above a 4, 1.7 sides apart: their nearest pips are about 11 pip radii apart
    face(image, (200, 110), 6, side)
    face(image, (200, 110 + 1.7 * side), 4, side)
    found = [(c.fit, c.x, c.y) for c in candidates(image) if c.fit]
    for value, (x, y) in ((6, (200, 110)), (4, (200, 110 + 1.7 * side))):
        assert any(f == value and abs(cx - x) <= 1 and abs(cy - y) <= 1
                   for f, cx, cy in found), (value, found)


def test_a_chips_ring_of_inserts_is_still_no_face():
    image = np.full((300, 400, 3), FELT, np.uint8)
    cv2.circle(image, (200, 150), 43, (30, 30, 30), -1, cv2.LINE_AA)
    for k in range(8):  # eight round light inserts round the rim: pips, linked into one group
        a = k * np.pi / 4
        q = (int(200 + 35 * np.cos(a)), int(150 + 35 * np.sin(a)))
        cv2.circle(image, q, 4, (235, 235, 235), -1, cv2.LINE_AA)
    pips = [p for p in find_pips(image) if not p.dark]
    assert len(pips) == 8 and len(group(pips, LINK)) == 1
    assert [c for c in candidates(image) if c.pips > 1] == []


def test_a_leaning_dies_top_and_side_faces_are_not_split_into_a_flat_face():
    # A 6 on top and the two pips of its side face just beyond its edge: one group of 8
    # pips whose parts lie closer than a side. Split, the 6 alone could pass for a flat die;
    # left whole it is no face (the classifier then sees no flat 6 there).
    image = np.full((300, 400, 3), FELT, np.uint8)
    side = 42.0
    face(image, (200, 150), 6, side)
    cv2.rectangle(image, (int(200 + side / 2), int(150 - side / 2)),
                  (int(200 + 1.1 * side), int(150 + side / 2)), (150, 150, 148), -1)  # side
    for dy in (-0.2, 0.2):
        p = (int(round((200 + 0.9 * side) * 16)), int(round((150 + dy * side) * 16)))
        cv2.circle(image, p, int(PIP_RADIUS * side * 16), PIP, -1, cv2.LINE_AA, shift=4)
    pips = [p for p in find_pips(image) if p.dark]
    assert len(pips) == 8 and len(group(pips, LINK)) == 1
    assert not any(c.fit == 6 for c in candidates(image))


def one_beside_print(dots: tuple[float, ...]) -> tuple[np.ndarray, list]:
    """A 1 (side 42 at 200, 150) with dark dots in white print a side to its right, at these
    heights (sides), and the pips found."""
    image = np.full((300, 400, 3), FELT, np.uint8)
    side = 42.0
    face(image, (200, 150), 1, side)
    for dy in dots:
        x, y = 200 + 1.05 * side, 150 + dy * side
        cv2.rectangle(image, (int(x - 12), int(y - 12)), (int(x + 12), int(y + 12)), BODY, -1)
        dot = (int(round(x * 16)), int(round(y * 16)))
        cv2.circle(image, dot, int(PIP_RADIUS * side * 16), PIP, -1, cv2.LINE_AA, shift=4)
    return image, find_pips(image)


def at_the_one(image: np.ndarray) -> list[tuple[int | None, int, bool]]:
    return [(c.fit, c.pips, c.split) for c in candidates(image)
            if abs(c.x - 200) <= 1 and abs(c.y - 150) <= 1]


def test_a_ones_pip_linked_to_a_printed_dot_beside_it_is_a_candidate_of_its_own():
    """A 1 with a dark dot in printed ink a side off: the two pips make one group (a
    2's grid, between them) and, split, a lone pip each, so the 1's centre is a candidate;
    it is marked `split` (its crop's leaning view is not taken: README)."""
    image, pips = one_beside_print((-0.3,))
    assert len(pips) == 2 and len(group(pips, LINK)) == 1
    assert at_the_one(image) == [(1, 1, True)]


def test_a_ones_pip_linked_to_two_printed_dots_is_a_candidate_of_its_own():
    image, pips = one_beside_print((-0.3, 0.5))
    assert len(pips) == 3 and len(group(pips, LINK)) == 1
    assert at_the_one(image) == [(1, 1, True)]

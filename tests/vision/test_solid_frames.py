"""The dice scene under a pinhole camera (services/scenes/dice/solid.py): the camera does not
mirror the table, dice are cubes whose opposite faces make 7, a tilted camera shows their side
faces, and a frame shows each die where its label says, at the size the label says."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from services.scenes.dice import scene as S
from services.scenes.dice import solid

WHITE_ON_GREEN = dataclasses.replace(
    S.SOLID, dice={"white": S.DICE_COLOURS["white"]}, felts={"green": S.FELTS["green"]},
    clashes=frozenset())


def test_an_upright_camera_sees_the_table_unmirrored_and_centred():
    cam = solid.look_at(np.array([300.0, 200.0, 0.0]), 0.0, 0.0, 0.0, 1000.0, 800.0,
                        (640, 480))
    (cx, cy), (rx, ry), (dx, dy) = cam.project(np.array([[300.0, 200, 0], [340, 200, 0],
                                                         [300, 240, 0]]))
    assert (cx, cy) == pytest.approx((320, 240))
    assert rx > cx and ry == pytest.approx(cy)       # right stays right
    assert dy > cy and dx == pytest.approx(cx)       # down stays down
    assert rx - cx == pytest.approx(40 * 800 / 1000)  # focal / distance
    h = cam.table()
    p = h @ np.array([340.0, 200.0, 1.0])
    assert p[:2] / p[2] == pytest.approx((rx, ry))


@pytest.mark.parametrize("mode", ["flat", "cocked", "on_top"])
def test_a_die_is_a_cube_with_opposite_faces_making_seven(mode):
    for k in range(20):
        rng = np.random.default_rng([1, k])
        value = int(rng.integers(1, 7))
        die = solid.cube({"c": np.array([100.0, 50.0]), "a": 30.0, "mode": mode}, value, 40.0,
                         rng)
        top, *sides = die.values
        assert top == value and sorted([top, 7 - top, *sides]) == [1, 2, 3, 4, 5, 6]
        assert sides[2] == 7 - sides[0] and sides[3] == 7 - sides[1]
        edges = np.linalg.norm(die.corners[:4] - np.roll(die.corners[:4], 1, axis=0), axis=1)
        assert edges == pytest.approx([40.0] * 4)
        lowest = die.corners[:, 2].min()
        if mode == "on_top":
            assert lowest > 0.5 * 40 - 1e-9      # lifted onto the other die
        else:
            assert lowest == pytest.approx(0.0, abs=1e-9)  # resting on the felt
        tilt = np.degrees(np.arccos(die.normals[0][2]))
        assert (tilt == pytest.approx(0, abs=1e-6)) if mode == "flat" else 8 <= tilt <= 40


def test_a_tilted_camera_sees_a_flat_dies_side_faces_and_an_upright_one_does_not():
    die = solid.cube({"c": np.array([300.0, 200.0]), "a": 0.0, "mode": "flat"}, 5, 40.0,
                     np.random.default_rng(0))

    def seen(tilt: float) -> int:
        cam = solid.look_at(np.array([300.0, 200.0, 0.0]), tilt, 45.0, 0.0, 3000.0, 2000.0,
                            (640, 480))
        return sum(float(n @ (cam.c - die.corners[list(i)].mean(0))) > 0
                   for (i, _), n in zip(solid._FACES, die.normals))

    assert seen(0.0) == 1          # straight down on it: the top face only
    assert seen(25.0) == 3         # from a corner's side: the top and two sides


def test_a_solid_frame_labels_each_die_at_its_place_and_size():
    felt = np.array(S.FELTS["green"], float)
    for k in range(8):
        image, label = S.render(np.random.default_rng([9, k]), (), None, WHITE_ON_GREEN)
        h, w = image.shape[:2]
        assert (w, h) in S.SOLID.sizes
        for die in label["dice_px"]:
            assert 0.5 * S.SOLID.die_px[0] <= die["side"] <= 1.3 * S.SOLID.die_px[1]
            x, y = die["centre"]
            assert 0 < x < w and 0 < y < h
            r = 0.15 * die["side"]
            patch = image[int(y - r):int(y + r) + 1, int(x - r):int(x + r) + 1]
            # The die's white top face or its black pip, never the green cloth.
            assert np.linalg.norm(patch.reshape(-1, 3).mean(0) - felt) > 60
        corners = np.array(label["landing_area_px"])
        assert corners.shape == (4, 2)


def test_the_camera_keeps_every_die_inside_the_frame_with_a_plausible_lens():
    for k in range(30):
        rng = np.random.default_rng([2, k])
        points = np.array([[0, 0, 0], [400, 300, 0], [400, 300, 42]], float)
        cam = solid.choose_camera(rng, S.SOLID, (640, 480), points, 42.0, 2.2)
        uv = cam.project(points)
        assert np.all(uv > 0) and np.all(uv < [640, 480])
        fov = np.degrees(2 * np.arctan(320 / cam.k[0, 0]))
        assert solid.FOV[0] <= fov <= solid.FOV[1]
        height_mm = cam.c[2] / 2.2
        assert S.SOLID.height_mm[0] - 1e-6 <= height_mm <= S.SOLID.height_mm[1] + 1e-6


def test_beyond_the_drawn_table_the_camera_sees_plain_cloth_not_the_table_mirrored():
    from services.scenes.dice.paint import SS, Canvas
    rng = np.random.default_rng(4)
    img = np.empty((480 * SS, 640 * SS, 3), np.float32)
    img[:] = S.FELTS["green"]
    img[: 40 * SS, : 40 * SS] = 0.0  # a black mark in the drawing's corner
    sc = Canvas(img, rng, np.array([1.0, 0.0]))
    # upright, over the drawing's corner, seeing 4 times as far: three quarters beyond it
    cam = solid.look_at(np.array([0.0, 0.0, 0.0]), 0.0, 0.0, 0.0, 2000.0, 400.0, (640, 480))
    seen = solid._felt_seen(sc, cam, (640, 480))
    mark = cam.project(np.array([[20.0, 20.0, 0.0]]))[0] * SS
    assert seen[int(mark[1]), int(mark[0])].max() < 30          # the mark where it lies
    beyond = seen[: int(mark[1]) - 40 * SS, : int(mark[0]) - 40 * SS]  # up and left of it
    assert beyond.size and beyond.min() > np.min(S.FELTS["green"]) - 25  # no mirrored mark

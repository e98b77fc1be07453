"""Wheel layouts: the pocket orders of the brief (domain.md §5.1) and the pocket colours."""
import pytest

from services.vision.wheel.layout import get_layout

EUROPEAN = ("0,32,15,19,4,21,2,25,17,34,6,27,13,36,11,30,8,23,10,5,24,16,33,1,20,14,31,9,22,"
            "18,29,7,28,12,35,3,26").split(",")
AMERICAN = ("0,28,9,26,30,11,7,20,32,17,5,22,34,15,3,24,36,13,1,00,27,10,25,29,12,8,19,31,18,"
            "6,21,33,16,4,23,35,14,2").split(",")
RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


@pytest.mark.parametrize("variant,order", [("european", EUROPEAN), ("american", AMERICAN)])
def test_pocket_order_and_colours(variant, order):
    layout = get_layout(variant)
    assert list(layout.pockets) == order
    assert layout.n == len(order) and abs(layout.pitch * layout.n - 360) < 1e-9
    for pocket, colour in zip(layout.pockets, layout.colours):
        expected = "green" if pocket in ("0", "00") else "red" if int(pocket) in RED else "black"
        assert colour == expected, pocket


def test_red_and_black_alternate_except_at_the_zeros():
    for variant in ("european", "american"):
        cols = get_layout(variant).colours
        pairs = [(cols[k], cols[(k + 1) % len(cols)]) for k in range(len(cols))]
        assert all(a != b for a, b in pairs), variant


def test_aliases_and_unknown_variant():
    assert get_layout("French").variant == "european"
    assert get_layout("double_zero").variant == "american"
    with pytest.raises(ValueError, match="^variant: unknown wheel"):
        get_layout("triple_zero")

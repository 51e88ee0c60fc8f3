"""The colour-vision helpers themselves: CIEDE2000 against Sharma, Wu & Dalal's published test data, and
the simulations against what the matrices must do (greys unchanged, red and green merge for deuteranopes)."""

import pytest

from tests.rendering.colour_vision import closest_pairs, delta_e, delta_e_lab, simulate


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),  # pair 1 of the paper's table
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),  # pair 9
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),  # pair 13
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),  # pair 34
])
def test_ciede2000_matches_the_published_pairs(lab1, lab2, expected) -> None:
    assert delta_e_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_greys_stay_grey_and_red_green_merge_for_deuteranopes() -> None:
    for vision in ("protanopia", "deuteranopia", "tritanopia"):
        grey = simulate((128, 128, 128), vision)
        assert max(grey) - min(grey) <= 2
    red, green = (213, 62, 79), (102, 189, 99)
    assert delta_e(red, green) > 40  # for normal vision, far apart
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < 20
    assert closest_pairs({"red": red, "green": green}, minimum=20)[0][0] == "deuteranopia"

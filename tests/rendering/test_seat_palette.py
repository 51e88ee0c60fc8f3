"""The seat colours every game shares (issue 38): any two seats stay plainly different for normal vision and
under simulated protanopia, deuteranopia and tritanopia."""

from rendering.common import COLOR_ORDER, PLAYER_COLORS
from tests.rendering.colour_vision import MIN_DELTA_E, closest_pairs


def test_every_two_seats_stay_apart_under_every_vision() -> None:
    assert closest_pairs(PLAYER_COLORS, MIN_DELTA_E) == []


def test_the_seat_names_stay() -> None:
    # Engines and renderers name seats by these keys; the palette changes values only.
    assert COLOR_ORDER == ("red", "blue", "green", "yellow", "black", "purple")

"""Issue 38 for Dewan: colour-blind-safe terrains and seats, a header with the last turn, readable labels,
a first image that fits a phone, text of 12 px or more at 550 px wide, the tribe boards in a details image."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from PIL import Image

from games.dewan import GAME
from rendering import dewan
from rendering import render_details as details_of
from tests.rendering.colour_vision import closest_pairs
from tests.rendering.inline import INLINE_WIDTH, recorded_text
from tests.rendering.positions import played

NAMES = ["Alice", "Борис", "Carol", "Dmitri"]


def _state(players: int, steps: int, seed: int = 3) -> Any:
    state = played(GAME, players, steps, seed)
    return state


def _clear_caches() -> None:
    """Forget every cached layer, so that a render draws (and records) all its text again."""
    for value in vars(dewan).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def test_terrains_stay_apart_under_every_colour_vision() -> None:
    assert closest_pairs(dewan.TERRAIN) == []


def test_seat_colours_on_camps_stay_apart_under_every_colour_vision() -> None:
    assert closest_pairs({str(seat): dewan.seat_colour(seat) for seat in range(4)}) == []


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("steps", [0, 60, 100_000])
def test_the_first_image_fits_a_phone_and_the_details_follow(players: int, steps: int) -> None:
    state = _state(players, steps)
    for seat in (None, 0):
        image = Image.open(io.BytesIO(dewan.render_board(GAME.view(state, seat), NAMES)))
        assert image.height <= 2 * image.width, (seat, image.size)
    details = details_of("dewan", GAME.view(state, None), names=NAMES)
    assert [name for name, _ in details] == ["tribes.png"]
    assert Image.open(io.BytesIO(details[0][1])).format == "PNG"


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("steps", [0, 60, 100_000])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_no_text_under_12_px_on_a_550_px_display(players: int, steps: int, locale: str) -> None:
    view = GAME.view(_state(players, steps), 0)
    _clear_caches()
    with recorded_text() as drawn:
        board = dewan.board_image(view, NAMES, locale)
        tribes = dewan.details_image(view, NAMES, locale)
    assert board.width == tribes.width
    minimum = math.ceil(12 * board.width / INLINE_WIDTH)
    small = [(text, size) for text, size in drawn if text.strip() and size < minimum]
    assert not small, small


def test_the_header_tells_who_moves_and_the_last_turn_with_its_points() -> None:
    state = _state(3, 40)
    view = GAME.view(state, None)
    last = view["last_turn"]
    text = dewan._last_turn_text(view, "en", NAMES)
    assert text.startswith(NAMES[last["seat"]])
    if last.get("points"):
        assert f"{last['points']:+d} pts" in text
    with recorded_text() as drawn:
        dewan.board_image(view, NAMES, "en")
    assert any(t.startswith(f"{NAMES[view['actor']]} to move") for t, _ in drawn)


def test_the_last_turn_names_no_card_of_a_hand_and_counts_its_points() -> None:
    state = _state(2, 12)
    while True:  # play on to a take
        seat = GAME.to_act(state)[0]
        before = GAME.view(state, None)["seats"][seat]["total"]
        take = next((a for a in GAME.legal_actions(state, seat) if a[0] == "take"), None)
        if take is not None and state.phase == "turn":
            GAME.apply(state, seat, take)
            break
        GAME.apply(state, seat, GAME.default_action(state, seat))
    view = GAME.view(state, None)
    last = view["last_turn"]
    assert last["seat"] == seat and last["take"] == take[1] and len(last["terrains"]) == 2
    assert last["points"] == view["seats"][seat]["total"] - before
    hands = {card for s in range(2) for card in state.seats[s]["hand"]}
    assert not hands & set(str(last).replace("'", " ").split())


def test_saves_from_before_the_last_turn_still_load() -> None:
    data = GAME.to_json(_state(2, 10))
    del data["recent"], data["last_turn"]
    state = GAME.from_json(data)
    assert GAME.view(state, None)["last_turn"] == {}
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, GAME.default_action(state, seat))  # plays on


def test_the_last_route_is_drawn_in_the_movers_colour_and_labels_are_never_covered() -> None:
    state = _state(4, 200, seed=5)
    view = GAME.view(state, None)
    assert view["last"].get("route") and len(view["last"]["route"]) >= 2
    bare = {**view, "camps": {}, "berries": [], "last": {}, "pending_hex": None}
    drawn, empty = dewan._draw_board(view, NAMES), dewan._draw_board(bare, NAMES)  # before the PNG's palette
    centres, _, _ = dewan._centres(view)
    a, b = (centres[h] for h in view["last"]["route"][:2])
    x, y = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 12 + dewan.HEADER_HEIGHT
    colour = dewan.seat_colour(view["last"]["seat"])
    pixel = drawn.getpixel((round(x), round(y)))
    assert isinstance(pixel, tuple) and sum(abs(p - q) for p, q in zip(pixel, colour, strict=True)) < 40
    for cx, cy in centres.values():  # every label pill looks the same with and without pieces
        box = (round(cx - 14), round(cy - 29 + dewan.HEADER_HEIGHT), round(cx + 14), round(cy - 12 + dewan.HEADER_HEIGHT))
        assert drawn.crop(box).tobytes() == empty.crop(box).tobytes()


def test_the_discard_lies_in_a_tray_of_its_own() -> None:
    view = GAME.view(_state(2, 30), None)
    assert view["discard"]
    image = dewan._draw_board(view, NAMES)
    # The tray (grey) begins past the sixth card and a gap; the sixth card ends before it.
    row_y = dewan._layout(view)[1] + 34 + dewan._standings_height(view) + 8 + dewan.ROW_TOP
    sixth_end = dewan.MARGIN + dewan.CARD_W + 14 + 5 * (dewan.CARD_W + 8) + dewan.CARD_W
    tray = sixth_end + 8 + 16
    assert image.getpixel((tray + 3, row_y - 10)) == (226, 221, 210)
    assert image.getpixel((sixth_end + 5, row_y + 40)) == dewan.PAPER  # a gap, then a rule (LINE)
    assert image.getpixel((sixth_end + 12, row_y + 40)) == dewan.LINE

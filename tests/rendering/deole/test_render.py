"""Déole images: valid PNGs within Discord's limits, for every player count and both languages."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.deole import GAME
from rendering.deole import render, render_sheets
from tests.rendering.positions import played


def _midgame(players: int, steps: int = 80):
    state = played(GAME, players, steps, players)
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_images_are_small_valid_pngs(players: int, locale: str) -> None:
    view = GAME.view(_midgame(players), None)
    for data in (render(view, locale), render_sheets(view, locale)):
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        assert max(image.size) <= 4096 and len(data) < 8 * 1024 * 1024


def test_finished_game_renders() -> None:
    state = _midgame(4, steps=100_000)
    assert GAME.is_over(state)
    view = GAME.view(state, None)
    assert render(view) and render_sheets(view)


def test_traces_are_drawn_in_the_player_colour() -> None:
    state = GAME.setup(2, {}, 1)
    sheet = state.sheets[0]
    sheet.update(port=1, pos=[1, 4], heading="S", path=[[0, 4, "S", "S"], [1, 4, "S", "S"]])
    image = Image.open(io.BytesIO(render(GAME.view(state, None)))).convert("RGB")
    from rendering.common import PLAYER_COLORS
    from rendering.deole import CELL, MARGIN, TRACE_OFFSETS

    x = MARGIN + 4 * CELL + CELL // 2 + TRACE_OFFSETS["blue"]
    y = MARGIN + CELL + CELL // 2
    assert image.getpixel((x, y)) == PLAYER_COLORS["blue"]


def test_player_names_replace_seat_numbers() -> None:
    import rendering
    from rendering.deole import render_board

    view = GAME.view(_midgame(2, steps=10), None)
    named = render(view, "en", ["Alice", "Bob"])
    assert named != render(view, "en")
    assert render_sheets(view, "en", ["Alice", "Bob"]) != render_sheets(view, "en")
    # The shared dispatcher passes the names through render_board.
    assert rendering.render_board("deole", view, "en", ["Alice", "Bob"]) == named == render_board(view, ["Alice", "Bob"])


def test_solo_disaster_waiting_is_drawn_beside_the_die_in_hand() -> None:
    state = GAME.setup(1, {"side": "blue"}, 2)
    before = render(GAME.view(state, None))
    colour, value = state.pool[0]
    GAME.apply(state, 0, ("die", colour, value))  # the other die waits as the Disaster
    view = GAME.view(state, None)
    assert view["current"]["disaster"] is not None
    for locale in ("en", "ru"):
        image = Image.open(io.BytesIO(render(view, locale)))
        assert image.format == "PNG"
    assert render(view) != before

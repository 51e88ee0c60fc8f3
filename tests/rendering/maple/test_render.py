"""The Maple Valley board renders from public views: mid-game, finished, solo, every player count."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.ai import play_out
from games.maple import GAME
from rendering.maple import WIDTH, render_board


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_a_finished_game_renders(players: int) -> None:
    state = GAME.setup(players, {}, players)
    play_out(GAME, state, players)
    image = Image.open(io.BytesIO(render_board(GAME.view(state, None), names=[f"P{i}" for i in range(players)])))
    assert image.format == "PNG" and image.size[0] == WIDTH and max(image.size) <= 4096


def test_mid_game_with_a_walk_in_progress_in_russian() -> None:
    state = GAME.setup(3, {}, 4)
    for _ in range(60):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.default_action(state, seat))
    png = render_board(GAME.view(state, None), locale="ru")
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_setup_position_renders() -> None:
    assert render_board(GAME.view(GAME.setup(2, {}, 1), None)).startswith(b"\x89PNG")

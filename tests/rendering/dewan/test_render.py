"""Dewan images: valid PNGs for early and late positions, hands only in a seat's own image."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.dewan import GAME
from rendering.dewan import _initials, board_image, render_board
from tests.rendering.positions import played


def _position(players: int, steps: int, seed: int = 1):
    state = played(GAME, players, steps, seed)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("steps", [0, 40])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_images_are_valid_pngs(players: int, steps: int, locale: str) -> None:
    state = _position(players, steps, players)
    for seat in (None, 0):
        data = render_board(GAME.view(state, seat), names=None, locale=locale)
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG" and max(image.size) <= 4096 and len(data) < 8 * 1024 * 1024


def test_finished_game_renders() -> None:
    state = _position(4, 100_000, 3)
    assert GAME.is_over(state)
    assert render_board(GAME.view(state, None), ["Ann", "Bob", "Cat", "Dan"])


def test_the_spectator_image_does_not_depend_on_the_hands() -> None:
    state = _position(3, 30, 2)
    before = render_board(GAME.view(state, None))
    hand = state.seats[0]["hand"]
    hidden = hand.pop(0)
    hand.append(state.deck.pop(0))  # same size, other card
    state.deck.insert(0, hidden)
    state.cache.clear()
    assert render_board(GAME.view(state, None)) == before
    assert render_board(GAME.view(state, 0)) != before  # a seat sees its hand


def test_the_own_view_is_taller_with_the_hand() -> None:
    state = _position(2, 0)
    assert board_image(GAME.view(state, 0)).size[1] >= board_image(GAME.view(state, None)).size[1]


def test_camps_carry_initials_or_numbers_when_initials_clash() -> None:
    assert _initials(3, ["Ann", "bob", "Cy"]) == ["A", "B", "C"]
    assert _initials(2, ["Ann", "Al"]) == ["1", "2"]
    assert _initials(2, None) == ["1", "2"]

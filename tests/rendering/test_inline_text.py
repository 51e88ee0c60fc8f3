"""Every game's board image reads inline in Discord (about 550 px wide): no text under 11 px there."""

from __future__ import annotations

import pytest

from games.registry import get
from tests.rendering.inline import smallest_inline_text
from tests.rendering.positions import played

NAMES = ["Alice", "Борис", "Carol", "Dmitri"]


def _view(key: str, players: int, steps: int, seed: int = 3) -> dict:
    game = get(key)
    state = played(game, players, steps, seed)
    return game.view(state, None)


@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize("steps", [0, 60, 100_000])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_deole_exploration_and_navigation_sheets(players: int, steps: int, locale: str) -> None:
    from rendering.deole import render, render_sheets

    view = _view("deole", players, steps)
    for draw in (render, render_sheets):
        size, text = smallest_inline_text(lambda draw=draw: draw(view, locale, NAMES))
        assert size >= 11, (draw.__name__, text)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("steps", [0, 60, 100_000])
@pytest.mark.parametrize("seat", [None, 0])
def test_dewan_board(players: int, steps: int, seat: int | None) -> None:
    from games.dewan import GAME
    from rendering.dewan import render_board

    view = GAME.view(played(GAME, players, steps, 3), seat)
    for locale in ("en", "ru"):
        size, text = smallest_inline_text(lambda view=view, locale=locale: render_board(view, NAMES, locale))
        assert size >= 11, text


@pytest.mark.parametrize("players", [1, 3, 5])
@pytest.mark.parametrize("steps", [0, 60, 100_000])
def test_maple_board(players: int, steps: int) -> None:
    from rendering.maple import render_board

    view = _view("maple", players, steps)
    long_names = ["Александра Константиновна", *NAMES][:players]
    for locale in ("en", "ru"):
        size, text = smallest_inline_text(lambda locale=locale: render_board(view, long_names, locale))
        assert size >= 11, text

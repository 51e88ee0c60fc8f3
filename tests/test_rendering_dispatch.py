"""The bot's one entry to rendering: every registered game yields a PNG from its public view."""

import io

from PIL import Image

from games import registry
from games.ai import RandomAI
from rendering import render_board


def test_every_registered_game_renders_its_public_view_mid_game():
    for key in registry.game_keys():
        game = registry.get(key)
        state = game.setup(game.min_players if game.min_players > 1 else 2, {}, 1)
        ai = RandomAI(1)
        for _ in range(12):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            game.apply(state, seat, ai.choose(game, state, seat))
        names = [f"Player {i}" for i in range(len(game.result(state).ranking))]
        image = Image.open(io.BytesIO(render_board(key, game.view(state, None), "ru", names)))
        assert image.format == "PNG" and max(image.size) <= 4096, key

"""Positions for the renderer tests: a game played some steps by a seeded random player."""

from __future__ import annotations

from typing import Any

from games.ai import RandomAI


def played(game: Any, players: int, steps: int, seed: int = 3, options: dict[str, Any] | None = None) -> Any:
    """The state after ``steps`` random legal actions (fewer if the game ends), the same for a seed."""
    state = game.setup(players, options or {}, seed)
    ai = RandomAI(seed)
    for _ in range(steps):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        game.apply(state, seat, ai.choose(game, state, seat))
    return state

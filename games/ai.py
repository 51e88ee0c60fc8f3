"""Built-in AI players usable by any game: they only need ``legal_actions``."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.core import A, Event, Game, Result, S, Seat


class RandomAI:
    """Plays a uniformly random legal action. Deterministic for a given seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game[S, A], state: S, seat: Seat) -> A:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise RuntimeError(f"{game.key}: seat {seat} is to act but has no legal action")
        return actions[self.rng.randrange(len(actions))]


def play_out(game: Game[S, A], state: S, seed: int = 0, max_actions: int = 100_000,
             on_action: Callable[[Seat, A, list[Event]], None] | None = None) -> Result:
    """Play ``state`` to the end with random AI for every seat; ``on_action(seat, action, events)``
    is called after each action. Used by ``simulate``, benchmarks and property tests."""
    ai = RandomAI(seed)
    for _ in range(max_actions):
        if game.is_over(state):
            return game.result(state)
        seat = game.to_act(state)[0]
        action = ai.choose(game, state, seat)
        events = game.apply(state, seat, action)
        if on_action is not None:
            on_action(seat, action, events)
    raise RuntimeError(f"{game.key}: game not over after {max_actions} actions")

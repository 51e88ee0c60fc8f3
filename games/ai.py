"""Built-in AI players usable by any game: they only need the engine contract."""

from __future__ import annotations

import json
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


UNDO = "undo"  # the notation games use for taking a step back: never worth playing for an AI


class GreedyAI:
    """Plays the action after which its turn, finished at random, leaves it the most points ahead of the best
    other seat: a sample of the legal actions, each tried on a copy. Needs only the engine contract, so every
    game has it; better than random where points come within a turn (features closed, story tiles completed,
    favors crafted). Deterministic for a given seed."""

    def __init__(self, seed: int = 0, candidates: int = 12, max_steps: int = 40) -> None:
        self.rng = random.Random(seed)
        self.candidates = candidates
        self.max_steps = max_steps

    def choose(self, game: Game[S, A], state: S, seat: Seat) -> A:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise RuntimeError(f"{game.key}: seat {seat} is to act but has no legal action")
        forward = [a for a in actions if game.format(a) != UNDO] or actions
        if len(forward) == 1:
            return forward[0]
        pool = forward if len(forward) <= self.candidates else self.rng.sample(forward, self.candidates)
        text = json.dumps(game.to_json(state))
        valued = [(self._value(game, game.from_json(json.loads(text)), seat, action), n) for n, action in enumerate(pool)]
        return pool[max(valued)[1]]

    def _value(self, game: Game[S, A], trial: S, seat: Seat, action: A) -> float:
        """The seat's lead once its turn, begun with ``action``, is finished at random (on ``trial``, a copy)."""
        turn = game.turn_number(trial)
        game.apply(trial, seat, action)
        for _ in range(self.max_steps):
            if game.is_over(trial) or game.to_act(trial) != [seat] or game.turn_number(trial) != turn:
                break
            steps = [a for a in game.legal_actions(trial, seat) if game.format(a) != UNDO]
            if not steps:
                break
            game.apply(trial, seat, steps[self.rng.randrange(len(steps))])
        scores = game.scores(trial)
        others = [score for other, score in scores.items() if other != seat]
        return scores.get(seat, 0) - max(others, default=0) + self.rng.random() * 1e-3  # ties broken at random


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

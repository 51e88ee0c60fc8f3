"""Built-in AI players usable by any game: they only need the engine contract.

Levels: ``easy`` (random steps, never a step back), ``normal`` (:class:`GreedyAI`, one turn ahead) and ``hard``
(:class:`SearchAI`, a Monte Carlo search within a budget). A game plugs in its own players per level through
the ``ai`` module named in its registry entry (``LEVELS: dict[str, Factory]``); a level it leaves out falls
back to the generic one here. Every player is deterministic for its seed; a ``deadline`` (a callable that
says time is up, given by the bot: engines never read the clock) only cuts a search short.
"""

from __future__ import annotations

import importlib
import json
import math
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from games import registry
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
        text = game.dumps(state)
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


class Player(Protocol):
    """An AI seat: picks one legal action of ``seat`` (a step of its turn; it is asked again for the next). Typed
    loosely: a game's own players take its own game and state types. A player that searches may also offer
    ``plan(game, state, seat) -> list[action]``: the rest of its turn, so the bot plays it without asking
    (and searching) again at every step; ``plan_of`` asks for it."""

    def choose(self, game: Any, state: Any, seat: Seat) -> Any: ...


Deadline = Callable[[], bool]  # True once the decision must be given (checked between search iterations)
Factory = Callable[[int, "Deadline | None"], Player]  # (seed, deadline) -> a player of one level
Determinizer = Callable[[Any, Seat, random.Random], None]  # reshuffles what ``seat`` cannot see, in place

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


def forward_actions(game: Game[S, A], state: S, seat: Seat) -> list[A]:
    """The legal actions of ``seat`` that are not a step back (all of them if there is nothing else)."""
    actions = game.legal_actions(state, seat)
    return [a for a in actions if game.format(a) != UNDO] or actions


class EasyAI:
    """A uniformly random legal step, never a step back (so a turn always moves on). Deterministic for a seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game[S, A], state: S, seat: Seat) -> A:
        actions = forward_actions(game, state, seat)
        if not actions:
            raise RuntimeError(f"{game.key}: seat {seat} is to act but has no legal action")
        return actions[self.rng.randrange(len(actions))]


def lead(game: Game[S, A], state: S, seat: Seat) -> float:
    """The seat's points minus the best other seat's (its own points alone in a solo game)."""
    scores = game.scores(state)
    others = [score for other, score in scores.items() if other != seat]
    return scores.get(seat, 0) - max(others, default=0)


class SearchAI:
    """Determinized flat Monte Carlo tree search (UCB1 over the candidate actions at the root): each iteration
    copies the state through its JSON, reshuffles what the seat cannot see (``determinize``, if the game gives
    one; else the copy is played as it is), tries the candidate, and plays ``horizon`` more turns at random;
    the candidate with the most visits is played. ``iterations`` bounds the search for determinism; the
    ``deadline`` only cuts it short."""

    def __init__(self, seed: int = 0, deadline: Deadline | None = None, iterations: int = 160,
                 candidates: int = 12, horizon: int = 4, determinize: Determinizer | None = None,
                 max_steps: int = 400) -> None:
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.iterations = iterations
        self.candidates = candidates
        self.horizon = horizon
        self.determinize = determinize
        self.max_steps = max_steps

    def choose(self, game: Game[S, A], state: S, seat: Seat) -> A:
        actions = forward_actions(game, state, seat)
        if not actions:
            raise RuntimeError(f"{game.key}: seat {seat} is to act but has no legal action")
        if len(actions) == 1:
            return actions[0]
        pool = actions if len(actions) <= self.candidates else self.rng.sample(actions, self.candidates)
        text = game.dumps(state)
        visits = [0] * len(pool)
        totals = [0.0] * len(pool)
        for done in range(self.iterations):
            if done >= len(pool) and self.deadline is not None and self.deadline():
                break
            if done < len(pool):
                arm = done  # every candidate once first
            else:
                arm = max(range(len(pool)), key=lambda i: totals[i] / visits[i]
                          + 2.0 * math.sqrt(math.log(done) / visits[i]))
            trial = game.from_json(json.loads(text))
            if self.determinize is not None:
                self.determinize(trial, seat, self.rng)
            visits[arm] += 1
            totals[arm] += self._rollout(game, trial, seat, pool[arm])
        best = max(range(len(pool)), key=lambda i: (visits[i], totals[i] / max(visits[i], 1)))
        return pool[best]

    def _rollout(self, game: Game[S, A], trial: S, seat: Seat, action: A) -> float:
        """The seat's lead, squashed to -1..1, after ``action`` and ``horizon`` more turns played at random."""
        start = game.turn_number(trial)
        game.apply(trial, seat, action)
        for _ in range(self.max_steps):
            if game.is_over(trial) or game.turn_number(trial) - start > self.horizon:
                break
            actor = game.to_act(trial)[0]
            steps = forward_actions(game, trial, actor)
            if not steps:
                break
            game.apply(trial, actor, steps[self.rng.randrange(len(steps))])
        return math.tanh(lead(game, trial, seat) / 10.0)


GENERIC: dict[str, Factory] = {
    "easy": lambda seed, deadline: EasyAI(seed),
    "normal": lambda seed, deadline: GreedyAI(seed),
    "hard": lambda seed, deadline: SearchAI(seed, deadline),
}


def game_levels(key: str) -> Mapping[str, Factory]:
    """The game's own players per level (its registry entry's ``ai`` module), over the generic ones."""
    own: Mapping[str, Factory] = {}
    if registry.has(key) and (module := registry.entry(key).ai) is not None:
        own = importlib.import_module(module).LEVELS
    return {**GENERIC, **own}


def plan_of(player: Player, game: Game[S, A], state: S, seat: Seat) -> list[A]:
    """The steps ``player`` means to play from here: its ``plan`` if it has one, else its one choice."""
    plan: Callable[[Game[S, A], S, Seat], list[A]] | None = getattr(player, "plan", None)
    return plan(game, state, seat) if plan is not None else [player.choose(game, state, seat)]


def make_player(key: str, level: str, seed: int, deadline: Deadline | None = None) -> Player:
    """The AI of ``level`` for the game ``key``; ``ValueError`` for a level that does not exist."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    return game_levels(key)[level](seed, deadline)


def play_out(game: Game[S, A], state: S, seed: int = 0, max_actions: int = 100_000,
             on_action: Callable[[Seat, A, list[Event]], None] | None = None) -> Result:
    """Play ``state`` to the end with random AI for every seat; ``on_action(seat, action, events)``
    is called after each action. Used by tests (``simulate`` plays the bot's AI levels: ``bot/simulate.py``)."""
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

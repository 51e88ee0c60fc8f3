"""AI players of Déole, multiplayer and solo, per level (see ``games/ai.py``).

``normal`` is the lookahead player (:mod:`games.deole.lookahead`): each answer tried on a copy with fresh
dice, the position valued by its points and, in solo, the risks of the voyage. ``hard`` plays each answer's
whole pick out on copies (the later steps of the pick by the lookahead player) over several draws of the
unseen dice, and keeps the answer with the best average: a pick is a chain of small decisions, and the first
of them (which die, which track) is worth what the last ones make of it. ``easy`` plays random steps.
"""

from __future__ import annotations

import random

from games.ai import Deadline, EasyAI, Factory
from games.core import Seat
from games.deole.engine import Action, DeoleGame, DeoleState
from games.deole.lookahead import LookaheadPlayer, evaluate

MAX_PICK_STEPS = 40  # a pick is a handful of steps; a bound, not a rule


class NormalAI:
    """One step ahead (the lookahead player), its unknown dice drawn from the seed."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: DeoleGame, state: DeoleState, seat: Seat) -> Action:
        return LookaheadPlayer(game, self.seed).choose(state, seat)


class HardAI:
    """Each answer played to the end of the pick on ``samples`` copies, each with other unseen dice (the same
    draws for every answer compared); the best average value wins. A ``deadline`` stops the sampling early."""

    def __init__(self, seed: int = 0, deadline: Deadline | None = None, samples: int = 4) -> None:
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.samples = samples

    def choose(self, game: DeoleGame, state: DeoleState, seat: Seat) -> Action:
        options = game.legal_actions(state, seat)
        if not options:
            raise RuntimeError(f"deole: seat {seat} is to act but has no legal action")
        if len(options) == 1:
            return options[0]
        seeds = [self.rng.randrange(2**31) for _ in range(self.samples)]
        sums = [0.0] * len(options)
        counts = [0] * len(options)
        for sample, seed in enumerate(seeds):
            if sample and self.deadline is not None and self.deadline():
                break
            for index, action in enumerate(options):
                trial = game.clone(state)
                trial.rng = random.Random(seed)  # unseen dice: never the real ones
                game.apply(trial, seat, action)
                follower = LookaheadPlayer(game, seed)
                for _ in range(MAX_PICK_STEPS):
                    if game.pick_over(trial, seat):
                        break
                    game.apply(trial, seat, follower.choose(trial, seat))
                sums[index] += evaluate(game, trial, seat)
                counts[index] += 1
        best = max(range(len(options)), key=lambda i: (sums[i] / counts[i] if counts[i] else float("-inf"), -i))
        return options[best]


def _easy(seed: int, deadline: Deadline | None) -> EasyAI:
    return EasyAI(seed)


def _normal(seed: int, deadline: Deadline | None) -> NormalAI:
    return NormalAI(seed)


def _hard(seed: int, deadline: Deadline | None) -> HardAI:
    return HardAI(seed, deadline)


LEVELS: dict[str, Factory] = {"easy": _easy, "normal": _normal, "hard": _hard}

__all__ = ["LEVELS", "HardAI", "NormalAI"]

"""A sensible Déole player that looks one move ahead: it tries each answer on a copy (with fresh dice, so it
never peeks at the real rolls) and keeps the answer whose position it likes best.

It measures what the solo rules make dangerous: the storms the round's Wind-track Disasters will raise, the
way home they leave, and the turns left to sail it. Used by the solo outcome tests and the benchmark.
"""

from __future__ import annotations

import random

from games.core import Seat
from games.deole import data as D
from games.deole.engine import Action, Box, DeoleGame, DeoleState, boxes_to_port, port_box, storm_boxes

_LOST = -10_000.0
_ROUND_TRIP = 6  # boxes a ship still in port needs to sail out and come back, about
_OUTCOME_VALUE = {"won": 2_000.0, "not_home": -3_000.0, "crash": _LOST, "shipwreck": _LOST, "abandoned": _LOST}


def _ahead(box: Box, heading: str) -> Box:
    step = D.STEP[heading]
    return box[0] + step[0], box[1] + step[1]


def picks_left(state: DeoleState) -> int:
    """Turns still to play after the current one."""
    return (D.ROUNDS - state.round) * D.TURNS_PER_ROUND + (D.TURNS_PER_ROUND - state.turn)


def evaluate(game: DeoleGame, state: DeoleState, seat: Seat) -> float:
    """How good the position is for ``seat``: its score, and in solo the risks of the voyage."""
    score = float(sum(game.breakdown(state, seat).values()))
    if not state.solo:
        return score
    if state.over:
        return _OUTCOME_VALUE.get(state.outcome, 0.0) + score
    sheet = state.sheets[seat]
    if sheet["docked"]:
        return score + 500.0
    storms = dict(state.storms)
    for track in state.round_disasters:  # the storms the end of this round will raise
        storms[track] += 1
    storm = storm_boxes(storms)
    if sheet["pos"] is None:  # still in port: it must sail out and back (a few boxes at least)
        lanes = [port_box(sheet["colour"], port) for port in range(3)]
        distance: int | None = _ROUND_TRIP if any(_ahead(lane, way) not in storm for lane, way in lanes) else None
    elif tuple(sheet["pos"]) in storm:
        return score - 5_000.0  # caught by the storm at the end of the round
    else:
        distance = boxes_to_port(sheet, storms)
    if distance is None:
        return score - 2_500.0  # no way home is left
    spare = picks_left(state) - distance
    if spare < 0:
        return score - 1_000.0 + 50.0 * spare
    # The less time to spare, the stronger the pull home.
    return score - distance * (6.0 if spare < 4 else 1.0)


class LookaheadPlayer:
    """Looks one move ahead: tries every legal answer on a copy (the engine plays the forced steps that follow
    it) and keeps the one whose position evaluates best; the first such answer on a tie."""

    def __init__(self, game: DeoleGame, seed: int = 0) -> None:
        self.game = game
        self.seed = seed

    def choose(self, state: DeoleState, seat: Seat) -> Action:
        options = self.game.legal_actions(state, seat)
        if len(options) == 1:
            return options[0]
        best: tuple[float, int] | None = None
        for index, action in enumerate(options):
            working = self.game.clone(state)
            working.rng = random.Random(self.seed)  # unknown future dice: never the real ones
            self.game.apply(working, seat, action)
            value = evaluate(self.game, working, seat)
            if best is None or value > best[0]:
                best = (value, index)
        assert best is not None
        return options[best[1]]


def play_solo(game: DeoleGame, side: str, seed: int) -> DeoleState:
    """A whole solo voyage by the lookahead player; the finished state."""
    state = game.setup(1, {"side": side}, seed)
    player = LookaheadPlayer(game, seed)
    while not game.is_over(state):
        game.apply(state, 0, player.choose(state, 0))
    return state

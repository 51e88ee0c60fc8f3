"""A whole game played by the bot's AI players, without Discord (``python -m bot simulate``).

Every seat is played as the bot plays an AI seat (``bot/service_play.py``): the seat's level (``games/ai.py``,
or the game's own ``ai`` module), seeded by the table's seed plus the moves played so far, its plan of the
turn followed while it still fits. The only difference: ``hard`` searches to its own bound instead of the
bot's 0.8 s, so a seed gives the same game on every machine. What comes out is the record ``/game replay``
posts (``bot/replay.py``) and one position per turn, as the board posts and the replays show them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.replay import new_record
from bot.table import turn_key
from games.ai import make_player, plan_of
from games.core import AnyGame, Result

MAX_ACTIONS = 100_000


@dataclass(slots=True)
class Simulation:
    """A finished game: its record (``/game replay``'s JSON), result, turns and actions played."""

    record: dict[str, Any]
    result: Result
    turns: int
    actions: int


def seat_entries(levels: Sequence[str], names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The record's seats: "AI 1", "AI 2"... as the bot names its AI seats (or the ``names`` given), each
    with its level."""
    return [{"position": n, "name": names[n] if names else f"AI {n + 1}", "ai": True, "ai_level": level}
            for n, level in enumerate(levels)]


def stored_options(game: AnyGame, raw: dict[str, str]) -> dict[str, str]:
    """Every option of the game as a table stores it (``/game new``): the values given, checked, and the
    defaults. ``IllegalAction`` (``InvalidOptions``) for an unknown option or a bad value."""
    parsed = game.parse_options(raw)
    return {spec.name: spec.format(parsed[spec.name]) for spec in game.option_specs}


def simulate(game: AnyGame, options: dict[str, Any], seed: int, seats: list[dict[str, Any]],
             on_turn: Callable[[int, Any], None] | None = None) -> Simulation:
    """Play a game to its end with the AI of each seat (``seat_entries``). ``on_turn(turn, state)`` is called
    with the starting position (turn 0) and at the end of every turn (when the seats to act or the turn
    number change, and at the end): the positions ``bot.replay.turn_states`` gives back from the record.
    The state passed is the live one: read it before returning. ``IllegalAction`` from setup."""
    state = game.setup(len(seats), options, seed)
    moves: list[tuple[int, int, str]] = []
    turns = 0
    if on_turn is not None:
        on_turn(0, state)
    while not game.is_over(state):
        if len(moves) >= MAX_ACTIONS:
            raise RuntimeError(f"{game.key}: not over after {MAX_ACTIONS} actions")
        seat = game.to_act(state)[0]
        before = turn_key(game, state)
        player = make_player(game.key, seats[seat]["ai_level"], seed + len(moves))
        for number, action in enumerate(plan_of(player, game, state, seat)):
            if number and (game.is_over(state) or game.to_act(state) != [seat]
                           or action not in game.legal_actions(state, seat)):
                break  # the rest of a plan that no longer fits: the AI is asked again
            game.apply(state, seat, action)
            moves.append((len(moves) + 1, seat, game.format(action)))
            after = turn_key(game, state)
            if after != before or game.is_over(state):
                turns += 1
                before = after
                if on_turn is not None:
                    on_turn(turns, state)
    record = new_record(game.key, options, seed, seats, moves)
    return Simulation(record, game.result(state), turns, len(moves))

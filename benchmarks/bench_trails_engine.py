"""Speed of the Trails & Fortresses engine: complete random-legal games per second and the time to
enumerate the legal placements on a late-game board. Run: ``python benchmarks/bench_trails_engine.py``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import RandomAI  # noqa: E402
from games.trails import GAME  # noqa: E402
from games.trails.engine import _compute_placements  # noqa: E402


def play(players: int, options: dict, seed: int) -> int:
    """One complete game, every choice by RandomAI among legal_actions; returns the number of actions."""
    state = GAME.setup(players, options, seed)
    ai = RandomAI(seed)
    actions = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, ai.choose(GAME, state, seat))
        actions += 1
    GAME.result(state)
    return actions


def games_per_second(label: str, players: int, options: dict, seconds: float = 5.0) -> None:
    play(players, options, -1)  # warm the process-wide fit cache
    start = time.perf_counter()
    games = actions = 0
    while time.perf_counter() - start < seconds:
        actions += play(players, options, games)
        games += 1
    elapsed = time.perf_counter() - start
    print(f"{label}: {games / elapsed:8.1f} games/s  ({actions / games:.0f} actions/game, "
          f"{elapsed / actions * 1e6:.1f} us/action)")


def late_game_enumeration(repeats: int = 2000) -> None:
    state = GAME.setup(4, {"expansions": "river,inns,traders"}, 11)
    ai = RandomAI(11)
    while len(state.deck) > 5:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, ai.choose(GAME, state, seat))
    start = time.perf_counter()
    for _ in range(repeats):
        _compute_placements(state)
    per_call = (time.perf_counter() - start) / repeats
    print(f"legal placements on a late board ({len(state.board)} tiles, {len(state.frontier)} open positions, "
          f"{len(state.place_actions)} placements): {per_call * 1e6:.1f} us")


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    games_per_second("2 players, base game, fields on", 2, {"fields": True}, seconds)
    games_per_second("4 players, all expansions     ", 4, {"expansions": "river,inns,traders"}, seconds)
    late_game_enumeration()

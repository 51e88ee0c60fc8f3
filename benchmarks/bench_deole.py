"""Déole speed: random games per second (1-4 players), render times of a finished 4-player game, and how
solo voyages end with a sensible one-move-lookahead player (games/deole/lookahead.py) and with random play.

Run: .venv/bin/python benchmarks/bench_deole.py [solo voyages per player, default 400]
"""

from __future__ import annotations

import collections
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from games.ai import play_out  # noqa: E402
from games.deole import GAME  # noqa: E402
from games.deole.lookahead import play_solo  # noqa: E402
from rendering.deole import render, render_sheets  # noqa: E402


def games_per_second(players: int, count: int) -> float:
    start = time.perf_counter()
    for seed in range(count):
        play_out(GAME, GAME.setup(players, {}, seed), seed)
    return count / (time.perf_counter() - start)


def render_times(view: dict, function, runs: int = 40) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function(view, "en")
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1000, times[int(0.99 * (len(times) - 1))] * 1000


SIDES = ("blue", "yellow", "green", "red")
OUTCOMES = ("won", "crash", "not_home", "shipwreck")


def solo_outcomes(count: int, lookahead: bool) -> tuple[collections.Counter[str], float]:
    """How ``count`` solo voyages end (seeds 0.., every side in turn) and the voyages per second."""
    outcomes: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    for seed in range(count):
        side = SIDES[seed % 4]
        if lookahead:
            state = play_solo(GAME, side, seed)
        else:
            state = GAME.setup(1, {"side": side}, seed)
            play_out(GAME, state, seed)
        outcomes[state.outcome] += 1
    return outcomes, count / (time.perf_counter() - start)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    for name, lookahead in (("one-move lookahead", True), ("random", False)):
        outcomes, speed = solo_outcomes(count, lookahead)
        shares = ", ".join(f"{o} {outcomes[o]} ({100 * outcomes[o] / count:.1f} %)" for o in OUTCOMES)
        print(f"solo voyages, {name} player, {count} seeds: {shares}; {speed:.1f} voyages/s")
    for players in (1, 2, 3, 4):
        print(f"random games, {players} player(s): {games_per_second(players, 40):.1f} games/s")
    state = GAME.setup(4, {}, 1)
    play_out(GAME, state, 1)
    view = GAME.view(state, None)
    # Issue 38's yardstick: a game's most crowded board renders within 1.5x a finished 4-player Trails board
    # with every expansion (the board; the Navigation sheets are the second image).
    from rendering.trails import render_board as trails_board
    from tests.rendering.trails.boards import game_view

    trails = game_view(None, seed=11)
    reference, _ = render_times(trails, lambda v, locale: trails_board(v, None, locale))
    print(f"reference: finished 4-player Trails board, median {reference:.1f} ms")
    for name, function in (("render (Exploration sheet)", render), ("render_sheets (Navigation)", render_sheets)):
        median, p99 = render_times(view, function)
        print(f"{name}: median {median:.1f} ms ({median / reference:.2f}x the reference), p99 {p99:.1f} ms, "
              f"{len(function(view, 'en')) // 1024} KiB")


if __name__ == "__main__":
    main()

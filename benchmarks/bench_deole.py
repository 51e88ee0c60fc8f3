"""Déole speed: random games per second (1-4 players) and render times of a finished 4-player game.

Run: .venv/bin/python benchmarks/bench_deole.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from games.ai import play_out  # noqa: E402
from games.deole import GAME  # noqa: E402
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


def main() -> None:
    for players in (1, 2, 3, 4):
        print(f"random games, {players} player(s): {games_per_second(players, 40):.1f} games/s")
    state = GAME.setup(4, {}, 1)
    play_out(GAME, state, 1)
    view = GAME.view(state, None)
    for name, function in (("render (Exploration sheet)", render), ("render_sheets (Navigation)", render_sheets)):
        median, p99 = render_times(view, function)
        print(f"{name}: median {median:.1f} ms, p99 {p99:.1f} ms, {len(function(view, 'en')) // 1024} KiB")


if __name__ == "__main__":
    main()

"""Trails & Fortresses renderer speed: median and p99 render+encode time and PNG size for an early, a middle
and a finished 4-player board with all expansions, from real games played by random AI.

Run: .venv/bin/python benchmarks/bench_trails_render.py [repeats]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rendering.trails import render_board, render_preview  # noqa: E402
from tests.rendering.trails.boards import game_view  # noqa: E402  (real 4-player games, all expansions)


def measure(label: str, render, repeats: int) -> None:
    start = time.perf_counter()
    png = render()  # the first call also draws the sprites it needs
    first = time.perf_counter() - start
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        png = render()
        times.append(time.perf_counter() - start)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"{label:<34} first {first * 1000:7.1f} ms   median {statistics.median(times) * 1000:6.1f} ms   "
          f"p99 {p99 * 1000:6.1f} ms   PNG {len(png) / 1024:7.1f} KB")


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    names = ["Alice", "Борис", "Carol", "Dmitri"]
    for label, tiles in (("early (10 tiles)", 10), ("middle (60 tiles)", 60), ("finished", None)):
        view = game_view(tiles, seed=11)
        label = f"{label}, {len(view['board'])} on board"
        measure(f"board {label}", lambda view=view: render_board(view, names, "ru"), repeats)
    view = game_view(60, seed=11)
    x, y = view["turn"]["legal_positions"][0]
    rot = view["turn"]["legal_rotations"][f"{x},{y}"][0]
    measure("preview (middle game)", lambda: render_preview(view, x, y, rot, names), repeats)


if __name__ == "__main__":
    main()

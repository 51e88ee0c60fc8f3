"""Maple Valley speed: random complete games per second (1-5 players, one core), legal actions on a busy
turn, and the board render of a finished 5-player game (and the players' areas), as a ratio of the finished
4-player all-expansions Trails board (issue 38: at most 1.5).

Run: .venv/bin/python benchmarks/bench_maple.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from render_reference import cpu_ms, trails_reference_ms  # noqa: E402  (a finished 4-player Trails board)

from games.ai import play_out  # noqa: E402
from games.maple import GAME  # noqa: E402
from games.maple.engine import MapleState  # noqa: E402
from rendering.maple import render_board, render_details  # noqa: E402


def games_per_second(players: int, count: int) -> tuple[float, float]:
    """Wall-clock and CPU-time rates (the CPU rate is the fairer one on a shared, busy machine)."""
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(count):
        play_out(GAME, GAME.setup(players, {}, seed), seed)
    return count / (time.perf_counter() - start), count / (time.process_time() - cpu)


def busy_turn() -> tuple[MapleState, int]:
    """A craft step as busy as the rules allow: 12 favors in hand, 3 of every goods and curiosity, Cub's
    discount, Tinkerer, Trader and Barterer ready."""
    state = GAME.setup(4, {}, 1)
    while state.keep_order:
        GAME.apply(state, state.keep_order[0], GAME.default_action(state, state.keep_order[0]))
    seat = GAME.to_act(state)[0]
    p = state.seats[seat]
    p["hand"] = ["s4"]
    p["favors"] = [f"{prefix}{n:02d}" for prefix in ("tr", "de", "mu") for n in (1, 5, 9, 12)]
    p["goods"] = {g: 3 for g in p["goods"]}
    p["curios"] = {c: 3 for c in p["curios"]}
    p["patches"] = ["p02", "p06", "p11"]
    for action in ("friend s4 M", "path 3", "stop", "favor deck"):
        if GAME.to_act(state) == [seat] and GAME._decision(state)[0] != "craft":
            GAME.apply(state, seat, GAME.parse(action))
    return state, seat


def timed(function, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1000, times[int(0.99 * (len(times) - 1))] * 1000


def main() -> None:
    for players in (1, 2, 3, 4, 5):
        wall, cpu = games_per_second(players, 30)
        print(f"random games, {players} player(s): {wall:.1f} games/s ({cpu:.1f} per CPU second)")
    state, seat = busy_turn()
    count = len(GAME.legal_actions(state, seat))
    median, p99 = timed(lambda: GAME.legal_actions(state, seat), 200)
    print(f"legal_actions on a busy craft step ({count} actions): median {median:.2f} ms, p99 {p99:.2f} ms")
    finished = GAME.setup(5, {}, 1)
    play_out(GAME, finished, 1)
    view = GAME.view(finished, None)
    names = ["Alice", "Boris", "Chen", "Dana", "Eve"]
    reference = trails_reference_ms(names)
    board = cpu_ms(lambda: render_board(view, names))
    details = cpu_ms(lambda: render_details(view, names))
    print(f"render + PNG, finished 5-player game (CPU, median): board {board:.1f} ms ({board / reference:.2f}x the "
          f"finished 4-player Trails board, {reference:.1f} ms), players' areas {details:.1f} ms; "
          f"{len(render_board(view, names)) // 1024} KiB + {len(render_details(view, names)[0][1]) // 1024} KiB")


if __name__ == "__main__":
    main()

"""Dewan speed: random complete games per second (2-4 players, one core), legal_actions on a late board, the
same boards with a 20-card hand (legal_actions, then choosing a camp: its costs and first payment step), and
the board render + PNG of a finished 4-player game (and the tribe boards' details image), as a ratio of the
finished 4-player all-expansions Trails board (issue 38: at most 1.5).

Run: .venv/bin/python benchmarks/bench_dewan.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from render_reference import cpu_ms, trails_reference_ms  # noqa: E402  (a finished 4-player Trails board)

from games.ai import RandomAI, play_out  # noqa: E402
from games.dewan import GAME  # noqa: E402
from rendering.dewan import render_board, render_details  # noqa: E402


def games_per_second(players: int, count: int, runs: int = 3) -> tuple[float, float]:
    """(games per second of this process's CPU time, games per wall-clock second), the best of ``runs`` runs of
    the same games: the CPU figure is the one-core speed even when other work shares the machine, the best run
    the one least disturbed by it; the wall figure shows what that work took."""
    best_cpu = best_wall = 0.0
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for seed in range(count):
            play_out(GAME, GAME.setup(players, {}, seed), seed)
        best_cpu = max(best_cpu, count / (time.process_time() - cpu))
        best_wall = max(best_wall, count / (time.perf_counter() - wall))
    return best_cpu, best_wall


def late_positions(count: int) -> list:
    """Positions of 4-player random games a few turns before the end, a seat to act on its main turn."""
    positions = []
    for seed in range(count):
        state = GAME.setup(4, {}, 1000 + seed)
        ai = RandomAI(seed)
        snapshots = []
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            if state.phase == "turn":
                snapshots.append(GAME.to_json(state))
            GAME.apply(state, seat, ai.choose(GAME, state, seat))
        positions.append(snapshots[-6])
    return positions


def percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times) * 1000, times[int(0.99 * (len(times) - 1))] * 1000


def big_hands(positions: list, size: int = 20) -> None:
    """The late boards with the seat to act dealt ``size`` cards (no hand limit: routes as long as the hand
    pays): legal_actions, then ``camp`` on 8 of its destinations (the costs of the camp and the first step)."""
    listed, camped = [], []
    for data in positions:
        state = GAME.from_json(data)
        seat = GAME.to_act(state)[0]
        hand = state.seats[seat]["hand"]
        while len(hand) < size and state.deck:
            hand.append(state.deck.pop())
        hand.sort()
        dealt = GAME.to_json(state)
        start = time.perf_counter()
        camps = [a for a in GAME.legal_actions(state, seat) if a[0] == "camp"]
        listed.append(time.perf_counter() - start)
        for action in camps[:: max(1, len(camps) // 8)][:8]:
            state = GAME.from_json(dealt)  # no search cached
            start = time.perf_counter()
            GAME.apply(state, seat, action)
            camped.append(time.perf_counter() - start)
    median, p99 = percentiles(listed)
    print(f"legal_actions, the same boards with {size}-card hands: median {median:.2f} ms, p99 {p99:.2f} ms")
    median, p99 = percentiles(camped)
    print(f"camp on one of their destinations (its costs, the first step), {len(camped)} camps: median "
          f"{median:.2f} ms, p99 {p99:.2f} ms, max {max(camped) * 1000:.2f} ms")


def main() -> None:
    for players in (2, 3, 4):
        cpu, wall = games_per_second(players, 20)
        print(f"random games, {players} players (20 games, best of 3 runs): {cpu:.1f} games/s of CPU time (one core), "
              f"{wall:.1f} by the wall clock")
    times = []
    hands = []
    positions = late_positions(10)
    for data in positions:
        hand = 0
        for _ in range(5):
            state = GAME.from_json(data)  # a fresh state: no search cached
            seat = GAME.to_act(state)[0]
            start = time.perf_counter()
            GAME.legal_actions(state, seat)
            times.append(time.perf_counter() - start)
            hand = len(state.seats[seat]["hand"])
        hands.append(hand)
    median, p99 = percentiles(times)
    print(f"legal_actions, late 4-player boards (hands {min(hands)}-{max(hands)} cards): "
          f"median {median:.2f} ms, p99 {p99:.2f} ms")
    big_hands(positions)
    state = GAME.setup(4, {}, 1)
    play_out(GAME, state, 1)
    view = GAME.view(state, None)
    names = ["Alice", "Boris", "Chen", "Dana"]
    reference = trails_reference_ms(names)
    board = cpu_ms(lambda: render_board(view, names, "en"))
    details = cpu_ms(lambda: render_details(view, names, "en"))
    print(f"render + PNG, finished 4-player game (CPU, median): board {board:.1f} ms ({board / reference:.2f}x the "
          f"finished 4-player Trails board, {reference:.1f} ms), tribe boards {details:.1f} ms; "
          f"{len(render_board(view, names, 'en')) // 1024} KiB + {len(render_details(view, names, 'en')[0][1]) // 1024} KiB")


if __name__ == "__main__":
    main()

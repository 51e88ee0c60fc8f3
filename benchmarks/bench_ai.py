"""AI levels measured: win rates with 95% Wilson intervals, average scores, and decision times per level
(median and p99; each game on one core, ``--jobs`` games at once).

- Trails 2p base: hard vs normal and normal vs easy, seats swapped every other game;
- Trails 4p, all expansions: hard against three normal (hard's seat goes round);
- Déole 3p: hard against two easy (average scores); Déole solo: the voyages won per level.

Hard decides within the bot's budget per decision (``--hard-seconds``), as it does at a table, and, as the bot
does, plays the rest of its turn from its plan (``plan_of``) without searching again at every step.

Run: nice -n 10 .venv/bin/python benchmarks/bench_ai.py [--trails2 N] [--easy2 N] [--trails4 N] [--deole3 N]
     [--solo N] [--jobs 2]  (game counts; 0 skips a section; --jobs: at most one process a core, since hard
     thinks against a wall-clock budget)
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from games import registry  # noqa: E402
from games.ai import Player, make_player, plan_of  # noqa: E402

TIMES: dict[tuple[str, str], list[float]] = defaultdict(list)  # (game, level) -> seconds per decision
HARD_SECONDS = 0.8
JOBS = 1  # processes playing games at once (--jobs); each game on one core, as a table's AI is


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def rate(wins: float, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{100 * wins / max(games, 1):5.1f}% [{100 * low:4.1f}–{100 * high:4.1f}]"


def player(key: str, level: str, seed: int) -> Player:
    if level != "hard":
        return make_player(key, level, seed)
    end = [0.0]

    class Timed:  # a fresh deadline for every decision, as the bot's worker sets one
        def __init__(self) -> None:
            self.steps: list[Any] = []  # the rest of the turn planned
            self.turn = -1

        def choose(self, game: Any, state: Any, seat: int) -> Any:
            turn = game.turn_number(state)
            if not self.steps or self.turn != turn:
                end[0] = time.monotonic() + HARD_SECONDS
                hard = make_player(key, level, seed + turn, deadline=lambda: time.monotonic() >= end[0])
                self.steps, self.turn = plan_of(hard, game, state, seat), turn
            return self.steps.pop(0)

    return Timed()


def play(key: str, levels: list[str], options: dict[str, Any], seed: int) -> Any:
    """One game, ``levels[i]`` in seat i; the finished state."""
    game = registry.get(key)
    state = game.setup(len(levels), options, seed)
    players = [player(key, level, seed * 10 + n) for n, level in enumerate(levels)]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        start = time.perf_counter()
        action = players[seat].choose(game, state, seat)
        TIMES[(key, levels[seat])].append(time.perf_counter() - start)
        game.apply(state, seat, action)
    return state


def _ranking(args: tuple[str, list[str], dict[str, Any], int]) -> tuple[dict[int, Any], dict[tuple[str, str], list[float]]]:
    """One game played (in a worker process with ``--jobs``): its ranking by seat, and its decision times."""
    key, levels, options, seed = args
    TIMES.clear()
    state = play(key, levels, options, seed)
    return {p.seat: p for p in registry.get(key).result(state).ranking}, dict(TIMES)


def rankings(key: str, games: list[tuple[list[str], dict[str, Any], int]]) -> list[dict[int, Any]]:
    """The rankings of ``games`` (levels per seat, options, seed), over ``JOBS`` processes; their decision times
    are added to ``TIMES``."""
    jobs = [(key, levels, options, seed) for levels, options, seed in games]
    kept = {name: list(times) for name, times in TIMES.items()}
    if JOBS > 1:
        with multiprocessing.Pool(JOBS) as pool:
            played = pool.map(_ranking, jobs, chunksize=1)
    else:
        played = [_ranking(job) for job in jobs]
    TIMES.clear()
    for name, times in kept.items():
        TIMES[name].extend(times)
    for _, times in played:
        for name, spent in times.items():
            TIMES[name].extend(spent)
    return [ranking for ranking, _ in played]


def duel(key: str, first: str, second: str, options: dict[str, Any], games: int) -> None:
    """``first`` against ``second`` in 2-player games, seats swapped every other game."""
    wins = ties = 0
    scores: dict[str, list[int]] = {first: [], second: []}
    plays = [([first, second] if n % 2 == 0 else [second, first], options, 1000 + n) for n in range(games)]
    for (levels, _, _), ranking in zip(plays, rankings(key, plays), strict=True):
        mine, theirs = ranking[levels.index(first)].score, ranking[levels.index(second)].score
        scores[first].append(mine)
        scores[second].append(theirs)
        wins += mine > theirs
        ties += mine == theirs
    print(f"  {first} vs {second}: {first} wins {rate(wins, games)} of {games} games ({ties} ties); "
          f"average score {first} {statistics.mean(scores[first]):.1f}, {second} {statistics.mean(scores[second]):.1f}")


def against_field(key: str, hero: str, field: str, players: int, options: dict[str, Any], games: int) -> None:
    """``hero`` in one seat (going round), ``field`` in the others: how often it ranks first."""
    wins = 0
    hero_scores: list[int] = []
    field_scores: list[float] = []
    plays = [([hero if s == n % players else field for s in range(players)], options, 2000 + n) for n in range(games)]
    for n, ranking in enumerate(rankings(key, plays)):
        seat = n % players
        wins += ranking[seat].rank == 1
        hero_scores.append(ranking[seat].score)
        field_scores.append(statistics.mean(p.score for s, p in ranking.items() if s != seat))
    hero_mean, field_mean = statistics.mean(hero_scores), statistics.mean(field_scores)
    print(f"  {hero} vs {players - 1} {field}: {hero} first {rate(wins, games)} of {games} games "
          f"(a fair share is {100 / players:.0f}%); average score {hero} {hero_mean:.1f}, {field} {field_mean:.1f} "
          f"(x{hero_mean / max(field_mean, 1e-9):.2f})")


def solo(games: int) -> None:
    game = registry.get("deole")
    sides = ("blue", "yellow", "green", "red")
    for level in ("easy", "normal", "hard"):
        won = 0
        for n in range(games):
            state = game.setup(1, {"side": sides[n % 4]}, 3000 + n)
            players = [player("deole", level, n)]
            while not game.is_over(state):
                start = time.perf_counter()
                action = players[0].choose(game, state, 0)
                TIMES[("deole", level)].append(time.perf_counter() - start)
                game.apply(state, 0, action)
            won += bool(game.result(state).extra.get("won"))
        print(f"  solo {level}: won {rate(won, games)} of {games} voyages")


def main() -> None:
    global HARD_SECONDS, JOBS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trails2", type=int, default=20, help="Trails 2p base games, hard vs normal")
    parser.add_argument("--easy2", type=int, default=40, help="Trails 2p base games, normal vs easy")
    parser.add_argument("--trails4", type=int, default=8, help="Trails 4p all expansions, hard vs 3 normal")
    parser.add_argument("--deole3", type=int, default=10, help="Déole 3p games, hard vs 2 easy")
    parser.add_argument("--solo", type=int, default=40, help="Déole solo voyages per level")
    parser.add_argument("--hard-seconds", type=float, default=HARD_SECONDS, help="hard's budget per decision")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once (at most one a core)")
    args = parser.parse_args()
    HARD_SECONDS, JOBS = args.hard_seconds, args.jobs
    started = time.perf_counter()
    print("Trails & Fortresses, 2 players, base game:")
    if args.trails2:
        duel("trails", "hard", "normal", {}, args.trails2)
    if args.easy2:
        duel("trails", "normal", "easy", {}, args.easy2)
    if args.trails4:
        print("Trails & Fortresses, 4 players, river + inns + traders:")
        against_field("trails", "hard", "normal", 4, {"expansions": "river,inns,traders"}, args.trails4)
    print("Déole:")
    if args.deole3:
        against_field("deole", "hard", "easy", 3, {}, args.deole3)
    if args.solo:
        solo(args.solo)
    print("Decision time per level (ms, each game on one core):")
    for (key, level), times in sorted(TIMES.items()):
        times.sort()
        print(f"  {key:7} {level:7} median {1000 * statistics.median(times):7.1f}  "
              f"p99 {1000 * times[int(0.99 * (len(times) - 1))]:7.1f}  ({len(times)} decisions)")
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()

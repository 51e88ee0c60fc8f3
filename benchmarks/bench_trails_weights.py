"""Trails hard's evaluator weights measured: one weights variant (``games/trails/ai.py`` ``Weights``) played one
turn ahead in one seat (going round) against ``normal`` in the others; how often it ranks first (95% Wilson
interval), its average score and its lead over the best other seat. The same game seeds for every variant (common
random numbers), so variants compare on the same deals. This is how ``HARD`` was tuned.

Run: nice -n 10 .venv/bin/python benchmarks/bench_trails_weights.py [--games N] [--start S] [--players P]
     [--expansions river,inns,traders] [--search] [name=value ...]   (e.g. field_points=1.0 others_max=0.5;
     no name=value: normal's weights; --hard: HARD's)
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from benchmarks.bench_ai import rate  # noqa: E402
from games import registry  # noqa: E402
from games.ai import make_player  # noqa: E402
from games.trails.actions import TrailsAction  # noqa: E402
from games.trails.ai import HARD, NORMAL, HardAI, Weights  # noqa: E402
from games.trails.engine import TrailsGame  # noqa: E402

HARD_SECONDS = 0.8


def variant(settings: list[str], base: Weights) -> Weights:
    """``base`` with the given ``name=value`` settings."""
    changes: dict[str, Any] = {}
    for setting in settings:
        name, _, value = setting.partition("=")
        changes[name] = float(value)
    return dataclasses.replace(base, **changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="first game number (seed 2000 + number, as bench_ai)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--expansions", default="river,inns,traders", help="'' for the base game")
    parser.add_argument("--search", action="store_true", help="hard's search on top (0.8 s per decision)")
    parser.add_argument("--hard", action="store_true", help="start from HARD's weights instead of normal's")
    parser.add_argument("settings", nargs="*", help="name=value of Weights")
    args = parser.parse_args()
    weights = variant(args.settings, HARD if args.hard else NORMAL)
    game = cast(TrailsGame, registry.get("trails"))
    options = {"expansions": args.expansions} if args.expansions else {}
    firsts = 0
    hero_scores: list[int] = []
    field_scores: list[float] = []
    leads: list[int] = []
    times: list[float] = []
    started = time.perf_counter()
    end = [0.0]  # the hero's deadline, set afresh for every decision
    for number in range(args.start, args.start + args.games):
        seat = number % args.players
        seed = 2000 + number
        state = game.setup(args.players, options, seed)
        plan: list[TrailsAction] = []
        players = [make_player("trails", "normal", seed * 10 + s) for s in range(args.players)]
        hero = HardAI(seed * 10 + seat, lambda: time.monotonic() >= end[0], weights=weights,
                      samples=6 if args.search else 0)
        while not game.is_over(state):
            actor = game.to_act(state)[0]
            begun = time.perf_counter()
            if actor == seat:  # one decision a turn, its plan played (as the bot does)
                if not plan:
                    end[0] = time.monotonic() + HARD_SECONDS
                    plan = hero.plan(game, state, actor)
                    times.append(time.perf_counter() - begun)
                action = plan.pop(0)
            else:
                action = players[actor].choose(game, state, actor)
            game.apply(state, actor, action)
        ranking = {p.seat: p for p in game.result(state).ranking}
        firsts += ranking[seat].rank == 1
        hero_scores.append(ranking[seat].score)
        others = [p.score for s, p in ranking.items() if s != seat]
        field_scores.append(statistics.mean(others))
        leads.append(ranking[seat].score - max(others))
    times.sort()
    changed = {f.name: getattr(weights, f.name) for f in dataclasses.fields(weights)
               if getattr(weights, f.name) != getattr(NORMAL, f.name)}
    print(f"{changed or 'normal weights'}{' + search' if args.search else ''}: first {rate(firsts, args.games)} of "
          f"{args.games} games ({args.players}p); average score {statistics.mean(hero_scores):.1f} vs "
          f"{statistics.mean(field_scores):.1f}, lead over the best other {statistics.mean(leads):+.1f}; decision "
          f"p99 {1000 * times[int(0.99 * (len(times) - 1))]:.0f} ms ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()

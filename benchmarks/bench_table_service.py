"""Moves per second through the table service with the SQLite store (simulated games, no Discord), side by
side with the same games on the bare engine, and the time of one move's commit: median and p99.

    python benchmarks/bench_table_service.py [--games 3]

Each service move is ``TableService.act``: the table's lock, a copy of the state, the rules, and one
transaction (move log, snapshot, clock) with ``synchronous=FULL``, so an acknowledged move survives a power
loss: on this kind of disk the fsync is most of a commit.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import SqliteStore  # noqa: E402
from bot.tables import TableService  # noqa: E402
from games import registry  # noqa: E402

CASES = (("trails", 2, {}), ("trails", 4, {"expansions": "river,inns,traders"}), ("deole", 2, {}))


def bare_engine(game_key: str, players: int, options: dict[str, str], games: int) -> float:
    """Moves per second of the engine alone: the same kind of random games, apply only."""
    game = registry.get(game_key)
    moves, spent = 0, 0.0
    for number in range(games):
        state = game.setup(players, options, number)
        rng = random.Random(number)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            action = rng.choice(game.legal_actions(state, seat))
            start = time.perf_counter()
            game.apply(state, seat, action)
            spent += time.perf_counter() - start
            moves += 1
    return moves / spent


async def through_service(game_key: str, players: int, options: dict[str, str], games: int) -> list[float]:
    """The time of each move through the service (lock, rules, commit)."""
    durations: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "bench.sqlite3"))
        await store.open()
        service = TableService(store)
        for number in range(games):
            channel = 1000 + number
            await service.create(1, channel, game_key, 1, "p1", options, seed=number)
            for user in range(2, players + 1):
                await service.join(channel, user, f"p{user}")
            await service.start(channel, 1)
            rng = random.Random(number)
            while channel in service.tables:
                table = service.tables[channel]
                seat = table.game.to_act(table.state)[0]
                user = table.seats[seat].user_id
                assert user is not None  # every seat is a player here
                choice = rng.choice(service.legal_notations(channel, user))
                before = time.perf_counter()
                await service.act(channel, user, choice)
                durations.append(time.perf_counter() - before)
        await store.close()
    return durations


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':<34} {'service moves/s':>16} {'engine moves/s':>15} {'ratio':>6} "
          f"{'move median':>12} {'p99':>9}")
    for game_key, players, options in CASES:
        durations = asyncio.run(through_service(game_key, players, options, args.games))
        engine = bare_engine(game_key, players, options, args.games)
        service = len(durations) / sum(durations)
        durations.sort()
        p99 = durations[min(len(durations) - 1, int(len(durations) * 0.99))]
        label = f"{game_key} {players}p {','.join(options.values()) or 'base'}"
        print(f"{label:<34} {service:16.0f} {engine:15.0f} {engine / service:5.0f}x "
              f"{statistics.median(durations) * 1000:10.2f} ms {p99 * 1000:6.2f} ms")


if __name__ == "__main__":
    main()

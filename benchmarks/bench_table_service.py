"""Moves per second through the table service with the SQLite store (simulated games, no Discord),
and the time of one move's commit (apply + log + snapshot in one transaction): median and p99.

    python benchmarks/bench_table_service.py [--game trails] [--players 2] [--games 5]
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


async def bench(game_key: str, players: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "bench.sqlite3"))
        await store.open()
        service = TableService(store)
        durations: list[float] = []
        started = time.perf_counter()
        for number in range(games):
            channel = 1000 + number
            await service.create(1, channel, game_key, 1, "p1", seed=number)
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
        elapsed = time.perf_counter() - started
        await store.close()
    durations.sort()
    p99 = durations[min(len(durations) - 1, int(len(durations) * 0.99))]
    print(f"{game_key}, {players} players, {games} games: {len(durations)} moves in {elapsed:.2f} s "
          f"= {len(durations) / elapsed:.0f} moves/s")
    print(f"one move (apply + commit): median {statistics.median(durations) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(bench(args.game or "trails", args.players, args.games))


if __name__ == "__main__":
    main()

"""The service at scale: start-up (``TableService.load``: time and memory) with N stored tables in play, and
the turn clock's pass (event-loop time) with N tables waiting on deadlines.

    python benchmarks/bench_scale.py [--tables 10000 100000]

The database is filled directly with N copies of one real mid-game Trails snapshot (2 players), as a
server with that many tables would hold them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.clock import TurnClock  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from bot.tables import TableService  # noqa: E402
from games import registry  # noqa: E402


def resident_bytes() -> int:
    """The process's resident memory (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def mid_game_snapshot() -> str:
    game = registry.get("trails")
    state = game.setup(2, {}, 1)
    rng = random.Random(1)
    for _ in range(60):
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(len(actions))])
    return game.dumps(state)


async def fill(path: str, tables: int, snapshot: str) -> None:
    store = SqliteStore(path)
    await store.open()  # the schema
    await store.close()
    db = sqlite3.connect(path)
    now = time.time()
    db.executemany(
        "INSERT INTO game_tables (id, guild_id, channel_id, game, options, status, host_id, seed, created_at,"
        " turn_seconds, deadline, reminders_sent, version)"  # 1 h left of a day: this turn's reminders went out
        " VALUES (?, 1, ?, 'trails', '{}', 'playing', 1, 1, 0, 86400, ?, 2, 60)",
        [(i, 10_000 + i, now + 3600 + i) for i in range(1, tables + 1)])
    db.executemany("INSERT INTO seats (table_id, position, user_id, display) VALUES (?, ?, ?, ?)",
                   [(i, p, 100 + p, f"p{p}") for i in range(1, tables + 1) for p in (0, 1)])
    db.executemany("INSERT INTO snapshots (table_id, version, state) VALUES (?, 60, ?)",
                   [(i, snapshot) for i in range(1, tables + 1)])
    db.commit()
    db.close()


async def bench(tables: int, snapshot: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "scale.sqlite3")
        await fill(path, tables, snapshot)
        store = SqliteStore(path)
        await store.open()
        service = TableService(store)
        rss_before = resident_bytes()
        started = time.perf_counter()
        await service.load()
        load_seconds = time.perf_counter() - started
        memory = resident_bytes() - rss_before
        clock = TurnClock(service, lambda outcome: asyncio.sleep(0))
        passes = []
        for _ in range(200):  # a pass when nothing is due: what every wake-up costs
            before = time.perf_counter()
            await clock.fire_due()
            clock.next_wake()
            passes.append(time.perf_counter() - before)
        await store.close()
    print(f"{tables:>7} tables: start-up (load) {load_seconds:6.2f} s, +{memory / 2**20:5.0f} MiB resident;"
          f" clock pass median {statistics.median(passes) * 1e3:.3f} ms, max {max(passes) * 1e3:.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, nargs="+", default=[10_000])
    args = parser.parse_args()
    snapshot = mid_game_snapshot()
    print(f"one stored snapshot: {len(snapshot)} bytes (a 2-player Trails game after 60 actions)")
    for tables in args.tables:
        asyncio.run(bench(tables, snapshot))


if __name__ == "__main__":
    main()

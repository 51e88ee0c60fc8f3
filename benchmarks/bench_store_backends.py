"""Moves per second through the table service on SQLite and on PostgreSQL by one process, and on PostgreSQL by
two processes sharing the database (as two shard processes do), for the same total number of tables in play.
SQLite is the store of a bot of one process: two processes writing one file is not a deployment we offer.

    nice -n 10 python benchmarks/bench_store_backends.py [--tables 8] [--seconds 4] [--url postgresql://...]

Each process opens its own store and table service, starts its share of Trails 2-player tables (channels of
its own, as a shard owns its guilds), waits for the others, then plays random legal moves on all its tables
concurrently for ``--seconds``; a finished game is replaced by a new one. A move is ``TableService.act``: the
table's lock, the rules, and one transaction (move log, snapshot every few moves, clock). PostgreSQL runs
in a database created for the run (``--url`` or BENCH_DATABASE_URL: a server's admin database, default
postgres on 127.0.0.1:5432) and dropped after it.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg  # noqa: E402

from bot.store import PostgresStore, SqliteStore, Store  # noqa: E402
from bot.tables import TableService  # noqa: E402

GAME, PLAYERS = "trails", 2
ADMIN_URL = os.environ.get("BENCH_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/postgres"


def make_store(target: str) -> Store:
    return PostgresStore(target) if target.startswith("postgresql://") else SqliteStore(target)


async def _new_game(service: TableService, channel: int, seed: int) -> None:
    await service.create(1, channel, GAME, 1, "p1", {}, seed=seed)
    for user in range(2, PLAYERS + 1):
        await service.join(channel, user, f"p{user}")
    await service.start(channel, 1)


async def _play(target: str, index: int, tables: int, seconds: float, barrier: Any) -> tuple[int, list[float]]:
    """This process's tables played for ``seconds`` once every process is ready: (moves, each move's time)."""
    store = make_store(target)
    await store.open()
    service = TableService(store)
    channels = [index * 100_000 + number for number in range(tables)]
    for channel in channels:
        await _new_game(service, channel, channel)
    await asyncio.to_thread(barrier.wait, 120)
    stop = time.perf_counter() + seconds
    durations: list[float] = []

    async def table_loop(channel: int) -> None:
        rng, games = random.Random(channel), 0
        while time.perf_counter() < stop:
            if channel not in service.tables:  # finished: the next game on a fresh channel id
                games += 1
                await _new_game(service, channel + games * 1000, channel + games)
                channel += games * 1000
            table = service.tables[channel]
            user = table.seats[table.game.to_act(table.state)[0]].user_id
            assert user is not None
            before = time.perf_counter()
            await service.act(channel, user, rng.choice(service.legal_notations(channel, user)))
            durations.append(time.perf_counter() - before)

    await asyncio.gather(*(table_loop(channel) for channel in channels))
    await store.close()
    return len(durations), durations


def _worker(target: str, index: int, tables: int, seconds: float, barrier: Any, results: Any) -> None:
    try:
        results.put(asyncio.run(_play(target, index, tables, seconds, barrier)))
    except BaseException as error:  # told to the parent, which stops instead of waiting
        barrier.abort()
        results.put(f"process {index}: {type(error).__name__}: {error}")
        raise


def run(target: str, processes: int, tables: int, seconds: float) -> tuple[float, float, float]:
    """(moves/s of all processes together, median move ms, p99 move ms)."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes), context.Queue()
    workers = [context.Process(target=_worker, args=(target, index, tables // processes, seconds, barrier, results))
               for index in range(processes)]
    for worker in workers:
        worker.start()
    found = [results.get(timeout=seconds + 300) for _ in workers]
    for worker in workers:
        worker.join()
    failures = [entry for entry in found if isinstance(entry, str)]
    if failures:
        raise SystemExit("; ".join(failures))
    durations = sorted(d for _, ds in found for d in ds)
    moves = sum(count for count, _ in found)
    p99 = durations[min(len(durations) - 1, int(len(durations) * 0.99))]
    return moves / seconds, statistics.median(durations) * 1000, p99 * 1000


async def _admin(url: str, sql: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=8, help="tables in play in all (split between processes)")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--url", default=ADMIN_URL, help="a PostgreSQL server's admin database")
    args = parser.parse_args()
    name = f"pbc_bench_{uuid.uuid4().hex[:10]}"
    base, _, query = args.url.partition("?")
    database_url = f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")
    print(f"{GAME} {PLAYERS}p, {args.tables} tables in play, {args.seconds:g} s per run, {os.cpu_count()} CPUs")
    print(f"{'backend':<11} {'processes':>9} {'moves/s':>9} {'move median':>12} {'p99':>9}")
    with tempfile.TemporaryDirectory() as folder:
        rate, median, p99 = run(str(Path(folder) / "bench.sqlite3"), 1, args.tables, args.seconds)
        print(f"{'SQLite':<11} {1:>9} {rate:9.0f} {median:9.2f} ms {p99:6.2f} ms")
    for processes in (1, 2):  # a fresh database per run: each starts from the same empty state
        asyncio.run(_admin(args.url, f'CREATE DATABASE "{name}"'))
        try:
            rate, median, p99 = run(database_url, processes, args.tables, args.seconds)
        finally:
            asyncio.run(_admin(args.url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        print(f"{'PostgreSQL':<11} {processes:>9} {rate:9.0f} {median:9.2f} ms {p99:6.2f} ms")


if __name__ == "__main__":
    main()

"""Moves per second through the table service with the SQLite store (simulated games, no Discord), side by
side with the same games on the bare engine, and the time of one move: median and p99.

    python benchmarks/bench_table_service.py [--games 3] [--tables 50]

Each service move is ``TableService.act``: the table's lock, the rules on the live state, and one commit
(the move appended to the log, the clock; a snapshot every ``SNAPSHOT_EVERY`` moves) with
``synchronous=FULL``, so an acknowledged move survives a power loss. Two figures: one table at a time (each
move waits for its own fsync: latency), and ``--tables`` tables played at once, as on a busy server (moves
waiting together share one transaction and one fsync: throughput).
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
from bot.tables import MoveOutcome, TableService  # noqa: E402
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


async def posted(service: TableService, outcome: MoveOutcome) -> None:
    """What the bot does once a turn's board is in the channel: what it told is forgotten."""
    if outcome.announce and not outcome.finished:
        await service.board_posted(outcome.table, len(outcome.table.record.held_events), outcome.table.version)


async def open_table(service: TableService, number: int, game_key: str, players: int,
                     options: dict[str, str]) -> int:
    """Table ``number`` (its seed, as the bare engine's games) with ``players`` seated (users 1..n) and started;
    its channel."""
    channel = 1000 + number
    await service.create(1, channel, game_key, 1, "p1", options, seed=number)
    for user in range(2, players + 1):
        await service.join(channel, user, f"p{user}")
    await service.start(channel, 1)
    return channel


def mover(service: TableService, channel: int) -> int:
    """The user to move at the table (every seat is a player here)."""
    table = service.tables[channel]
    user = table.seats[table.game.to_act(table.state)[0]].user_id
    assert user is not None
    return user


async def through_service(game_key: str, players: int, options: dict[str, str], games: int) -> list[float]:
    """The time of each move through the service (lock, rules, commit)."""
    durations: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "bench.sqlite3"))
        await store.open()
        service = TableService(store)
        for number in range(games):
            channel = await open_table(service, number, game_key, players, options)
            rng = random.Random(number)
            while channel in service.tables:
                user = mover(service, channel)
                choice = rng.choice(service.legal_notations(channel, user))
                before = time.perf_counter()
                outcome = await service.act(channel, user, choice)
                durations.append(time.perf_counter() - before)
                await posted(service, outcome)
        await store.close()
    return durations


async def concurrent_service(game_key: str, players: int, options: dict[str, str], tables: int) -> tuple[int, float]:
    """(moves, seconds) of ``tables`` whole games played at once through one service, each by its own task.
    The seconds are the service's: the players' own choosing (listing every legal notation to pick one, which
    the bare engine's figure leaves out too) is not counted; it runs on the event loop between moves."""
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(str(Path(folder) / "bench.sqlite3"))
        await store.open()
        service = TableService(store)
        for number in range(tables):
            await open_table(service, number, game_key, players, options)

        choosing = 0.0

        async def play(channel: int) -> int:
            nonlocal choosing
            rng, moves = random.Random(channel), 0
            while channel in service.tables:
                before = time.perf_counter()
                user = mover(service, channel)
                choice = rng.choice(service.legal_notations(channel, user))
                choosing += time.perf_counter() - before
                await posted(service, await service.act(channel, user, choice))
                moves += 1
            return moves

        started = time.perf_counter()
        counts = await asyncio.gather(*(play(1000 + number) for number in range(tables)))
        seconds = time.perf_counter() - started - choosing
        await store.close()
    return sum(counts), seconds


def rows(games: int, tables: int) -> list[str]:
    """The table of figures, one line per game (used by ``run_all.py`` too)."""
    lines = [f"{'game':<30} {'engine moves/s':>14} {'service, 1 table':>17} {'ratio':>6} {'median':>8} "
             f"{'p99':>8} {f'service, {tables} tables':>19} {'ratio':>6}"]
    for game_key, players, options in CASES:
        durations = asyncio.run(through_service(game_key, players, options, games))
        engine = bare_engine(game_key, players, options, max(games, tables))  # the same seeds as the tables
        service = len(durations) / sum(durations)
        moves, seconds = asyncio.run(concurrent_service(game_key, players, options, tables))
        busy = moves / seconds
        durations.sort()
        p99 = durations[min(len(durations) - 1, int(len(durations) * 0.99))]
        label = f"{game_key} {players}p {','.join(options.values()) or 'base'}"
        lines.append(f"{label:<30} {engine:14.0f} {service:17.0f} {engine / service:5.0f}x "
                     f"{statistics.median(durations) * 1000:5.2f} ms {p99 * 1000:5.2f} ms {busy:19.0f} "
                     f"{engine / busy:5.1f}x")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50)
    args = parser.parse_args()
    print("\n".join(rows(args.games, args.tables)))


if __name__ == "__main__":
    main()

"""Replays: for the largest game of each kind (every seat taken, every expansion), played to the end by random
AI, the time to rebuild every position from the record, to render one board per turn, and to encode the
animation, with its size and frame scale against Discord's 10 MiB; for Trails, every format side by side;
then how late the event loop runs while a replay is built in a worker thread.

Run: nice -n 10 .venv/bin/python benchmarks/bench_replay.py [game ...]
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.replay import new_record, replay_views  # noqa: E402
from games import registry  # noqa: E402
from games.ai import play_out  # noqa: E402
from rendering import render_board  # noqa: E402
from rendering.replay import DISCORD_LIMIT, FORMATS, animate  # noqa: E402

LARGEST: dict[str, dict[str, Any]] = {  # the most seats and every option that adds to the board
    "trails": {"expansions": "river,inns,traders"},
    "dewan": {},
    "maple": {},
    "deole": {},
}


def played(key: str, seed: int = 1) -> dict[str, Any]:
    game = registry.get(key)
    options = LARGEST[key]
    if key == "trails":
        options = {"expansions": ",".join(game.option_specs[0].choices)}
    state = game.setup(game.max_players, options, seed)
    moves: list[tuple[int, int, str]] = []
    play_out(game, state, seed=seed,
             on_action=lambda seat, action, _events: moves.append((len(moves) + 1, seat, game.format(action))))
    seats = [{"position": n, "name": f"Player {n + 1}", "ai": True} for n in range(game.max_players)]
    return new_record(key, options, seed, seats, moves)


def main() -> None:
    keys = sys.argv[1:] or list(LARGEST)
    for key in keys:
        record = played(key)
        start = time.perf_counter()
        views = replay_views(record)
        rebuilt = time.perf_counter() - start
        names = [s["name"] for s in record["seats"]]
        start = time.perf_counter()
        pngs = [render_board(key, view, "en", names) for view in views]
        rendered = time.perf_counter() - start
        print(f"{key}: {len(record['moves'])} moves, {len(views)} frames; rebuilt in {rebuilt:.2f} s, "
              f"rendered in {rendered:.1f} s ({rendered / len(views) * 1000:.0f} ms a frame), "
              f"final board {len(pngs[-1]) / 1024:.0f} KB PNG")
        for extension in (FORMATS if key == "trails" else ["webp"]):
            start = time.perf_counter()
            data, scale = animate(pngs, extension)
            encoded = time.perf_counter() - start
            print(f"    {extension:<4} {len(data) / 2**20:6.2f} MiB ({len(data) / DISCORD_LIMIT:4.0%} of 10 MiB) "
                  f"at scale {scale:.2f}, encoded in {encoded:.1f} s")


async def loop_lag(key: str) -> None:
    """How late a 10 ms timer fires on the event loop while a replay is built in a worker thread (as the bot
    builds it): what other tables' moves wait meanwhile."""
    record = played(key)
    names = [s["name"] for s in record["seats"]]
    lags: list[float] = []

    def build() -> bytes:
        return animate([render_board(key, view, "en", names) for view in replay_views(record)])[0]

    async def tick() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - start - 0.01)

    ticker = asyncio.create_task(tick())
    start = time.perf_counter()
    await asyncio.to_thread(build)
    built = time.perf_counter() - start
    ticker.cancel()
    lags.sort()
    print(f"{key}: replay built in {built:.1f} s in a thread; event loop lag median {lags[len(lags) // 2] * 1000:.1f} ms,"
          f" p99 {lags[int(len(lags) * 0.99)] * 1000:.1f} ms, max {lags[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
    asyncio.run(loop_lag("dewan"))

"""Latency a player feels: from an injected ``/game move`` (the interaction sent by the fake Discord on
127.0.0.1) to the bot's board post with its image, through the real bot: gateway, command tree, table
service, SQLite commit, Pillow render, multipart followup. Plays 2-player Trails games (base set) with
random legal moves until at least N moves were answered with a board; prints median, p90, p99 and max,
and the same for the steps of a turn (laying the tile, a figure) that are answered privately.

    .venv/bin/python benchmarks/bench_e2e_latency.py [moves]     (default 200)
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import PlayByChatBot, apply_endpoints  # noqa: E402
from bot.config import Config  # noqa: E402
from games.ai import RandomAI  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.e2e.harness import bot_env, build_default_world, point_discord_at, start_bot, start_table  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def bench(wanted: int) -> None:
    fake = FakeDiscord()
    world = build_default_world(fake)
    await fake.start()
    restore = point_discord_at(fake)
    folder = tempfile.TemporaryDirectory()

    async def make_bot() -> PlayByChatBot:
        env = bot_env(fake) | {"DATABASE_PATH": str(Path(folder.name) / "bench.sqlite3"),
                               "DEV_GUILD_ID": str(world.guild.id)}
        config = Config.from_env(env, dotenv=None)
        apply_endpoints(config)
        return PlayByChatBot(config)

    bot = await start_bot(fake, make_bot)
    players = {world.alice.id: world.alice, world.bob.id: world.bob}
    channel = world.general
    latencies: list[float] = []  # moves answered with the public board image
    steps: list[float] = []  # steps of a turn answered privately
    games = 0
    try:
        while len(latencies) < wanted:
            lobby = await (await fake.slash("/game new", user=world.alice, channel=channel,
                                            options={"game": "trails"})).reply()
            await (await fake.click(lobby, "pbc:lobby:join", user=world.bob)).response()
            await start_table(fake, lobby, world.alice, channel)
            ai = RandomAI(games)
            games += 1
            client: Any = bot.client  # the PlayByChatBot
            while (table := client.tables.tables.get(channel.id)) is not None:
                seat = table.game.to_act(table.state)[0]
                notation = table.game.format(ai.choose(table.game, table.state, seat))
                user = players[table.seats[seat].user_id]
                mark = fake.mark()
                started = time.perf_counter()
                reply = await (await fake.slash("/game move", user=user, channel=channel, action=notation)).reply(
                    timeout=30)
                # A step of a turn is answered privately (with the preview image when a tile is laid); a
                # confirmed turn posts the public board with its image, then tells the mover where it is.
                if "on the board" in reply.content:
                    await fake.wait_for_message(channel, lambda m: bool(m.attachments) and not m.ephemeral,
                                                after=mark)
                    latencies.append(time.perf_counter() - started)
                else:
                    steps.append(time.perf_counter() - started)
    finally:
        await bot.stop()
        await fake.stop()
        restore()
        folder.cleanup()
    print(f"/game move through the real bot over the fake Discord, {games} 2-player Trails games")
    for label, values in (("-> board post with image", latencies), ("-> private step reply", steps)):
        ms = [x * 1000 for x in values]
        print(f"  {label:26} {len(ms):4d} moves  median {statistics.median(ms):.1f} ms   "
              f"p90 {percentile(ms, 0.9):.1f} ms   p99 {percentile(ms, 0.99):.1f} ms   max {max(ms):.1f} ms")


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(bench(int(sys.argv[1]) if len(sys.argv) > 1 else 200))

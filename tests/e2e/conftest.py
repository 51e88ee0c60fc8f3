"""Fixtures: a fresh fake Discord per test (with the default world), torn down with every bot on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from .fake_discord import FakeDiscord
from .harness import DefaultWorld, build_default_world, default_world, point_discord_at, stop_all_bots


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    build_default_world(server)  # before start: the world is what GUILD_CREATE will describe
    await server.start()
    restore = point_discord_at(server)
    try:
        yield server
    finally:
        await stop_all_bots(server)
        await server.stop()
        restore()
    # A crash inside the fake is a bug in the test infrastructure, never a pass.
    assert not server.server_errors, server.server_errors[0]


@pytest.fixture
def world(fake: FakeDiscord) -> DefaultWorld:
    return default_world(fake)


@pytest.fixture
def make_bot(fake: FakeDiscord, world: DefaultWorld, tmp_path) -> Callable[[], Awaitable[object]]:
    """A factory of the real bot, configured as in production from the environment, on one database file
    (call it again after ``bot.stop()`` to restart on the same data)."""
    from bot.app import PlayByChatBot, apply_endpoints
    from bot.config import Config

    from .harness import bot_env

    async def factory() -> PlayByChatBot:
        env = bot_env(fake) | {"DATABASE_PATH": str(tmp_path / "db.sqlite3"), "DEV_GUILD_ID": str(world.guild.id)}
        config = Config.from_env(env, dotenv=None)
        apply_endpoints(config)
        return PlayByChatBot(config)

    return factory

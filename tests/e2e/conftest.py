"""Fixtures: a fresh fake Discord per test (with the default world), torn down with every bot on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

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

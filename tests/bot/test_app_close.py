"""Closing the bot stops the hard AIs' worker processes (bot/app.py ``close``): none is left behind."""

from __future__ import annotations

from pathlib import Path

from bot.app import make_bot
from bot.config import Config
from bot.store import SqliteStore


class FakePool:
    def __init__(self) -> None:
        self.shutdowns: list[tuple[bool, bool]] = []

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shutdowns.append((wait, cancel_futures))


async def test_closing_the_bot_shuts_the_hard_ai_pool(tmp_path: Path) -> None:
    bot = make_bot(Config.from_env({}, dotenv=None), store=SqliteStore(str(tmp_path / "bot.db")))
    pool = FakePool()
    bot.tables.ai._pool = pool  # type: ignore[assignment]  # as if a hard AI had thought
    await bot.close()
    assert pool.shutdowns == [(False, True)]
    assert bot.tables.ai._pool is None

"""The discord.py application: endpoints from config, command translations, cogs, startup."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands

from bot.clock import TurnClock
from bot.config import Config
from bot.i18n import LOCALES, catalog
from bot.store import Store, make_store
from bot.tables import TableService, tune_garbage_collector
from games import registry

log = logging.getLogger(__name__)
RESULTS_WAIT_SECONDS = 10.0  # at close, for the results of games just finished (the rest: at the next start)


def apply_endpoints(config: Config) -> None:
    """Point discord.py at another REST base / gateway (a rate-limit proxy, or the tests' fake Discord).
    A plain Bot never asks /gateway/bot, so both must be set."""
    if config.api_base:
        discord.http.Route.BASE = config.api_base.rstrip("/")
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


class CatalogTranslator(app_commands.Translator):
    """Command names and descriptions from the catalogs: ``cmd.<English text>`` keys, in the bot's catalog
    or in a game's (``games/<key>/locales``, for that game's own cog)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        short = str(locale.value).split("-")[0]
        if short == "en" or short not in LOCALES:
            return None
        texts = catalog(short)
        for prefix in ("", *(f"{key}." for key in registry.game_keys())):
            text = texts.get(f"{prefix}cmd.{string.message}")
            if isinstance(text, str) and text:
                return text
        return None


HEARTBEAT_SECONDS = 30.0


class PlayByChatBot(commands.Bot):
    def __init__(self, config: Config, store: Store | None = None, force_sync: bool = False) -> None:
        # Slash commands need no privileged intents; no member chunking keeps start-up fast.
        shards: dict[str, Any] = {}
        if config.shard_count is not None and config.shard_ids is not None:
            shards = {"shard_count": config.shard_count, "shard_ids": list(config.shard_ids)}
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         chunk_guilds_at_startup=False, **shards)
        self.config = config
        self.store = store or make_store(config.database_url, config.database_path)
        self.tables = TableService(self.store)
        self.tables.owns_guild = config.owns_guild
        self.clock: TurnClock | None = None
        self.force_sync = force_sync
        self._heartbeat: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        await self.store.open()
        await self.tables.load()
        await self.tree.set_translator(CatalogTranslator())
        await self.load_cogs()
        game_cog: Any = self.get_cog("GameCog")  # cogs/game.py: bot/ does not import cogs/
        self.clock = TurnClock(self.tables, game_cog.announce_timeout, game_cog.announce_reminder,
                               game_cog.announce_failure)
        self.clock.start()
        guild = discord.Object(self.config.dev_guild_id) if self.config.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if self.config.syncs_commands:  # once for the whole bot, not from every shard process
            await self.sync_commands(guild)
        if self.config.health_file:
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat(Path(self.config.health_file)))

    async def sync_commands(self, guild: discord.abc.Snowflake | None) -> bool:
        """Sync the slash commands with Discord only when their definitions (with translations) changed since
        the last sync from this database: Discord rate-limits syncs, and most starts change nothing."""
        translator = self.tree.translator
        payload = [await command.get_translated_payload(self.tree, translator) if translator
                   else command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"commands_synced:{guild.id if guild else 'global'}"
        if not self.force_sync and await self.store.get_meta(key) == digest:
            log.info("slash commands unchanged since the last sync: not synced")
            return False
        await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        return True

    async def _beat(self, path: Path) -> None:
        """Touch the health file while connected (``play-by-chat health`` reads its age)."""
        while True:
            if self.is_ready() and not self.is_closed():
                with contextlib.suppress(OSError):
                    path.touch()
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def load_cogs(self) -> None:
        """``/game`` (with the one panel of every game that has a presentation module), then each registered
        game's own cog of typed commands."""
        await self.load_extension("cogs.game")
        for entry in registry.entries():
            if entry.cog is not None:
                await self.load_extension(entry.cog)

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self.clock is not None:
            await self.clock.stop()
        self.tables.ai.close()  # the hard AIs' worker processes: none left behind
        await super().close()
        # Results still being written are waited for, a while: what a stop cuts short is recorded at the next start.
        await self.tables.results_recorded(within=RESULTS_WAIT_SECONDS)
        await self.store.close()


class ShardedPlayByChatBot(PlayByChatBot, commands.AutoShardedBot):
    """The same bot on ``SHARD_IDS`` of ``SHARD_COUNT`` shards, one gateway connection each, in this process."""


def make_bot(config: Config, store: Store | None = None, force_sync: bool = False) -> PlayByChatBot:
    """An auto-sharded bot for the configured shards only when sharding is configured; else one plain
    connection (which never asks Discord for a recommended shard count)."""
    kind = ShardedPlayByChatBot if config.sharded else PlayByChatBot
    return kind(config, store, force_sync=force_sync)


def run_bot(config: Config, force_sync: bool = False) -> None:
    apply_endpoints(config)
    tune_garbage_collector()
    make_bot(config, force_sync=force_sync).run(config.require_token(), log_handler=None)

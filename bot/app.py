"""The discord.py application: endpoints from config, command translations, cogs, startup."""

from __future__ import annotations

import importlib.util
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import TurnClock
from bot.config import Config
from bot.i18n import LOCALES, catalog
from bot.store import SqliteStore, Store
from bot.tables import TableService
from games import registry

log = logging.getLogger(__name__)


def apply_endpoints(config: Config) -> None:
    """Point discord.py at another REST base / gateway (a rate-limit proxy, or the tests' fake Discord).
    A plain Bot never asks /gateway/bot, so both must be set."""
    if config.api_base:
        discord.http.Route.BASE = config.api_base.rstrip("/")
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = discord.utils.yarl.URL(config.gateway_url)


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
            if text:
                return text
        return None


class PlayByChatBot(commands.Bot):
    def __init__(self, config: Config, store: Store | None = None) -> None:
        # Slash commands need no privileged intents; no member chunking keeps start-up fast.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         chunk_guilds_at_startup=False)
        self.config = config
        self.store = store or SqliteStore(config.database_path)
        self.tables = TableService(self.store)
        self.clock: TurnClock | None = None

    async def setup_hook(self) -> None:
        await self.store.open()
        await self.tables.load()
        await self.tree.set_translator(CatalogTranslator())
        await self.load_cogs()
        game_cog = self.get_cog("GameCog")
        self.clock = TurnClock(self.tables, game_cog.announce_timeout, game_cog.announce_reminder)
        self.clock.start()
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def load_cogs(self) -> None:
        await self.load_extension("cogs.game")
        for key in registry.game_keys():  # a game's own cog, when it has one
            if importlib.util.find_spec(f"cogs.{key}") is not None:
                await self.load_extension(f"cogs.{key}")

    async def close(self) -> None:
        if self.clock is not None:
            await self.clock.stop()
        await super().close()
        await self.store.close()


def run_bot(config: Config) -> None:
    apply_endpoints(config)
    PlayByChatBot(config).run(config.require_token(), log_handler=None)

"""What every game's cog of typed commands shares (``/trails place``, ``/deole die``, ``/dewan camp``,
``/maple walk``...): the mover's table, the one panel (``/<game> turn``), commits through ``GameCog.play``
(so a typed step is answered like a click), and the autocomplete's filter."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.tables import Table, TableError
from cogs.common import answer, error_text, locale_of, report_command_error


class TypedCommands:
    """A mixin for a game's ``commands.GroupCog`` (put first); ``game_key`` names the game."""

    game_key: str

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        super().__init__()

    @property
    def game_cog(self) -> Any:
        """The ``/game`` cog: its ``play`` commits and answers like the panel, its ``panels`` hold the panel."""
        return self.bot.get_cog("GameCog")

    def mover(self, interaction: discord.Interaction) -> tuple[Table, int]:
        """The caller's running table of this game where it is their turn, or a ``TableError`` saying why not."""
        return self.bot.tables.mover(interaction.channel_id, interaction.user.id, self.game_key)

    def mover_or_none(self, interaction: discord.Interaction) -> tuple[Table, int] | None:
        """``mover``, or ``None`` (an autocomplete suggests nothing rather than explain)."""
        try:
            return self.mover(interaction)
        except TableError:
            return None

    async def mover_or_refuse(self, interaction: discord.Interaction) -> tuple[Table, int] | None:
        """``mover``, or ``None`` once the caller was told privately why not (a command)."""
        try:
            return self.mover(interaction)
        except TableError as error:
            await answer(interaction, error_text(locale_of(interaction), error, self.game_key))
            return None

    async def open_panel(self, interaction: discord.Interaction) -> None:
        """The Take turn panel, privately (``/<game> turn``)."""
        await self.game_cog.panels[self.game_key].open(interaction)

    @staticmethod
    def matching(choices: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
        """The (name, value) suggestions whose name or value contains what was typed, the first 25."""
        wanted = current[:100].lower().strip()
        return [app_commands.Choice(name=name[:100], value=value[:100]) for name, value in choices
                if not wanted or wanted in name.lower() or wanted in value.lower()][:25]

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)

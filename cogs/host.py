"""``/game abort``, ``pause``, ``resume``, ``kick``, ``substitute``, ``extend`` and ``settings``: the turn clock
and the host's controls of a table. A mixin of the ``/game`` cog (``GameCog``), so the commands sit in its
group."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.i18n import t
from bot.tables import REPLACED_BY_AI, BrokenTable, MoveOutcome, TableError, parse_duration, settings_changes
from cogs.common import ack, answer, dismiss, error_text, locale_of, public_locale, publish, where
from cogs.table_settings import (
    LANGUAGE_CHOICES,
    SETTING_DESCRIPTIONS,
    SETTING_NAMES,
    TIMEOUT_CHOICES,
    ShortText,
    settings_text,
    typed_reminders,
)

if TYPE_CHECKING:  # the commands' ``self`` is the cog they are mixed into
    from discord.ext.commands import Cog as CommandsMixin
else:
    CommandsMixin = object


class HostCommands(CommandsMixin):
    """The clock and host controls, mixed into ``GameCog`` (``self.service`` is the table service;
    ``send_board`` is ``BoardPoster``'s, ``refresh_lobby`` ``LobbyCommands``')."""

    service: Any
    send_board: Any
    refresh_lobby: Any

    @app_commands.command(name=_("abort"), description=_("Close this channel's table (host or Manage Channels)"))
    async def abort(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            table = await self.service.abort(where(interaction), interaction.user.id, self.manages(interaction))
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        if not isinstance(table, BrokenTable):
            locale = public_locale(table, locale)
            await self.refresh_lobby(table, closed_by=interaction.user.display_name)
        await publish(interaction, t(locale, "lobby.aborted", player=interaction.user.display_name))

    async def control(self, interaction: discord.Interaction, call: Any, done_key: str = "ok", board: bool = False,
                      deadline: bool = False, **params: Any) -> None:
        """A clock or host control: acknowledged first, then done; the channel reads what was done, and so
        does the caller (no private "Done." beside it). ``board``: what was done heads a board post that
        tells whose turn it is, the standings and the deadline (a resume); ``deadline``: the text gives the
        turn's new deadline (an extension)."""
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            outcome = await call()
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        table = outcome.table if isinstance(outcome, MoveOutcome) else outcome
        locale = public_locale(table, locale)
        if isinstance(outcome, MoveOutcome) and any(text == REPLACED_BY_AI for _seat, text in outcome.moves):
            done_key = f"{done_key}_replaced"
        text = t(locale, done_key, **params)
        if deadline and table.record.deadline is not None:
            when = discord.utils.format_dt(datetime.fromtimestamp(table.record.deadline, tz=UTC), "R")
            text = f"{text} {t(locale, 'clock.deadline', when=when)}"
        if board and not isinstance(outcome, MoveOutcome) and table.state is not None:
            position = MoveOutcome(table, [], [], False, table.game.to_act(table.state))
            # Not the turn's own board (that one may be posted already): a nonce of its own.
            if await self.send_board(position, text, locale, repost=False, nonce=str(interaction.id)) is not None:
                return await dismiss(interaction)
        await publish(interaction, text)
        if isinstance(outcome, MoveOutcome):
            await self.send_board(outcome, None, locale)

    @staticmethod
    def manages(interaction: discord.Interaction) -> bool:
        permissions = getattr(interaction, "permissions", None)
        return bool(permissions and permissions.manage_channels)

    @app_commands.command(name=_("pause"), description=_("Pause the turn clock (two per player, on your turn)"))
    async def pause(self, interaction: discord.Interaction) -> None:
        await self.control(interaction, lambda: self.service.pause(where(interaction), interaction.user.id,
                                                           self.manages(interaction)),
                           "clock.paused", player=interaction.user.display_name)

    @app_commands.command(name=_("resume"), description=_("Resume the turn clock"))
    async def resume(self, interaction: discord.Interaction) -> None:
        await self.control(interaction, lambda: self.service.resume(where(interaction), interaction.user.id,
                                                            self.manages(interaction)),
                           "clock.resumed", board=True, player=interaction.user.display_name)

    @app_commands.command(name=_("kick"), description=_("Eliminate a player now (host or Manage Channels)"))
    @app_commands.rename(player=_("player"))
    @app_commands.describe(player=_("The seated member"))
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.control(interaction, lambda: self.service.kick(where(interaction), interaction.user.id, player.id,
                                                          self.manages(interaction)),
                           "clock.kicked", player=player.display_name)

    @app_commands.command(name=_("substitute"), description=_("Hand a seat to another member (host or Manage Channels)"))
    @app_commands.rename(old=_("old"), new=_("new"))
    @app_commands.describe(old=_("The seated member"), new=_("The member who takes the seat"))
    async def substitute(self, interaction: discord.Interaction, old: discord.Member, new: discord.Member) -> None:
        await self.control(interaction, lambda: self.service.substitute(
            where(interaction), interaction.user.id, old.id, new.id, new.display_name, self.manages(interaction)),
            "clock.substituted", old=old.display_name, new=new.display_name)

    @app_commands.command(name=_("extend"), description=_("Add time to the current turn (host or Manage Channels)"))
    @app_commands.rename(duration=_("duration"))
    @app_commands.describe(duration=_("How much: 90s, 10m, 2h, 1d"))
    async def extend(self, interaction: discord.Interaction, duration: ShortText) -> None:
        locale = locale_of(interaction)
        try:
            seconds = parse_duration(duration)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await self.control(interaction, lambda: self.service.extend(where(interaction), interaction.user.id, seconds,
                                                            self.manages(interaction)), "clock.extended", deadline=True,
                           duration=duration)

    @app_commands.command(name=_("settings"),
                          description=_("Show the table's settings; the host changes them in the lobby or paused"))
    @app_commands.describe(**SETTING_DESCRIPTIONS)
    @app_commands.rename(**SETTING_NAMES)
    @app_commands.choices(timeout=TIMEOUT_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction, turn_time: ShortText | None = None,
                       reminders: ShortText | None = None, timeout: str | None = None, ai_replaces: bool | None = None,
                       resume_wait: ShortText | None = None, language: str | None = None) -> None:
        locale = locale_of(interaction)
        try:
            table = self.service.table(where(interaction))
            if (turn_time, reminders, timeout, ai_replaces, resume_wait, language) == (None,) * 6:
                return await answer(interaction, t(locale, "clock.settings_show", settings=settings_text(table, locale)))
            seconds = parse_duration(turn_time) if turn_time else None
            changes = settings_changes(typed_reminders(reminders), timeout, ai_replaces, resume_wait, language)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await ack(interaction)
        try:
            table = await self.service.update_settings(where(interaction), interaction.user.id,
                                                       self.manages(interaction), seconds, **changes)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        locale = public_locale(table, locale)
        if table.record.status == "lobby":  # the lobby shows them in place
            await self.refresh_lobby(table)
            return await answer(interaction, t(locale_of(interaction), "game.done"))
        await publish(interaction, t(locale, "clock.settings", settings=settings_text(table, locale)))

"""Discord helpers shared by every cog: locales, error texts, ephemeral answers, seat names, views."""

from __future__ import annotations

import logging
import uuid
from typing import Any

import discord

from bot.i18n import pick_locale, t
from bot.tables import Table, TableError
from games.core import IllegalAction

log = logging.getLogger(__name__)


def locale_of(interaction: discord.Interaction) -> str:
    return pick_locale(str(interaction.locale.value) if interaction.locale else None,
                       str(interaction.guild_locale.value) if interaction.guild_locale else None)


def public_locale(table: Table, fallback: str) -> str:
    """The language of a table's public posts (lobby, boards, clock): one per table, so a channel reads
    the same whoever acts; ephemeral replies use each player's own."""
    return table.settings.language or fallback


def error_text(locale: str, error: Exception, game_key: str | None = None) -> str:
    if isinstance(error, TableError):
        return t(locale, f"error.{error.code}", **error.params)
    if isinstance(error, IllegalAction):
        for key in (f"{game_key}.error.{error.code}", f"error.{error.code}"):
            text = t(locale, key, **error.params)
            if text != key:
                return text
        return t(locale, "error.illegal", code=error.code)
    error_id = uuid.uuid4().hex[:8]
    log.exception("unexpected error %s", error_id, exc_info=error)
    return t(locale, "error.unexpected", error_id=error_id)


async def report_command_error(interaction: discord.Interaction, error: Exception) -> None:
    """A command failed unexpectedly (every cog's ``cog_app_command_error``): logged with an id the user
    sees; nothing was committed for it."""
    original = getattr(error, "original", error)
    try:
        await answer(interaction, error_text(locale_of(interaction), original))
    except discord.HTTPException:
        log.warning("could not report error to the user")


async def answer(interaction: discord.Interaction, text: str, ephemeral: bool = True) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral)


def seat_names(table: Table) -> list[str]:
    return [s.display for s in table.seats]


def seat_label(names: list[str], key: str, value: Any) -> Any:
    """Event parameters that name seats (``seat``, ``*_seat``, ``seats``, ``*_seats``) show player names."""
    if (key == "seat" or key.endswith("_seat")) and isinstance(value, int):
        return names[value]
    if (key == "seats" or key.endswith("_seats")) and isinstance(value, (list, tuple)):
        return ", ".join(names[v] for v in value)
    return value


def detached(view: discord.ui.View) -> discord.ui.View:
    """A copy of a persistent view (registered once with ``bot.add_view``) to send with a message.
    Stopped before sending, so discord.py does not keep one view object per message forever; clicks are
    routed by custom id to the registered one."""
    view.stop()
    return view

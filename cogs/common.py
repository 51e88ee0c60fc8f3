"""Discord helpers shared by every cog: locales, error texts, answering interactions, seat names, views.

Answering an interaction: ``ack`` first (Discord wants an answer within 3 s, and the table service may wait
on the table's lock or the database), then work, then ``answer`` (private) or ``publish`` (the public
message the command stands for). Every answer after the ack is delivered like a board post: when Discord is
down for a while it is tried again later, and Discord's expected errors are logged in one line."""

from __future__ import annotations

import io
import logging
import uuid
from typing import Any

import discord

from bot.discord_calls import deliver, expected_error
from bot.i18n import pick_locale, t
from bot.tables import Table, TableError, echo
from games.ai import DEFAULT_LEVEL
from games.core import IllegalAction
from presentation.core import seat_label as seat_label  # re-exported: the games' cogs read it here

log = logging.getLogger(__name__)


def where(interaction: discord.Interaction) -> int:
    """The channel (or thread) of an interaction: the key of its table. Slash commands and buttons always
    come from one."""
    if interaction.channel_id is None:
        raise TableError("no_table")
    return interaction.channel_id


def locale_of(interaction: discord.Interaction) -> str:
    return pick_locale(str(interaction.locale.value) if interaction.locale else None,
                       str(interaction.guild_locale.value) if interaction.guild_locale else None)


def public_locale(table: Table, fallback: str) -> str:
    """The language of a table's public posts (lobby, boards, clock): one per table, so a channel reads
    the same whoever acts; ephemeral replies use each player's own."""
    return table.settings.language or fallback


def error_text(locale: str, error: Exception, game_key: str | None = None) -> str:
    # Parameters echo what someone typed: cut, so a 6,000-character input cannot overflow the reply.
    params = {k: echo(v) if isinstance(v, str) else v for k, v in getattr(error, "params", {}).items()}
    if isinstance(error, TableError):
        if error.code == "table_broken":  # what is wrong with it, in words
            params["reason"] = t(locale, f"error.broken.{params.get('cause', 'damaged')}", **params)
        return t(locale, f"error.{error.code}", **params)[:MESSAGE_LIMIT]
    if isinstance(error, IllegalAction):
        for key in (f"{game_key}.error.{error.code}", f"error.{error.code}"):
            text = t(locale, key, **params)
            if text != key:
                return text[:MESSAGE_LIMIT]
        return t(locale, "error.illegal", code=echo(error.code))
    error_id = uuid.uuid4().hex[:8]
    log.exception("unexpected error %s", error_id, exc_info=error)
    return t(locale, "error.unexpected", error_id=error_id)


MESSAGE_LIMIT = 2000  # Discord's limit on a message's text
REPLY_RETRY_DELAYS = (2.0, 10.0, 60.0)  # an interaction's token lives 15 minutes


async def report_command_error(interaction: discord.Interaction, error: Exception) -> None:
    """A command failed unexpectedly (every cog's ``cog_app_command_error``): logged with an id the user
    sees; nothing was committed for it. Discord's own expected errors are one log line, not a traceback."""
    original = getattr(error, "original", error)
    reason = expected_error(original)
    if reason is not None:
        log.warning("command %s: %s", getattr(interaction.command, "qualified_name", "?"), reason)
        return
    await answer(interaction, error_text(locale_of(interaction), original))


async def ack(interaction: discord.Interaction, public: bool = False) -> None:
    """Acknowledge at once, before any work. A slash command shows a private "thinking" (``public``: a
    public one that becomes the message the command stands for, such as ``/game new``'s lobby: use it only
    when what can still fail after the ack is rare, since Discord keeps the first answer's visibility); a
    button or select is acknowledged silently, and its message is edited afterwards."""
    if interaction.response.is_done():
        return
    interaction.extras["public"] = public
    try:
        if interaction.type == discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=not public, thinking=True)
    except (discord.DiscordException, OSError, TimeoutError) as error:
        log.warning("could not acknowledge an interaction: %s", expected_error(error) or error)


async def ack_privately(interaction: discord.Interaction) -> None:
    """Acknowledge a click whose answer is a private message of its own (a panel opened from a board post):
    a private "thinking" that the answer replaces, as a slash command's."""
    if interaction.response.is_done():
        return
    interaction.extras["public"] = False
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except (discord.DiscordException, OSError, TimeoutError) as error:
        log.warning("could not acknowledge an interaction: %s", expected_error(error) or error)


def _thinking(interaction: discord.Interaction) -> bool:
    return interaction.response.type == discord.InteractionResponseType.deferred_channel_message


def as_files(images: list[tuple[str, bytes]] | None) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), name) for name, data in images or []]


async def answer(interaction: discord.Interaction, text: str | None = None, *, view: discord.ui.View | None = None,
                 embed: discord.Embed | None = None, images: list[tuple[str, bytes]] | None = None,
                 files: list[discord.File] | None = None, embeds: list[discord.Embed] | None = None,
                 allowed_mentions: discord.AllowedMentions | None = None) -> None:
    """A private answer (only the user sees it), whether or not the interaction was acknowledged. (After a
    public "thinking", Discord shows the first answer publicly: see ``ack``.)"""
    text = text[:MESSAGE_LIMIT] if text else text
    fields: dict[str, Any] = {"embed": embed} if embed is not None else {"embeds": embeds} if embeds else {}
    if allowed_mentions is not None:
        fields["allowed_mentions"] = allowed_mentions
    extra_files = files or []  # sent once: a retry after a failure would find them read already
    if view is not None:
        fields["view"] = view
    if not interaction.response.is_done():
        await deliver(lambda: interaction.response.send_message(text, ephemeral=True,
                                                                files=as_files(images) + extra_files, **fields),
                      "an answer")
    elif _thinking(interaction):  # the "thinking" message becomes the answer
        await deliver(lambda: interaction.edit_original_response(content=text,
                                                                 attachments=as_files(images) + extra_files,
                                                                 **fields), "an answer", REPLY_RETRY_DELAYS)
    else:  # a button or select acknowledged silently: a private message of its own
        await deliver(lambda: interaction.followup.send(text or "\u200b", ephemeral=True,
                                                        files=as_files(images) + extra_files, **fields),
                      "an answer", REPLY_RETRY_DELAYS)


async def publish(interaction: discord.Interaction, text: str | None = None, *, embed: discord.Embed | None = None,
                  view: discord.ui.View | None = None, done: str | None = None) -> discord.Message | None:
    """The public message a command stands for (the lobby, "paused"...). A button's message is edited
    into it, as is a public "thinking"; after a private "thinking" it is posted in the channel and the
    private "thinking" is taken away (the user sees the public post: no second, private "Done."), unless
    ``done`` gives the user something more to read privately. If Discord does not take the post, the user
    privately reads what it said."""
    fields: dict[str, Any] = {"content": text[:MESSAGE_LIMIT] if text else text, "embed": embed, "view": view}
    if not interaction.response.is_done():
        await deliver(lambda: interaction.response.send_message(**{k: v for k, v in fields.items() if v is not None}),
                      "a public answer")
        return None
    if _thinking(interaction) and not interaction.extras.get("public"):
        channel = interaction.channel
        posted = None if not isinstance(channel, discord.abc.Messageable) else await deliver(
            lambda: channel.send(**{k: v for k, v in fields.items() if v is not None}, nonce=str(interaction.id)),
            "a public answer", REPLY_RETRY_DELAYS)
        if posted is None:
            await answer(interaction, text or done or t(locale_of(interaction), "game.done"), embed=embed)
        elif done:
            await answer(interaction, done)
        else:
            await dismiss(interaction)
        return posted
    return await deliver(lambda: interaction.edit_original_response(**fields), "a public answer", REPLY_RETRY_DELAYS)


async def dismiss(interaction: discord.Interaction) -> None:
    """Take a private "thinking" away: what the command did is in a public post the user sees."""
    if _thinking(interaction):
        await deliver(interaction.delete_original_response, "taking a private answer away", REPLY_RETRY_DELAYS)


def seat_names(table: Table) -> list[str]:
    """The seats' names as the game's sentences use them ("Alice", "AI 1")."""
    return [s.display for s in table.seats]


def seat_labels(table: Table, locale: str) -> list[str]:
    """The seats' names wherever a post lists the players (standings, score breakdowns, the lobby's seats):
    an AI seat says it is a bot and its level ("AI 1 · Bot (hard)"), the same in every list of a post."""
    return [t(locale, "ai.seat", name=s.display, level=t(locale, f"ai.level.{s.ai_level or DEFAULT_LEVEL}"))
            if s.is_ai else s.display for s in table.seats]


def detached(view: discord.ui.View) -> discord.ui.View:
    """A copy of a persistent view (registered once with ``bot.add_view``) to send with a message.
    Stopped before sending, so discord.py does not keep one view object per message forever; clicks are
    routed by custom id to the registered one."""
    view.stop()
    return view

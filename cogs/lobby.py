"""``/game new``, ``join``, ``leave``, ``start`` and ``ai add|remove``: a table's lobby, its message and
its buttons. A mixin of the ``/game`` cog (``GameCog``), so the commands sit in its group."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord_calls import deliver
from bot.i18n import t
from bot.store import Seat
from bot.tables import (
    DEFAULT_TURN_SECONDS,
    Table,
    TableError,
    TableSettings,
    echo,
    parse_duration,
    settings_changes,
)
from cogs.board import standing_names
from cogs.common import (
    REPLY_RETRY_DELAYS,
    ack,
    answer,
    detached,
    error_text,
    locale_of,
    public_locale,
    publish,
    seat_names,
    where,
)
from cogs.game_choice import (
    GameKey,
    OptionsText,
    game_autocomplete,
    options_autocomplete,
    parse_options,
    resolve_game,
)
from cogs.table_settings import (
    LANGUAGE_CHOICES,
    SETTING_DESCRIPTIONS,
    SETTING_NAMES,
    TIMEOUT_CHOICES,
    ShortText,
    settings_changed,
    typed_reminders,
)
from games import registry
from games.ai import DEFAULT_LEVEL, LEVELS
from games.core import IllegalAction

AI_LEVEL_CHOICES = [
    app_commands.Choice(name=_("easy: random moves"), value="easy"),
    app_commands.Choice(name=_("normal: plays one turn ahead"), value="normal"),
    app_commands.Choice(name=_("hard: searches ahead, thinks about a second"), value="hard"),
]


def lobby_embed(table: Table, locale: str, board_url: str | None = None, closed_by: str | None = None) -> discord.Embed:
    """The lobby message through the table's life: open (seats, Join/Start), started (seats, who plays first,
    a link to the first board), finished (the result, a link to the last board) or closed."""
    name = table.game.names.get(locale, table.game.key)
    status = "aborted" if closed_by is not None else table.record.status
    colours = {"lobby": discord.Colour.blurple(), "playing": discord.Colour.green()}
    embed = discord.Embed(title=t(locale, f"lobby.title_{status}", game=name),
                          colour=colours.get(status, discord.Colour.dark_grey()))
    host = next((s.display for s in table.seats if s.user_id == table.record.host_id), "?")
    lines = [t(locale, "lobby.host" if status == "lobby" else "lobby.hosted", host=host)]
    if status == "playing" and table.state is not None:
        first = [table.seats[s].display for s in table.game.to_act(table.state)]
        lines.append(t(locale, "lobby.started", players=", ".join(first)))
    if status == "finished" and table.state is not None:
        names = standing_names(table, locale)
        lines += [f"{p.rank}. {names[p.seat]}: {p.score}" for p in table.game.result(table.state).ranking]
    if status == "aborted":
        lines.append(t(locale, "lobby.aborted", player=closed_by))
    if board_url:
        lines.append(t(locale, "lobby.first_board" if status == "playing" else "lobby.last_board", link=board_url))
    embed.description = "\n".join(lines)
    if status != "finished":
        embed.add_field(name=t(locale, "lobby.seats"),
                        value="\n".join(f"{i + 1}. {n}" for i, n in enumerate(standing_names(table, locale))))
    defaults = {spec.name: spec.format(spec.default) for spec in table.game.option_specs}
    options = ", ".join(option_summary(table, name, value, locale)  # the options chosen, not the defaults
                        for name, value in table.record.options.items() if value != defaults.get(name))
    footer = "\n".join(filter(None, [options, settings_changed(table, locale)]))
    if footer:
        embed.set_footer(text=footer)
    return embed


def option_summary(table: Table, name: str, value: str, locale: str) -> str:
    """An option as the public lobby shows it. Free text that is not one of the game's named presets (a
    custom deck is the whole draw order) is summarised, never printed."""
    spec = next((s for s in table.game.option_specs if s.name == name), None)
    if spec is None or spec.kind != "text" or value in spec.examples:
        return f"{name}={value}"
    return t(locale, "lobby.custom_option", option=name, count=len([p for p in value.split(",") if p.strip()]))


class LobbyView(discord.ui.View):
    """Join / Leave / Start. Fixed custom ids and no timeout: the buttons keep working after a restart
    (the channel identifies the table)."""

    def __init__(self, cog: LobbyCommands, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.cog = cog
        for button, key in ((self.join, "button.join"), (self.leave, "button.leave"), (self.start, "button.start")):
            button.label = t(locale, key)

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success, custom_id="pbc:lobby:join")
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.lobby_change(interaction, "join")

    @discord.ui.button(label="Leave", style=discord.ButtonStyle.secondary, custom_id="pbc:lobby:leave")
    async def leave(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.lobby_change(interaction, "leave")

    @discord.ui.button(label="Start", style=discord.ButtonStyle.primary, custom_id="pbc:lobby:start")
    async def start(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.start_game(interaction)


if TYPE_CHECKING:  # the commands' ``self`` is the cog they are mixed into
    from discord.ext.commands import Cog as CommandsMixin
else:
    CommandsMixin = object


class LobbyCommands(CommandsMixin):
    """The lobby's commands, mixed into ``GameCog`` (``self.service`` is the table service; ``channel_of``
    and ``post_board`` are ``BoardPoster``'s)."""

    service: Any
    channel_of: Any
    post_board: Any

    ai = app_commands.Group(name=_("ai"), description=_("AI seats"))

    @app_commands.command(name=_("new"), description=_("Open a game table in this channel"))
    @app_commands.describe(game=_("Which game"), options=_("Options as key=value, space separated"),
                           **SETTING_DESCRIPTIONS)
    @app_commands.rename(game=_("game"), options=_("options"), **SETTING_NAMES)
    @app_commands.autocomplete(game=game_autocomplete, options=options_autocomplete)
    @app_commands.choices(timeout=TIMEOUT_CHOICES, language=LANGUAGE_CHOICES)
    async def new(self, interaction: discord.Interaction, game: GameKey, options: OptionsText | None = None,
                  turn_time: ShortText | None = None, reminders: ShortText | None = None, timeout: str | None = None,
                  ai_replaces: bool | None = None, resume_wait: ShortText | None = None,
                  language: str | None = None) -> None:
        locale = locale_of(interaction)
        game = resolve_game(game)  # typed by its name ("тропы") without picking the suggestion
        try:  # everything but the write is checked before the answer: refusals stay private
            seconds = parse_duration(turn_time) if turn_time else DEFAULT_TURN_SECONDS
            settings = TableSettings(**settings_changes(typed_reminders(reminders), timeout, ai_replaces, resume_wait,
                                                        language or locale))
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        try:
            self.service.check_new(where(interaction), game, parse_options(options))
        except (TableError, IllegalAction) as error:
            # The channel's table may be closing (an abort or a last move sent just before): checked again
            # once that is done.
            closing = isinstance(error, TableError) and error.code == "table_exists" and self.service.busy(
                where(interaction))
            if not closing:
                return await answer(interaction, error_text(locale, error, game if registry.has(game) else None))
        await ack(interaction, public=True)  # the lobby; only a race or the database can still refuse
        try:
            table = await self.service.create(interaction.guild_id, where(interaction), game, interaction.user.id,
                                              interaction.user.display_name, parse_options(options),
                                              turn_seconds=seconds, settings=settings)
        except (TableError, IllegalAction) as error:
            return await answer(interaction, error_text(locale, error, game if registry.has(game) else None))
        locale = public_locale(table, locale)
        lobby = await publish(interaction, embed=lobby_embed(table, locale), view=detached(LobbyView(self, locale)))
        if lobby is not None:
            await self.service.set_lobby_message(table, lobby.id)

    async def refresh_lobby(self, table: Table, board_url: str | None = None,
                            closed_by: str | None = None) -> discord.Message | None:
        """Edit the table's lobby message to where the table is now (seats, started, finished, closed); the
        message, or ``None`` if it could not be edited."""
        message_id = table.record.lobby_message_id
        found = await self.channel_of(table) if message_id is not None else None
        if found is None or message_id is None:
            return None
        channel, locale = found
        view = detached(LobbyView(self, locale)) if table.record.status == "lobby" and closed_by is None else None
        embed = lobby_embed(table, locale, board_url, closed_by)
        return await deliver(lambda: channel.get_partial_message(message_id).edit(embed=embed, view=view),
                             f"the lobby of table {table.record.id}", REPLY_RETRY_DELAYS)

    async def lobby_change(self, interaction: discord.Interaction, change: str) -> None:
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            if change == "join":
                table = await self.service.join(where(interaction), interaction.user.id, interaction.user.display_name)
            else:
                table = await self.service.leave(where(interaction), interaction.user.id)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        locale = public_locale(table, locale)
        if interaction.message is not None:  # the lobby's own button: the lobby is edited
            await publish(interaction, embed=lobby_embed(table, locale), view=detached(LobbyView(self, locale)))
        else:  # /game join or leave: the lobby is edited in place, the player answered privately
            await self.refresh_lobby(table)
            key = "lobby.joined" if change == "join" else "lobby.left"
            await answer(interaction, t(locale_of(interaction), key, player=interaction.user.display_name))

    @app_commands.command(name=_("join"), description=_("Take a seat at this channel's table"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self.lobby_change(interaction, "join")

    @app_commands.command(name=_("leave"), description=_("Leave this channel's table before it starts"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby_change(interaction, "leave")

    @app_commands.command(name=_("start"), description=_("Start the game (host)"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.start_game(interaction)

    async def start_game(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            outcome = await self.service.start(where(interaction), interaction.user.id)
        except (TableError, IllegalAction) as error:
            table = self.service.tables.get(where(interaction))
            return await answer(interaction, error_text(locale, error, table.game.key if table else None))
        table = outcome.table
        locale = public_locale(table, locale)
        seats = ", ".join(seat_names(table))
        headline = t(locale, "game.started", game=table.game.names.get(locale, table.game.key), seats=seats)
        board = await self.post_board(interaction, outcome, headline, locale, posted_key="game.started_posted")
        # The lobby loses its buttons and links to the first board (or, if that is still to come, says
        # the game started: the board's own post links it then).
        await self.refresh_lobby(table, board.jump_url if board is not None else None)

    @ai.command(name=_("add"), description=_("Add an AI seat (host)"))
    @app_commands.describe(level=_("How strongly the AI plays"))
    @app_commands.rename(level=_("level"))
    @app_commands.choices(level=AI_LEVEL_CHOICES)
    async def ai_add(self, interaction: discord.Interaction, level: str = DEFAULT_LEVEL) -> None:
        await self._ai(interaction, add=True, level=level)

    @ai.command(name=_("remove"), description=_("Remove an AI seat (host)"))
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        await self._ai(interaction, add=False)

    async def _ai(self, interaction: discord.Interaction, add: bool, level: str = DEFAULT_LEVEL) -> None:
        """The lobby shows the new seat list in place; the command's answer is one public line saying who
        added or removed which AI seat, with a link to the lobby (no private "Done." beside it). What can be
        refused is checked before the answer, so refusals stay private."""
        locale = locale_of(interaction)
        try:
            seat = self.ai_seat_change(interaction, add, level)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await ack(interaction, public=True)  # only a race can still refuse (then publicly: rare)
        try:
            if add:
                table = await self.service.add_ai(where(interaction), interaction.user.id, level)
                seat = table.seats[-1]
            else:
                table = await self.service.remove_ai(where(interaction), interaction.user.id)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        locale = public_locale(table, locale)
        lobby = await self.refresh_lobby(table)
        label = t(locale, "ai.seat", name=seat.display, level=t(locale, f"ai.level.{seat.ai_level or DEFAULT_LEVEL}"))
        text = t(locale, "ai.added" if add else "ai.removed", player=interaction.user.display_name, seat=label)
        if lobby is not None:
            text = f"{text} {t(locale, 'lobby.link', link=lobby.jump_url)}"
        await publish(interaction, text)

    def ai_seat_change(self, interaction: discord.Interaction, add: bool, level: str) -> Seat:
        """What ``/game ai add|remove`` would do, checked as the table service checks it (which checks again
        under the table's lock): the seat added (its number may still change) or removed."""
        table = self.service.table(where(interaction))
        if add and level not in LEVELS:
            raise TableError("bad_ai_level", value=echo(level), choices=", ".join(LEVELS))
        if table.record.status != "lobby":
            raise TableError("already_started")
        if interaction.user.id != table.record.host_id:
            raise TableError("host_only_ai")
        if add:
            if len(table.seats) >= table.game.max_players:
                raise TableError("table_full", maximum=table.game.max_players)
            return Seat(0, None, f"AI {sum(1 for s in table.seats if s.is_ai) + 1}", ai_level=level)
        ai_seats = [s for s in table.seats if s.is_ai]
        if not ai_seats:
            raise TableError("no_ai_seat")
        return ai_seats[-1]

"""``/game``: tables in a channel for every game. Thin: the table service does the work; board posts
are ``cogs/board.py``'s, helpers shared with the games' own cogs ``cogs/common.py``'s."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

import rendering
from bot.board_queue import BoardQueue
from bot.discord_calls import deliver
from bot.i18n import LOCALES, t
from bot.store import Seat, TableRecord
from bot.tables import (
    DEFAULT_TURN_SECONDS,
    PAUSES_PER_PLAYER,
    READ_RESULTS_WITHIN,
    REPLACED_BY_AI,
    BrokenTable,
    MoveOutcome,
    Table,
    TableError,
    TableSettings,
    echo,
    format_duration,
    format_reminders,
    parse_duration,
    settings_changes,
)
from cogs import history, move_search
from cogs.board import BoardPoster, GamePanel, HandView, standing_names
from cogs.common import (
    REPLY_RETRY_DELAYS,
    ack,
    answer,
    detached,
    dismiss,
    error_text,
    locale_of,
    public_locale,
    publish,
    report_command_error,
    seat_names,
    where,
)
from cogs.ratings import RatingsCommands
from cogs.replay import ReplayCommands
from games import registry
from games.ai import DEFAULT_LEVEL, LEVELS
from games.core import IllegalAction

log = logging.getLogger(__name__)


def parse_options(text: str | None) -> dict[str, str]:
    """``key=value key2=a,b`` -> dict; malformed pieces become an unknown option the game refuses."""
    options: dict[str, str] = {}
    for piece in (text or "").split():
        key, _, value = piece.partition("=")
        options[key.strip().lower()] = value.strip()
    return options


# Longest values the commands accept (Discord refuses longer ones before they reach the bot).
GameKey = app_commands.Range[str, 1, 32]
OptionsText = app_commands.Range[str, 0, 1500]  # a whole custom Trails deck fits
ShortText = app_commands.Range[str, 1, 40]  # durations, reminder lists
MoveText = app_commands.Range[str, 1, 200]

TIMEOUT_CHOICES = [
    app_commands.Choice(name=_("standard: default move, then out at the second miss"), value="standard"),
    app_commands.Choice(name=_("default: default move, never out"), value="default"),
    app_commands.Choice(name=_("eliminate: out at the first miss"), value="eliminate"),
]
AI_LEVEL_CHOICES = [
    app_commands.Choice(name=_("easy: random moves"), value="easy"),
    app_commands.Choice(name=_("normal: plays one turn ahead"), value="normal"),
    app_commands.Choice(name=_("hard: searches ahead, thinks about a second"), value="hard"),
]
LANGUAGE_CHOICES = [  # each in its own language, as language pickers do
    app_commands.Choice(name=_("English"), value="en"),
    app_commands.Choice(name=_("Русский"), value="ru"),
]
SETTING_DESCRIPTIONS = {
    "turn_time": _("Time per turn: 90s, 10m, 24h, 3d (default 24h)"),
    "reminders": _("auto, none, or times before the deadline: half,1h,10m"),
    "timeout": _("What a missed deadline does"),
    "ai_replaces": _("An AI player takes over removed players' seats"),
    "resume_wait": _("How long others wait before they may resume a pause (default 2m)"),
    "language": _("Language of the table's posts in the channel (default: yours)"),
}
SETTING_NAMES = {name: _(name) for name in SETTING_DESCRIPTIONS}


REMINDER_WORDS = ("auto", "none", "half")  # the reminders setting's words, shown and typed in each language


def reminders_text(reminders: tuple[str | int, ...] | None, locale: str) -> str:
    """The reminders setting in the reader's words ("авто", "половина срока, 1ч")."""
    if reminders is None:
        return t(locale, "settings.reminders.auto")
    if not reminders:
        return t(locale, "settings.reminders.none")
    return t(locale, "settings.reminders.join").join(
        t(locale, f"settings.reminders.{r}") if r in REMINDER_WORDS else format_reminders((r,), locale)
        for r in reminders)


def typed_reminders(text: str | None) -> str | None:
    """A reminders value typed in any language ("авто", "половина,10м"), in the words the table service
    reads ("auto", "half,10м"): each language's word, or its first word ("половина")."""
    if text is None:
        return None
    words: dict[str, str] = {}
    for locale in LOCALES:
        for word in REMINDER_WORDS:
            shown = t(locale, f"settings.reminders.{word}").casefold()
            words.setdefault(shown, word)
            words.setdefault(shown.split()[0] if shown.split() else shown, word)
    whole = words.get(text.strip().casefold())
    if whole is not None:
        return whole
    return ",".join(words.get(piece.strip().casefold(), piece) for piece in text.split(","))


def settings_text(table: Table, locale: str) -> str:
    settings = table.settings
    return t(locale, "settings.summary", turn_time=format_duration(table.record.turn_seconds, locale),
             reminders=reminders_text(settings.reminders, locale), timeout=t(locale, f"settings.timeout.{settings.timeout}"),
             ai_replaces=t(locale, "settings.yes" if settings.ai_replaces else "settings.no"),
             resume_wait=format_duration(settings.resume_wait, locale),
             language=t(locale, f"settings.language.{public_locale(table, locale)}"))


def settings_changed(table: Table, locale: str) -> str:
    """The settings that differ from the defaults, briefly (the lobby's footer); ``/game settings`` has all."""
    settings, default = table.settings, TableSettings()
    parts = []
    if table.record.turn_seconds != DEFAULT_TURN_SECONDS:
        parts.append(t(locale, "settings.part.turn_time", value=format_duration(table.record.turn_seconds, locale)))
    if settings.reminders != default.reminders:
        parts.append(t(locale, "settings.part.reminders", value=reminders_text(settings.reminders, locale)))
    if settings.timeout != default.timeout:
        parts.append(t(locale, "settings.part.timeout", value=t(locale, f"settings.timeout.{settings.timeout}")))
    if settings.ai_replaces:
        parts.append(t(locale, "settings.part.ai_replaces"))
    if settings.resume_wait != default.resume_wait:
        parts.append(t(locale, "settings.part.resume_wait", value=format_duration(settings.resume_wait, locale)))
    return " · ".join(parts)


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

    def __init__(self, cog: GameCog, locale: str = "en") -> None:
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


def option_suggestions(specs: Any, typed: str, limit: int = 25,
                       described: Callable[[str], str] | None = None) -> list[str]:
    """Completions of a ``key=value key2=value`` options string: the pieces already typed stay, the last one
    is completed (an option's name, then its values); options already given are not offered again.
    ``described(key)``: the reader's-language text of ``option.<name>`` or ``option.<name>.<value>``, so a
    word of the reader's language finds the option or the value it describes ("ручей", "север")."""
    pieces = typed.split(" ")
    done, last = [p for p in pieces[:-1] if p], pieces[-1].lower()
    prefix = " ".join(done) + (" " if done else "")
    given = {p.partition("=")[0].lower() for p in done}
    found: list[str] = []
    if "=" in last:
        name, _, partial = last.partition("=")
        spec = next((s for s in specs if s.name == name), None)
        if spec is not None and spec.kind == "multi" and "," in partial:  # one more of a list
            head, _, tail = partial.rpartition(",")
            found = [f"{prefix}{name}={head},{c}" for c in spec.choices
                     if c.startswith(tail) and c not in head.split(",")]
        elif spec is not None:
            found = [f"{prefix}{name}={v}" for v in spec.suggestions() if v.lower().startswith(partial)]
    else:
        for spec in specs:
            if spec.name.startswith(last) and spec.name not in given:
                found += [f"{prefix}{spec.name}={v}" for v in spec.suggestions()[:3]]
        if not found and last and described is not None:  # a word of the reader's language
            for spec in (s for s in specs if s.name not in given):
                values = [v for v in spec.choices if last in described(f"option.{spec.name}.{v}").lower()]
                if not values and last in described(f"option.{spec.name}").lower():
                    values = spec.suggestions()[:3]
                found += [f"{prefix}{spec.name}={v}" for v in values]
    return [f for f in found if len(f) <= 100][:limit]


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    game = getattr(interaction.namespace, "game", None)
    game = resolve_game(game) if isinstance(game, str) else None  # also typed by its name
    if not game or not registry.has(game):
        return []
    locale = locale_of(interaction)

    def described(key: str) -> str:
        text = t(locale, f"{game}.{key}")
        return "" if text == f"{game}.{key}" else text

    return [app_commands.Choice(name=s, value=s)
            for s in option_suggestions(registry.get(game).option_specs, current, described=described)]


def resolve_game(typed: str) -> str:
    """A game as typed without picking a suggestion: its key, its name in any language, or a beginning (two
    letters or more) of either or of a word of a name that only one game has, whatever the case ("тропы",
    "Кленов", "fortresses"). Anything else is returned as typed, to be refused as an unknown game."""
    text = " ".join(typed.split()).casefold()
    keys = registry.game_keys()
    names = {key: [n.casefold() for n in registry.get(key).names.values()] for key in keys}
    for found in ([k for k in keys if text == k or text in names[k]],
                  [k for k in keys if len(text) >= 2 and (k.startswith(text) or any(
                      n.startswith(text) or any(w.startswith(text) for w in n.split()) for n in names[k]))]):
        if len(found) == 1:
            return found[0]
    return typed


def option_default(game: str, spec: Any, locale: str) -> str:
    """An option's default as ``/game rules`` shows it: in words when it is no value to type (yes/no, none,
    empty), else the value to type, with its meaning when the game's catalog has one."""
    if spec.kind == "bool":
        return t(locale, "settings.yes" if spec.default else "settings.no")
    value = spec.format(spec.default)
    if not value or (spec.kind == "multi" and not spec.default):
        return t(locale, "game.option_none" if spec.kind == "multi" else "game.option_empty")
    meaning = t(locale, f"{game}.option.{spec.name}.{value}")
    return f"`{value}`" if meaning == f"{game}.option.{spec.name}.{value}" else f"`{value}` — {meaning}"


def rules_options(game: str, locale: str) -> str:
    """A game's options for ``/game rules``: one line each, with its default and what it does."""
    lines = []
    for spec in registry.get(game).option_specs:
        default, text = option_default(game, spec, locale), t(locale, f"{game}.option.{spec.name}")
        lines.append("• " + (t(locale, "game.rules_option_bare", name=spec.name, default=default)
                             if text == f"{game}.option.{spec.name}"
                             else t(locale, "game.rules_option", name=spec.name, default=default, text=text)))
    return t(locale, "game.rules_options", options="\n".join(lines)) if lines else t(locale, "game.rules_no_options")


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    locale = locale_of(interaction)
    typed = current.strip().lower()
    found = []
    for key in registry.game_keys():  # by key or by name, in any language ("тро", "деол", "trails")
        names = registry.get(key).names
        if not typed or typed in key or any(typed in name.lower() for name in names.values()):
            found.append(app_commands.Choice(name=names.get(locale, key), value=key))
    return found[:25]


class GameCog(BoardPoster, RatingsCommands, ReplayCommands, commands.GroupCog, group_name=_("game"),
              group_description=_("Play board games in this channel")):
    ai = app_commands.Group(name=_("ai"), description=_("AI seats"))

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service = bot.tables
        self.panels: dict[str, GamePanel] = {}
        self.board_queue = BoardQueue(self.post_due, self.service.read_off_loop)
        self.refused: set[int] = set()  # tables whose latest board Discord refused, in this process
        bot.add_view(LobbyView(self))
        bot.add_view(HandView(self))
        bot.add_dynamic_items(history.HistoryPage)
        super().__init__()

    def add_panel(self, key: str, panel: GamePanel) -> None:
        """A game's own cog adds what it shows on the board posts (called from the cog's ``setup``)."""
        if not registry.has(key):
            raise KeyError(f"no game {key!r} is registered")
        self.panels[key] = panel

    async def cog_load(self) -> None:
        # Boards due before the restart (a crash after the move's commit, or Discord refusing the post): queued,
        # to be posted once the bot is connected. The index tells which, without reading a record or a state.
        for table in self.service.tables.values():
            if table.board_due and table.status == "playing":
                self.schedule_repost(table, "en", at_once=True)
        for table in self.service.finished_due:
            self.schedule_repost(table, "en", at_once=True)
        self.board_queue.start()
        self.catch_up_ratings()

    async def cog_unload(self) -> None:
        for task in self.background:
            task.cancel()
        await self.board_queue.stop()

    # -- lobby --------------------------------------------------------------------------------
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

    async def on_board_posted(self, outcome: MoveOutcome, message: discord.Message) -> None:
        """At the end, the lobby shows the result and links to the last board."""
        if outcome.finished:
            await self.refresh_lobby(outcome.table, message.jump_url)

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

    # -- clock and host controls ----------------------------------------------------------------
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

    @app_commands.command(name=_("mine"), description=_("Your tables in this server where it is your turn"))
    async def mine(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        lines = []
        for table, deadline in self.service.my_turns(interaction.guild_id, interaction.user.id):
            when = discord.utils.format_dt(datetime.fromtimestamp(deadline, tz=UTC), "R") if deadline else "-"
            name = table.game.names.get(locale, table.game.key)
            lines.append(t(locale, "clock.mine_line", game=name, channel=f"<#{table.record.channel_id}>", when=when))
        await answer(interaction, "\n".join(lines) if lines else t(locale, "clock.mine_none"))

    # -- play ---------------------------------------------------------------------------------
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The legal moves that fit what is typed, at most 25: grouped by their first words when more match
        (``place 0,-1 … (3 moves)``), so that every legal move is reached by typing on (cogs/move_search.py)."""
        notations = self.service.legal_notations(where(interaction), interaction.user.id)
        locale = locale_of(interaction)
        return [app_commands.Choice(name=s.name(locale), value=s.value)
                for s in move_search.suggest(notations, current)]

    @app_commands.command(name=_("move"), description=_("Make a move in the game's notation"))
    @app_commands.describe(action=_("The move; start typing to see the legal ones"))
    @app_commands.rename(action=_("action"))
    @app_commands.autocomplete(action=move_autocomplete)
    async def move(self, interaction: discord.Interaction, action: MoveText) -> None:
        # A group of suggestions sent as it is ("place 0,-1 …"): what it may become, privately.
        starts = move_search.unfinished(self.service.legal_notations(where(interaction), interaction.user.id), action)
        if starts:
            return await answer(interaction, move_search.unfinished_text(starts, action, locale_of(interaction)))
        await self.play(interaction, action)

    async def play(self, interaction: discord.Interaction, notation: str | list[str],
                   expected_version: int | None = None) -> MoveOutcome | None:
        """A player's move (or several committed together), from a command or a panel: acknowledged first,
        then committed; a step of a turn is answered privately by the game's panel, a whole turn goes on the
        board. Returns the outcome, or ``None`` if the move was refused (the player was told why)."""
        locale = locale_of(interaction)
        await ack(interaction)
        table = self.service.tables.get(where(interaction))
        try:
            outcome = await self.service.act(where(interaction), interaction.user.id, notation, expected_version)
        except (TableError, IllegalAction) as error:
            own = self.panel(table.game.key).error_text(locale, error) if table else None
            await answer(interaction, own or error_text(locale, error, table.game.key if table else None))
            return None
        except Exception as error:  # the move did not commit; tell the player with an id
            await answer(interaction, error_text(locale, error))
            return None
        panel = self.panel(outcome.table.game.key)
        if not outcome.announce:  # a step of the turn; the channel hears the whole turn once
            if panel.tells_steps:  # stored before the player hears back, so no shutdown loses it
                await self.service.hold_events(outcome.table, outcome.events)
            await panel.answer_step(interaction, outcome.table, outcome)
        else:
            await self.post_board(interaction, outcome, None, locale)
        return outcome

    @app_commands.command(name=_("status"), description=_("Who is seated and whose turn it is"))
    async def status(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:  # what the commands sent before did; a table that cannot be played says why
            table = await self.service.current(where(interaction))
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        names = seat_names(table)
        if table.state is None:
            text = t(locale, "game.status_lobby", seats=", ".join(names))
        else:
            to_act = ", ".join(names[s] for s in table.game.to_act(table.state))
            # A turn is a whole player's turn, as players count them (not the steps of one).
            lines = [t(locale, "game.status_playing", turn=table.game.turn_number(table.state) + 1,
                                                 players=to_act)]
            record = table.record
            if record.paused_at is not None:
                by = next((s.display for s in table.seats if s.user_id == record.paused_by), "?")
                lines.append(t(locale, "game.status_paused", player=by))
            elif record.deadline is not None:
                when = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
                lines.append(t(locale, "clock.deadline", when=when))
            shown = standing_names(table, locale)  # an AI seat with its level
            for seat in table.seats:  # who is out, who is played by the AI, pauses left
                notes = [t(locale, key) for key, on in (("game.status_out", seat.eliminated),
                                                        ("game.status_ai", seat.is_ai)) if on]
                pauses = PAUSES_PER_PLAYER - seat.pauses_used
                notes.append(t(locale, "game.status_pauses", count=pauses))
                lines.append(f"{seat.position + 1}. {shown[seat.position]}: {', '.join(notes)}")
            text = "\n".join(lines)
        await answer(interaction, text)

    @app_commands.command(name=_("board"), description=_("Show the current board"))
    async def board(self, interaction: discord.Interaction) -> None:
        """The board as a turn's post shows it (whose turn, the standings, the deadline or the pause, the
        images and the game's buttons), privately in the reader's language: nobody is pinged."""
        locale = locale_of(interaction)
        await ack(interaction)
        try:  # what the commands sent before did
            table = await self.service.current(where(interaction))
            if table.state is None:
                raise TableError("not_started")
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        position = MoveOutcome(table, [], [], False, table.game.to_act(table.state))
        post = await self.board_post(position, None, locale, private=True)
        await answer(interaction, post["content"], embeds=post["embeds"], images=post["images"], view=post.get("view"),
                     allowed_mentions=post["allowed_mentions"])

    @app_commands.command(name=_("hand"), description=_("Your private view of the game (only you see it)"))
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.show_hand(interaction)

    async def show_hand(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:  # what the commands sent before did; a table that cannot be played says why
            table = await self.service.current(where(interaction))
            seat = table.seat_of(interaction.user.id)
            if table.state is None or seat is None:
                raise TableError("not_started" if table.state is None else "not_seated")
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        private = table.game.view(table.state, seat.position)
        if private == table.game.view(table.state, None):
            return await answer(interaction, t(locale, "game.no_hand"))
        await interaction.response.defer(ephemeral=True, thinking=True)  # thinking: a button's answer is new
        image = await asyncio.to_thread(rendering.render_board, table.game.key, private, locale,
                                        seat_names(table))
        await interaction.followup.send(file=discord.File(io.BytesIO(image), "hand.png"), ephemeral=True)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)

    @app_commands.command(name=_("history"), description=_("The moves of this channel's latest game"))
    @app_commands.describe(game=_("A finished game's number (listed when no game is in play)"))
    @app_commands.rename(game=_("game"))
    async def history(self, interaction: discord.Interaction,
                      game: app_commands.Range[int, 1, 2**53] | None = None) -> None:
        locale = locale_of(interaction)
        await ack(interaction)
        if game is not None:
            return await self.show_history_page(interaction, game, -1)
        record = await self.service.store.latest_table(where(interaction))
        if record is None:
            return await answer(interaction, error_text(locale, TableError("no_table")))
        # No game in play: the channel's finished games are listed too, with the numbers `game:` takes.
        listing = None
        if record.status not in ("lobby", "playing"):
            await self.service.results_recorded(within=READ_RESULTS_WITHIN)  # the winners of a game that has just ended
            listing = history.finished_embed(
                await self.service.store.finished_games(where(interaction), history.FINISHED_LISTED), locale)
        await self.show_history_page(interaction, record.id, -1, record, listing)

    async def show_history_page(self, interaction: discord.Interaction, table_id: int, page: int,
                                record: TableRecord | None = None, listing: discord.Embed | None = None) -> None:
        """A page of a table's story (``-1``: the last, where the game is now), with buttons to turn the
        pages; the whole story as a file when it is longer than a page."""
        locale = locale_of(interaction)
        await ack(interaction)
        record = record or await self.service.store.table_record(table_id)
        if record is None or record.channel_id != where(interaction):
            return await answer(interaction, error_text(locale, TableError("no_table")))
        moves = await self.service.store.moves(record.id)
        try:
            story = await asyncio.to_thread(history.story_of, self, record, moves, locale)
        except Exception as error:  # a record the engine no longer replays: say so, with an id
            return await answer(interaction, error_text(locale, error))
        pages = history.pages_of(story)
        if not pages:
            return await answer(interaction, t(locale, "game.no_history"))
        page = len(pages) - 1 if page < 0 else min(page, len(pages) - 1)
        header = t(locale, "history.header", game=registry.get(record.game).names.get(locale, record.game),
                   page=page + 1, pages=len(pages))
        view = history.page_view(record.id, page, len(pages), locale)
        if interaction.type == discord.InteractionType.component:  # a page button: the message turns its page
            await publish(interaction, f"{header}\n{pages[page]}", view=view)
            return
        files = [history.record_file(record, story)] if len(pages) > 1 else []
        await answer(interaction, f"{header}\n{pages[page]}", view=view, files=files, embed=listing)

    @app_commands.command(name=_("rules"), description=_("Player counts and options of a game"))
    @app_commands.describe(game=_("Which game"))
    @app_commands.rename(game=_("game"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: GameKey) -> None:
        locale = locale_of(interaction)
        game = resolve_game(game)  # typed by its name without picking the suggestion
        if not registry.has(game):
            return await answer(interaction, error_text(locale, TableError("unknown_game", game=echo(game))))
        engine = registry.get(game)
        rules = t(locale, "game.rules", game=engine.names.get(locale, game), minimum=engine.min_players,
                  maximum=engine.max_players)
        embed = discord.Embed(title=engine.names.get(locale, game), colour=discord.Colour.blurple(),
                              description=f"{rules}\n{rules_options(game, locale)}"[:4096])
        for key, heading in (("rules.summary", "game.rules_summary"), ("rules.play", "game.rules_play")):
            text = t(locale, f"{game}.{key}")
            if text != f"{game}.{key}":  # a game without its own text keeps the short card
                embed.add_field(name=t(locale, heading), value=text[:1024], inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(GameCog(bot))

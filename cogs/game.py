"""``/game``: tables in a channel for every game. Thin: the table service does the work."""

from __future__ import annotations

import asyncio
import io
import logging
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_calls import deliver
from bot.i18n import pick_locale, t
from bot.tables import (
    PAUSES_PER_PLAYER,
    REPLACED_BY_AI,
    MoveOutcome,
    Table,
    TableError,
    TableSettings,
    format_duration,
    format_reminders,
    parse_duration,
    settings_changes,
)
from games import registry
from games.core import IllegalAction
from rendering import render_board

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


def parse_options(text: str | None) -> dict[str, str]:
    """``key=value key2=a,b`` -> dict; malformed pieces become an unknown option the game refuses."""
    options: dict[str, str] = {}
    for piece in (text or "").split():
        key, _, value = piece.partition("=")
        options[key.strip().lower()] = value.strip()
    return options


def seat_names(table: Table) -> list[str]:
    return [s.display for s in table.seats]


def seat_label(names: list[str], key: str, value: Any) -> Any:
    """Event parameters that name seats (``seat``, ``*_seat``, ``seats``, ``*_seats``) show player names."""
    if (key == "seat" or key.endswith("_seat")) and isinstance(value, int):
        return names[value]
    if (key == "seats" or key.endswith("_seats")) and isinstance(value, (list, tuple)):
        return ", ".join(names[v] for v in value)
    return value


TIMEOUT_CHOICES = [
    app_commands.Choice(name=_("standard: default move, then out at the second miss"), value="standard"),
    app_commands.Choice(name=_("default: default move, never out"), value="default"),
    app_commands.Choice(name=_("eliminate: out at the first miss"), value="eliminate"),
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


def settings_text(table: Table, locale: str) -> str:
    settings = table.settings
    return t(locale, "settings.summary", turn_time=format_duration(table.record.turn_seconds),
             reminders=format_reminders(settings.reminders), timeout=t(locale, f"settings.timeout.{settings.timeout}"),
             ai_replaces=t(locale, "settings.yes" if settings.ai_replaces else "settings.no"),
             resume_wait=format_duration(settings.resume_wait),
             language=t(locale, f"settings.language.{public_locale(table, locale)}"))


def lobby_embed(table: Table, locale: str) -> discord.Embed:
    name = table.game.names.get(locale, table.game.key)
    embed = discord.Embed(title=t(locale, "lobby.title", game=name), colour=discord.Colour.blurple())
    host = next((s.display for s in table.seats if s.user_id == table.record.host_id), "?")
    embed.description = t(locale, "lobby.host", host=host)
    embed.add_field(name=t(locale, "lobby.seats"), value="\n".join(f"{i + 1}. {n}" for i, n in enumerate(seat_names(table))))
    options = ", ".join(f"{k}={v}" for k, v in table.record.options.items() if v != "")  # unset text options
    embed.set_footer(text="\n".join(filter(None, [options, settings_text(table, locale)])))
    return embed


def detached(view: discord.ui.View) -> discord.ui.View:
    """A copy of a persistent view (registered once with ``bot.add_view``) to send with a message.
    Stopped before sending, so discord.py does not keep one view object per message forever; clicks are
    routed by custom id to the registered one."""
    view.stop()
    return view


class HandView(discord.ui.View):
    """The "My hand" button under boards of games with private views: the caller's own view, ephemerally
    (as ``/game hand``). Persistent: it works on old boards and after a restart."""

    def __init__(self, cog: GameCog, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.cog = cog
        self.my_hand.label = t(locale, "button.hand")

    @discord.ui.button(label="My hand", style=discord.ButtonStyle.secondary, custom_id="pbc:hand")
    async def my_hand(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.show_hand(interaction)


class GamePanel:
    """What a game's own cog (``cogs/<key>.py``) adds to the shared board post. It registers itself with
    ``GameCog.panels[key] = panel`` in its ``setup``; the defaults add nothing, so a game without a cog
    is played with ``/game move`` alone."""

    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        """Components under a board post of a game still running (e.g. a persistent "Take turn" button)."""
        return None

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        """Sentences telling the outcome (its events, in words) instead of the moves in notation and the
        catalogs' ``<key>.event.<code>`` lines; ``None`` keeps those."""
        return None

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        """Extra embeds for the last board post (e.g. the scoring breakdown per player)."""
        return []

    def extra_images(self, table: Table, locale: str, names: list[str]) -> list[tuple[str, bytes]]:
        """More public images posted with the board, as (file name, PNG); called in a worker thread."""
        return []

    def error_text(self, locale: str, error: Exception) -> str | None:
        """The game's own wording of a refusal (e.g. engine step names in words); ``None``: the catalogs'."""
        return None

    # Whether the events of steps answered privately are held (stored) and told with the next board; a
    # game whose end-of-turn event already tells the whole turn leaves them out.
    tells_steps = False

    def is_step(self, table: Table, outcome: MoveOutcome) -> bool:
        """Whether a committed ``/game move`` is only a step of the player's turn, answered privately with
        what comes next (``answer_step``) instead of a public board: the channel hears the whole turn once."""
        return False

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """The private answer to a step (see ``is_step``)."""


class LobbyView(discord.ui.View):
    """Join / Leave / Start. Fixed custom ids and no timeout: the buttons keep working after a restart
    (the channel identifies the table)."""

    def __init__(self, cog: GameCog, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.cog = cog
        for child, key in zip(self.children, ("button.join", "button.leave", "button.start"), strict=True):
            child.label = t(locale, key)

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success, custom_id="pbc:lobby:join")
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.lobby_change(interaction, "join")

    @discord.ui.button(label="Leave", style=discord.ButtonStyle.secondary, custom_id="pbc:lobby:leave")
    async def leave(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.lobby_change(interaction, "leave")

    @discord.ui.button(label="Start", style=discord.ButtonStyle.primary, custom_id="pbc:lobby:start")
    async def start(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.start_game(interaction)


def option_suggestions(specs: Any, typed: str, limit: int = 25) -> list[str]:
    """Completions of a ``key=value key2=value`` options string: the pieces already typed stay, the last one
    is completed (an option's name, then its values); options already given are not offered again."""
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
    return [f for f in found if len(f) <= 100][:limit]


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    game = getattr(interaction.namespace, "game", None)
    if not game or not registry.has(game):
        return []
    return [app_commands.Choice(name=s, value=s) for s in option_suggestions(registry.get(game).option_specs, current)]


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    locale = locale_of(interaction)
    return [app_commands.Choice(name=registry.get(k).names.get(locale, k), value=k)
            for k in registry.game_keys() if current.lower() in k][:25]


class GameCog(commands.GroupCog, group_name=_("game"), group_description=_("Play board games in this channel")):
    ai = app_commands.Group(name=_("ai"), description=_("AI seats"))

    # A board post that failed every attempt (Discord down for a while) is posted again to the channel
    # later, with the position then current, so the next player still hears it is their turn.
    repost_delays: tuple[float, ...] = (30.0, 120.0, 600.0)
    post_retry_delay = 0.5  # deliver's first pause between attempts (seconds, doubling)

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service = bot.tables
        self.panels: dict[str, GamePanel] = {}
        self.reposts: dict[int, asyncio.Task[None]] = {}  # channel id -> its pending repost
        bot.add_view(LobbyView(self))
        bot.add_view(HandView(self))
        super().__init__()

    async def cog_load(self) -> None:
        for table in self.service.tables.values():  # boards that Discord refused before a restart
            if table.record.board_due and table.state is not None:
                self.schedule_repost(table, "en")

    async def cog_unload(self) -> None:
        for task in self.reposts.values():
            task.cancel()

    # -- lobby --------------------------------------------------------------------------------
    @app_commands.command(name=_("new"), description=_("Open a game table in this channel"))
    @app_commands.describe(game=_("Which game"), options=_("Options as key=value, space separated"),
                           **SETTING_DESCRIPTIONS)
    @app_commands.rename(game=_("game"), options=_("options"), **SETTING_NAMES)
    @app_commands.autocomplete(game=game_autocomplete, options=options_autocomplete)
    @app_commands.choices(timeout=TIMEOUT_CHOICES, language=LANGUAGE_CHOICES)
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  turn_time: str | None = None, reminders: str | None = None, timeout: str | None = None,
                  ai_replaces: bool | None = None, resume_wait: str | None = None,
                  language: str | None = None) -> None:
        locale = locale_of(interaction)
        try:
            seconds = parse_duration(turn_time) if turn_time else 86400
            changes = settings_changes(reminders, timeout, ai_replaces, resume_wait, language or locale)
            table = await self.service.create(interaction.guild_id, interaction.channel_id, game, interaction.user.id,
                                              interaction.user.display_name, parse_options(options),
                                              turn_seconds=seconds, settings=TableSettings(**changes))
        except (TableError, IllegalAction) as error:
            return await answer(interaction, error_text(locale, error, game))
        locale = public_locale(table, locale)
        await interaction.response.send_message(embed=lobby_embed(table, locale), view=detached(LobbyView(self, locale)))

    async def lobby_change(self, interaction: discord.Interaction, change: str) -> None:
        locale = locale_of(interaction)
        try:
            if change == "join":
                table = await self.service.join(interaction.channel_id, interaction.user.id, interaction.user.display_name)
            else:
                table = await self.service.leave(interaction.channel_id, interaction.user.id)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        locale = public_locale(table, locale)
        if interaction.message is not None:
            await interaction.response.edit_message(embed=lobby_embed(table, locale), view=detached(LobbyView(self, locale)))
        else:
            key = "lobby.joined" if change == "join" else "lobby.left"
            await interaction.response.send_message(t(locale, key, player=interaction.user.display_name),
                                                    embed=lobby_embed(table, locale))

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
        try:
            outcome = await self.service.start(interaction.channel_id, interaction.user.id)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await interaction.response.defer()
        table = outcome.table
        locale = public_locale(table, locale)
        seats = ", ".join(seat_names(table))
        await self.post_board(interaction, outcome, t(locale, "game.started", game=table.game.names.get(locale, table.game.key), seats=seats), locale)

    @ai.command(name=_("add"), description=_("Add an AI seat (host)"))
    async def ai_add(self, interaction: discord.Interaction) -> None:
        await self._ai(interaction, add=True)

    @ai.command(name=_("remove"), description=_("Remove an AI seat (host)"))
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        await self._ai(interaction, add=False)

    async def _ai(self, interaction: discord.Interaction, add: bool) -> None:
        locale = locale_of(interaction)
        try:
            change = self.service.add_ai if add else self.service.remove_ai
            table = await change(interaction.channel_id, interaction.user.id)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await interaction.response.send_message(embed=lobby_embed(table, public_locale(table, locale)))

    @app_commands.command(name=_("abort"), description=_("Close this channel's table (host or Manage Channels)"))
    async def abort(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            table = await self.service.abort(interaction.channel_id, interaction.user.id, self.manages(interaction))
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await interaction.response.send_message(t(public_locale(table, locale), "lobby.aborted",
                                                  player=interaction.user.display_name))

    # -- clock and host controls ----------------------------------------------------------------
    async def control(self, interaction: discord.Interaction, call: Any, done_key: str = "ok", **params: Any) -> None:
        locale = locale_of(interaction)
        try:
            outcome = await call
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        if isinstance(outcome, MoveOutcome):
            locale = public_locale(outcome.table, locale)
            if any(text == REPLACED_BY_AI for _seat, text in outcome.moves):
                done_key = f"{done_key}_replaced"
            await interaction.response.defer()
            return await self.post_board(interaction, outcome, t(locale, done_key, **params), locale)
        await interaction.response.send_message(t(public_locale(outcome, locale), done_key, **params))

    @staticmethod
    def manages(interaction: discord.Interaction) -> bool:
        permissions = getattr(interaction, "permissions", None)
        return bool(permissions and permissions.manage_channels)

    @app_commands.command(name=_("pause"), description=_("Pause the turn clock (two per player, on your turn)"))
    async def pause(self, interaction: discord.Interaction) -> None:
        await self.control(interaction, self.service.pause(interaction.channel_id, interaction.user.id,
                                                           self.manages(interaction)),
                           "clock.paused", player=interaction.user.display_name)

    @app_commands.command(name=_("resume"), description=_("Resume the turn clock"))
    async def resume(self, interaction: discord.Interaction) -> None:
        await self.control(interaction, self.service.resume(interaction.channel_id, interaction.user.id,
                                                            self.manages(interaction)),
                           "clock.resumed", player=interaction.user.display_name)

    @app_commands.command(name=_("kick"), description=_("Eliminate a player now (host or Manage Channels)"))
    @app_commands.rename(player=_("player"))
    @app_commands.describe(player=_("The seated member"))
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.control(interaction, self.service.kick(interaction.channel_id, interaction.user.id, player.id,
                                                          self.manages(interaction)),
                           "clock.kicked", player=player.display_name)

    @app_commands.command(name=_("substitute"), description=_("Hand a seat to another member (host or Manage Channels)"))
    @app_commands.rename(old=_("old"), new=_("new"))
    @app_commands.describe(old=_("The seated member"), new=_("The member who takes the seat"))
    async def substitute(self, interaction: discord.Interaction, old: discord.Member, new: discord.Member) -> None:
        await self.control(interaction, self.service.substitute(
            interaction.channel_id, interaction.user.id, old.id, new.id, new.display_name, self.manages(interaction)),
            "clock.substituted", old=old.display_name, new=new.display_name)

    @app_commands.command(name=_("extend"), description=_("Add time to the current turn (host or Manage Channels)"))
    @app_commands.rename(duration=_("duration"))
    @app_commands.describe(duration=_("How much: 90s, 10m, 2h, 1d"))
    async def extend(self, interaction: discord.Interaction, duration: str) -> None:
        locale = locale_of(interaction)
        try:
            seconds = parse_duration(duration)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await self.control(interaction, self.service.extend(interaction.channel_id, interaction.user.id, seconds,
                                                            self.manages(interaction)), "clock.extended", duration=duration)

    @app_commands.command(name=_("settings"),
                          description=_("Show the table's settings; the host changes them in the lobby or paused"))
    @app_commands.describe(**SETTING_DESCRIPTIONS)
    @app_commands.rename(**SETTING_NAMES)
    @app_commands.choices(timeout=TIMEOUT_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction, turn_time: str | None = None,
                       reminders: str | None = None, timeout: str | None = None, ai_replaces: bool | None = None,
                       resume_wait: str | None = None, language: str | None = None) -> None:
        locale = locale_of(interaction)
        try:
            table = self.service.table(interaction.channel_id)
            if (turn_time, reminders, timeout, ai_replaces, resume_wait, language) == (None,) * 6:
                return await answer(interaction, t(locale, "clock.settings_show", settings=settings_text(table, locale)))
            seconds = parse_duration(turn_time) if turn_time else None
            changes = settings_changes(reminders, timeout, ai_replaces, resume_wait, language)
            table = await self.service.update_settings(interaction.channel_id, interaction.user.id,
                                                       self.manages(interaction), seconds, **changes)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        locale = public_locale(table, locale)
        await interaction.response.send_message(t(locale, "clock.settings", settings=settings_text(table, locale)))

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
        notations = self.service.legal_notations(interaction.channel_id, interaction.user.id)
        wanted = current.lower().strip()
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in notations if wanted in n.lower()][:25]

    @app_commands.command(name=_("move"), description=_("Make a move in the game's notation"))
    @app_commands.describe(action=_("The move; start typing to see the legal ones"))
    @app_commands.rename(action=_("action"))
    @app_commands.autocomplete(action=move_autocomplete)
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    async def play(self, interaction: discord.Interaction, notation: str, expected_version: int | None = None) -> None:
        locale = locale_of(interaction)
        table = self.service.tables.get(interaction.channel_id)
        try:
            outcome = await self.service.act(interaction.channel_id, interaction.user.id, notation, expected_version)
        except (TableError, IllegalAction) as error:
            own = self.panel(table.game.key).error_text(locale, error) if table else None
            return await answer(interaction, own or error_text(locale, error, table.game.key if table else None))
        except Exception as error:  # the move did not commit; tell the player with an id
            return await answer(interaction, error_text(locale, error))
        panel = self.panel(outcome.table.game.key)
        if panel.is_step(outcome.table, outcome):
            if panel.tells_steps:  # stored before the player hears back, so no shutdown loses it
                await self.service.hold_events(outcome.table, outcome.events)
            return await panel.answer_step(interaction, outcome.table, outcome)
        await interaction.response.defer()
        await self.post_board(interaction, outcome, None, locale)

    async def post_board(self, interaction: discord.Interaction, outcome: MoveOutcome, headline: str | None,
                         locale: str) -> None:
        await self.send_board(interaction.followup.send, outcome, headline, locale)

    async def announce_timeout(self, outcome: MoveOutcome) -> None:
        """Called by the turn clock: say what the clock did, in the table's channel."""
        table = outcome.table
        channel, locale = await self.channel_of(table)
        player = table.seats[outcome.timed_out_seat].display
        headline = t(locale, f"clock.{outcome.timeout}", player=player)
        await self.send_board(channel.send, outcome, headline, locale)

    async def channel_of(self, table: Table) -> tuple[Any, str]:
        channel = self.bot.get_channel(table.record.channel_id) or await self.bot.fetch_channel(table.record.channel_id)
        guild = getattr(channel, "guild", None)
        return channel, public_locale(table, pick_locale(str(guild.preferred_locale.value) if guild else None))

    async def announce_reminder(self, table: Table, seat: int) -> None:
        """Called by the turn clock: remind the player to move (a mention of that player only)."""
        user_id = table.seats[seat].user_id
        if user_id is None or table.record.deadline is None:
            return
        channel, locale = await self.channel_of(table)
        when = discord.utils.format_dt(datetime.fromtimestamp(table.record.deadline, tz=UTC), "R")
        # The game's Take turn button comes with the reminder: the player acts from there.
        view = self.panel(table.game.key).board_view(table, MoveOutcome(table, [], [], False, [seat]), locale)
        extra = {"view": detached(view)} if view is not None and view.is_persistent() else {}
        await deliver(lambda: channel.send(
            t(locale, "clock.reminder", mention=f"<@{user_id}>", when=when),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False, roles=False),
            **extra,
        ))

    def panel(self, game_key: str) -> GamePanel:
        return self.panels.get(game_key) or GamePanel()

    def story_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str]:
        """What happened: the game's own sentences when its panel tells them, else each move in notation
        followed by the catalogs' ``<key>.event.<code>`` lines."""
        told = self.panel(table.game.key).event_lines(table, outcome, names, locale)
        if told is not None:
            return told
        key = table.game.key
        lines = [t(locale, "game.move", player=names[seat], move=notation)
                 for seat, notation in outcome.moves if not notation.startswith("@")]  # "@": the clock's entries
        for _seat, event in outcome.events:
            params = {k: seat_label(names, k, v) for k, v in event.params.items()}
            text = t(locale, f"{key}.event.{event.code}", **params)
            if text != f"{key}.event.{event.code}":
                lines.append(text)
        return lines

    def board_images(self, table: Table, locale: str) -> list[tuple[str, bytes]]:
        """The public board image and the game's extra ones (blocking: call in a thread)."""
        names = seat_names(table)
        board = render_board(table.game.key, table.game.view(table.state, None), locale, names)
        return [("board.png", board), *self.panel(table.game.key).extra_images(table, locale, names)]

    def schedule_repost(self, table: Table, locale: str) -> None:
        channel_id = table.record.channel_id
        if channel_id not in self.reposts or self.reposts[channel_id].done():
            self.reposts[channel_id] = asyncio.get_running_loop().create_task(
                self._repost(table, locale), name=f"repost-{channel_id}")

    async def _repost(self, table: Table, locale: str) -> None:
        """While the table's latest board is due, post the current position again after each delay."""
        for delay in self.repost_delays:
            await asyncio.sleep(delay)
            if not table.record.board_due:  # a later board was posted and told the position
                return
            channel, _ = await self.channel_of(table)
            finished = table.record.status == "finished"
            next_seats = [] if finished else table.game.to_act(table.state)
            outcome = MoveOutcome(table, [], [], finished, next_seats)
            if await self.send_board(channel.send, outcome, t(public_locale(table, locale), "game.reposted"), locale,
                                     repost=False):
                return
        log.warning("board of table %s not posted after %d reposts", table.record.id, len(self.repost_delays))

    async def send_board(self, send: Any, outcome: MoveOutcome, headline: str | None, locale: str,
                         repost: bool = True) -> bool:
        """After a committed move: what happened, the standings, whose turn (a mention of that player only,
        with the deadline) and the board image, rendered off the event loop. Returns whether it was posted;
        if not, it is posted again later (``repost``)."""
        table = outcome.table
        locale = public_locale(table, locale)
        # Steps told privately so far (kept in the store) come first: the board tells the whole turn. They
        # are forgotten only once the board is posted, so a failed post or a shutdown loses none of them.
        held = self.service.held_events(table)
        outcome = replace(outcome, events=[*held, *outcome.events])
        game = table.game
        panel = self.panel(game.key)
        names = seat_names(table)
        lines = [headline] if headline else []
        lines += self.story_lines(table, outcome, names, locale)
        embed = discord.Embed(description="\n".join(lines)[:4000] or None, colour=discord.Colour.green())
        result = game.result(table.state)
        embed.add_field(name=t(locale, "game.standings"),
                        value="\n".join(f"{p.rank}. {names[p.seat]}: {p.score}" for p in result.ranking))
        mention_ids = [table.seats[s].user_id for s in outcome.next_seats if table.seats[s].user_id]
        content = t(locale, "game.over") if outcome.finished else " ".join(f"<@{u}>" for u in mention_ids) or None
        if not outcome.finished and table.record.deadline is not None:
            when = discord.utils.format_dt(datetime.fromtimestamp(table.record.deadline, tz=UTC), "R")
            content = f"{content or ''} {t(locale, 'clock.deadline', when=when)}".strip()
        images = await asyncio.to_thread(self.board_images, table, locale)
        embed.set_image(url="attachment://board.png")
        embeds = [embed, *(panel.final_embeds(table, locale) if outcome.finished else [])][:10]
        view = None if outcome.finished else panel.board_view(table, outcome, locale)
        if game.private_views and not outcome.finished:  # a "My hand" button beside the game's own
            hand = HandView(self, locale)
            view = view or discord.ui.View(timeout=None)
            for item in hand.children:
                view.add_item(item)  # routed by its custom id to the HandView registered at start
        if view is not None and view.is_persistent():
            view = detached(view)
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in mention_ids], everyone=False, roles=False)
        extra = {"view": view} if view is not None else {}
        # Fresh File objects on each attempt: a retried send must not read an exhausted buffer.
        posted = await deliver(lambda: send(
            content=content, embeds=embeds, allowed_mentions=mentions,
            files=[discord.File(io.BytesIO(data), name) for name, data in images], **extra,
        ), first_delay=self.post_retry_delay)
        if posted is None:
            if repost:
                await self.service.set_board_due(table, True)
                self.schedule_repost(table, locale)
            return False
        await self.service.forget_held_events(table, len(held))
        await self.service.set_board_due(table, False)
        return True

    @app_commands.command(name=_("status"), description=_("Who is seated and whose turn it is"))
    async def status(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        table = self.service.tables.get(interaction.channel_id)
        if table is None:
            return await answer(interaction, error_text(locale, TableError("no_table")))
        names = seat_names(table)
        if table.state is None:
            text = t(locale, "game.status_lobby", seats=", ".join(names))
        else:
            to_act = ", ".join(names[s] for s in table.game.to_act(table.state))
            lines = [t(locale, "game.status_playing", version=table.version, players=to_act)]
            record = table.record
            if record.paused_at is not None:
                by = next((s.display for s in table.seats if s.user_id == record.paused_by), "?")
                lines.append(t(locale, "game.status_paused", player=by))
            elif record.deadline is not None:
                when = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
                lines.append(t(locale, "clock.deadline", when=when))
            for seat in table.seats:  # who is out, who is played by the AI, pauses left
                notes = [t(locale, key) for key, on in (("game.status_out", seat.eliminated),
                                                        ("game.status_ai", seat.is_ai)) if on]
                pauses = PAUSES_PER_PLAYER - seat.pauses_used
                notes.append(t(locale, "game.status_pauses", count=pauses))
                lines.append(f"{seat.position + 1}. {seat.display}: {', '.join(notes)}")
            text = "\n".join(lines)
        await answer(interaction, text)

    @app_commands.command(name=_("board"), description=_("Show the current board"))
    async def board(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        table = self.service.tables.get(interaction.channel_id)
        if table is None or table.state is None:
            return await answer(interaction, error_text(locale, TableError("no_table" if table is None else "not_started")))
        await interaction.response.defer(ephemeral=True)
        images = await asyncio.to_thread(self.board_images, table, locale)
        await interaction.followup.send(files=[discord.File(io.BytesIO(data), name) for name, data in images],
                                        ephemeral=True)

    @app_commands.command(name=_("hand"), description=_("Your private view of the game (only you see it)"))
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.show_hand(interaction)

    async def show_hand(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        table = self.service.tables.get(interaction.channel_id)
        seat = table.seat_of(interaction.user.id) if table is not None else None
        if table is None or table.state is None or seat is None:
            code = "no_table" if table is None else "not_started" if table.state is None else "not_seated"
            return await answer(interaction, error_text(locale, TableError(code)))
        private = table.game.view(table.state, seat.position)
        if private == table.game.view(table.state, None):
            return await answer(interaction, t(locale, "game.no_hand"))
        await interaction.response.defer(ephemeral=True, thinking=True)  # thinking: a button's answer is new
        image = await asyncio.to_thread(render_board, table.game.key, private, locale, seat_names(table))
        await interaction.followup.send(file=discord.File(io.BytesIO(image), "hand.png"), ephemeral=True)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)

    @app_commands.command(name=_("history"), description=_("The moves of this channel's latest game"))
    async def history(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        record = await self.service.store.latest_table(interaction.channel_id)
        if record is None:
            return await answer(interaction, error_text(locale, TableError("no_table")))
        names = {s.position: s.display for s in record.seats}
        moves = await self.service.store.moves(record.id)
        lines = [f"{seq}. {names.get(seat, seat)}: {text}" for seq, seat, text, _ in moves[-40:]]
        await answer(interaction, "\n".join(lines) if lines else t(locale, "game.no_history"))

    @app_commands.command(name=_("rules"), description=_("Player counts and options of a game"))
    @app_commands.describe(game=_("Which game"))
    @app_commands.rename(game=_("game"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        locale = locale_of(interaction)
        if not registry.has(game):
            return await answer(interaction, error_text(locale, TableError("unknown_game", game=game)))
        engine = registry.get(game)
        options = ", ".join(f"{s.name}={s.format(s.default)}" for s in engine.option_specs) or "-"
        embed = discord.Embed(title=engine.names.get(locale, game), colour=discord.Colour.blurple(),
                              description=t(locale, "game.rules", game=engine.names.get(locale, game),
                                            minimum=engine.min_players, maximum=engine.max_players, options=options))
        for key, heading in (("rules.summary", "game.rules_summary"), ("rules.play", "game.rules_play")):
            text = t(locale, f"{game}.{key}")
            if text != f"{game}.{key}":  # a game without its own text keeps the short card
                embed.add_field(name=t(locale, heading), value=text[:1024], inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(GameCog(bot))

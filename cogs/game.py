"""``/game``: tables in a channel for every game. Thin: the table service does the work; board posts
are ``cogs/board.py``'s, helpers shared with the games' own cogs ``cogs/common.py``'s. The one ``GameCog``
mixes in its parts, each a module of its own: the lobby (``cogs/lobby.py``), the clock and host controls
(``cogs/host.py``), ratings (``cogs/ratings.py``) and replays (``cogs/replay.py``); the plays and the reads
are here."""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

import rendering
from bot.board_queue import BoardQueue
from bot.i18n import t
from bot.store import TableRecord
from bot.tables import PAUSES_PER_PLAYER, READ_RESULTS_WITHIN, MoveOutcome, TableError, echo
from cogs import history, move_search
from cogs import panel as generic_panel
from cogs.board import BoardPoster, GamePanel, HandView, standing_names
from cogs.common import ack, answer, error_text, locale_of, publish, report_command_error, seat_names, where
from cogs.game_choice import (
    GameKey,
    OptionsText,
    game_autocomplete,
    option_suggestions,
    options_autocomplete,
    parse_options,
    resolve_game,
)
from cogs.host import HostCommands
from cogs.lobby import AI_LEVEL_CHOICES, LobbyCommands, LobbyView, lobby_embed, option_summary
from cogs.ratings import RatingsCommands
from cogs.replay import ReplayCommands
from cogs.table_settings import (
    LANGUAGE_CHOICES,
    REMINDER_WORDS,
    SETTING_DESCRIPTIONS,
    SETTING_NAMES,
    TIMEOUT_CHOICES,
    ShortText,
    reminders_text,
    settings_changed,
    settings_text,
    typed_reminders,
)
from games import registry
from games.core import IllegalAction

__all__ = [  # GameCog and setup; the rest were defined here before the split, still importable from here
    "AI_LEVEL_CHOICES", "LANGUAGE_CHOICES", "REMINDER_WORDS", "SETTING_DESCRIPTIONS", "SETTING_NAMES",
    "TIMEOUT_CHOICES", "GameCog", "GameKey", "LobbyView", "MoveText", "OptionsText", "ShortText",
    "game_autocomplete", "lobby_embed", "option_default", "option_suggestions", "option_summary",
    "options_autocomplete", "parse_options", "reminders_text", "resolve_game", "rules_options",
    "settings_changed", "settings_text", "setup", "typed_reminders"]

log = logging.getLogger(__name__)

MoveText = app_commands.Range[str, 1, 200]  # the longest move Discord lets through


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



# discord.py collects the group's commands from the last base (ReplayCommands) to GameCog itself: in this order
# the group lists them as before the split, so the synced definitions (and their digest) are unchanged.
class GameCog(BoardPoster, HostCommands, LobbyCommands, RatingsCommands, ReplayCommands, commands.GroupCog,
              group_name=_("game"), group_description=_("Play board games in this channel")):
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service = bot.tables
        self.panels: dict[str, GamePanel] = {}
        self.board_queue = BoardQueue(self.post_due, self.service.read_off_loop)
        self.refused: set[int] = set()  # tables whose latest board Discord refused, in this process
        bot.add_view(LobbyView(self))
        bot.add_view(HandView(self))
        bot.add_dynamic_items(history.HistoryPage)
        # A game with a presentation module and no cog of its own is played with the generic panel.
        # Every game with a presentation module is played with the one panel (its cog adds typed shortcuts).
        generic = [e.key for e in registry.entries() if e.presentation is not None]
        if generic:
            shared = generic_panel.GenericPanel(bot)
            self.panels.update(dict.fromkeys(generic, shared))
            bot.add_view(generic_panel.TurnView())
            bot.add_dynamic_items(*generic_panel.DYNAMIC_ITEMS)
        super().__init__()

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

    async def on_board_posted(self, outcome: MoveOutcome, message: discord.Message) -> None:
        """At the end, the lobby shows the result and links to the last board."""
        if outcome.finished:
            await self.refresh_lobby(outcome.table, message.jump_url)

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
            own = self.panel(table.game.key).error_text(locale, error, table.game.key) if table else None
            await answer(interaction, own or error_text(locale, error, table.game.key if table else None))
            return None
        except Exception as error:  # the move did not commit; tell the player with an id
            await answer(interaction, error_text(locale, error))
            return None
        panel = self.panel(outcome.table.game.key)
        if not outcome.announce:  # a step of the turn; the channel hears the whole turn once
            if panel.holds_steps(outcome.table.game.key):  # stored before the player hears back: no shutdown loses it
                await self.service.hold_events(outcome.table, panel.held(outcome.table, outcome))
            await panel.answer_step(interaction, outcome.table, outcome)
        else:
            await self.post_board(interaction, outcome, None, locale)
        return outcome

    @app_commands.command(name=_("turn"), description=_("Open your turn's panel (privately)"))
    async def turn(self, interaction: discord.Interaction) -> None:
        """The Take turn button's panel, typed: the shared panel of a game played with it; a game with a panel
        of its own is pointed at its button and commands."""
        table = self.service.tables.get(where(interaction))
        panel = self.panels.get(table.game.key) if table is not None else None
        if isinstance(panel, generic_panel.GenericPanel):
            return await panel.open(interaction)
        locale = locale_of(interaction)
        if table is None:
            return await answer(interaction, error_text(locale, TableError("no_table")))
        await answer(interaction, t(locale, "game.turn_own_panel"))

    async def choose_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        panel = self.panel_of(interaction)
        return [app_commands.Choice(name=label[:100], value=key) for label, key in
                (panel.suggestions(interaction, current) if panel is not None else [])]

    def panel_of(self, interaction: discord.Interaction) -> generic_panel.GenericPanel | None:
        table = self.service.tables.get(where(interaction))
        panel = self.panels.get(table.game.key) if table is not None else None
        return panel if isinstance(panel, generic_panel.GenericPanel) else None

    @app_commands.command(name=_("choose"), description=_("Answer your turn's current question, typed"))
    @app_commands.rename(choice=_("choice"))
    @app_commands.describe(choice=_("Start typing to see the answers"))
    @app_commands.autocomplete(choice=choose_autocomplete)
    async def choose(self, interaction: discord.Interaction, choice: app_commands.Range[str, 1, 100]) -> None:
        panel = self.panel_of(interaction)
        if panel is None:
            return await answer(interaction, error_text(locale_of(interaction), TableError("no_table")))
        await panel.choose(interaction, choice)

    @app_commands.command(name=_("undo"), description=_("Take back the last step of your turn before it ends"))
    async def undo(self, interaction: discord.Interaction) -> None:
        panel = self.panel_of(interaction)
        if panel is None:
            return await answer(interaction, error_text(locale_of(interaction), TableError("no_table")))
        await panel.undo(interaction)

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

"""Déole in Discord: the "Take turn" panel, ``/deole`` commands, the Navigation sheets and the final scores.

A player's turn in Déole is a chain of small decisions (die, track, mode, rudders, port, direction, wreck,
castaway, bonus...). The mover answers them in one ephemeral panel that edits itself after every committed
step; an answer may play several steps at once (:func:`panel_choices`), and the first is also offered in a
select menu under the board post, so a pick mostly takes one click. The channel gets one public board per
finished pick (when the turn passes to someone else, a solo
player's next roll comes up, or the game ends), carrying the events of every step since the last board.
Each step is committed with the table version the panel was built at, so a double click or a stale panel
answers "already played" and changes nothing.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.tables import MoveOutcome, Table, TableError
from cogs.board import GamePanel, board_note
from cogs.common import (
    ack,
    answer,
    error_text,
    locale_of,
    public_locale,
    publish,
    report_command_error,
    seat_labels,
    seat_names,
    where,
)
from games.core import IllegalAction
from games.deole.engine import DeoleGame
from presentation.deole import (  # the turn flow as plain data
    BUTTON_LIMIT,
    HINT_VALUE,
    KEY,
    Choice,
    choices,
    narrate,
    panel_choices,
    panel_text,
    step_hint,
    tr,
)

TURN_ID = "pbc:deole:turn"
BUTTON_LABEL_LIMIT = 80  # Discord's limit on a button's label; a longer answer goes into a select menu


def hint_choice(text: str) -> app_commands.Choice[str]:
    """A single suggestion that explains an empty list (Discord shows no text of its own)."""
    return app_commands.Choice(name=text[:100], value=HINT_VALUE)


# -- views ----------------------------------------------------------------------------------------
class TurnView(discord.ui.View):
    """The persistent "Take turn" button under each board post (fixed custom id, no timeout)."""

    def __init__(self, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.take_turn.label = tr(locale, "button.turn")

    @discord.ui.button(label="Take turn", style=discord.ButtonStyle.primary, custom_id=TURN_ID)
    async def take_turn(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await deole_cog(interaction).open_panel(interaction)


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pbc:deole:do:(?P<version>\d+):(?P<index>\d+)"):
    """One answer of the panel; the custom id carries the table version and the answer's index, so the
    button still works after a restart and a stale one is refused."""

    def __init__(self, version: int, index: int, label: str = "?") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.secondary,
                                           custom_id=f"pbc:deole:do:{version}:{index}"))
        self.version, self.index = version, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceButton:
        return cls(int(match["version"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await deole_cog(interaction).choose(interaction, self.version, self.index)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"pbc:deole:pick:(?P<version>\d+)"):
    """The panel's answers as a select menu when there are too many for buttons."""

    def __init__(self, version: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"pbc:deole:pick:{version}", placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="?", value="0")]))
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceSelect:
        return cls(int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        index = choice_index((interaction.data or {}).get("values"))
        await deole_cog(interaction).choose(interaction, self.version, index)


def choice_index(values: Any) -> int | None:
    """The answer index a select sent: one value, the decimal index of an option; None for anything else (a
    modified client can send any strings)."""
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        return None
    value = values[0]
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None


def panel_view(options: list[Choice], version: int, locale: str) -> discord.ui.View | None:
    if not options:
        return None
    view = discord.ui.View(timeout=None)
    if len(options) <= BUTTON_LIMIT and all(len(c.label) <= BUTTON_LABEL_LIMIT for c in options):
        for index, choice in enumerate(options):
            view.add_item(ChoiceButton(version, index, choice.label))
    else:  # many answers, or long ones (several steps at once): a select menu, the rest of a label below it
        select_options = [discord.SelectOption(label=c.label[:100], value=str(i), description=c.label[100:200] or None)
                          for i, c in enumerate(options[:25])]
        view.add_item(ChoiceSelect(version, select_options, tr(locale, "panel.pick")))
    return view


def deole_cog(interaction: discord.Interaction) -> DeoleCog:
    return cast(DeoleCog, cast(commands.Bot, interaction.client).get_cog("DeoleCog"))


# -- the panel hooked into the shared board post ------------------------------------------------
class DeolePanel(GamePanel):
    tells_steps = True  # a pick's steps are told together on the board posted when it is done

    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        """Take turn, and the mover's first answers in a select menu: a pick starts from the board post (the
        answer is played, the player reads the next question privately)."""
        view = TurnView(locale)
        options = board_answers(table)
        if options:
            seat = table.game.to_act(table.state)[0]
            view.add_item(ChoiceSelect(table.version, [
                discord.SelectOption(label=c.label[:100], value=str(i), description=c.label[100:200] or None)
                for i, c in enumerate(options)], tr(locale, "board.pick", player=seat_names(table)[seat])[:150]))
        return view

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        # The outcome carries the pick's earlier steps too (held by the table service until this board).
        return narrate(outcome.events, names, locale)

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        return [final_embed(table, locale)]

    def error_text(self, locale: str, error: Exception) -> str | None:
        return deole_error(locale, error)  # /game move's refusals name the step in words too

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """The mover gets the next question, with its buttons."""
        text, view = panel_message(table, outcome.moves[0][0], locale_of(interaction))
        await answer(interaction, text, view=view)  # /game move acknowledged the command already



def final_embed(table: Table, locale: str) -> discord.Embed:
    result = table.game.result(table.state)
    names = seat_labels(table, locale)  # as the standings of the same post name them
    embed = discord.Embed(title=tr(locale, "final.title"), colour=discord.Colour.gold())
    if result.extra.get("solo"):
        embed.description = tr(locale, f"final.solo.{result.extra['outcome']}")
    for player in result.ranking:
        b = player.breakdown
        value = tr(locale, "final.breakdown", **b)
        name = tr(locale, "final.player", rank=player.rank, player=names[player.seat], score=player.score)
        embed.add_field(name=name[:256], value=value[:1024], inline=False)
    return embed


class DeoleCog(commands.GroupCog, group_name=_("deole"), group_description=_("Play Déole in this channel")):
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.service = bot.tables
        self.panel = DeolePanel()
        super().__init__()

    @property
    def game_cog(self) -> Any:
        return self.bot.get_cog("GameCog")

    def _mover(self, interaction: discord.Interaction) -> tuple[Table, int]:
        """The table and the caller's seat, if it is the caller's move; else a refusal."""
        return self.service.mover(interaction.channel_id, interaction.user.id, KEY)

    async def open_panel(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            table, seat = self._mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        text, view = panel_message(table, seat, locale)
        await answer(interaction, text, view=view)

    async def choose(self, interaction: discord.Interaction, version: int, index: int | None) -> None:
        """A panel answer: the choice at ``index`` of the position at ``version``; an index that names no
        answer (stale or forged) gets the stale-panel answer and changes nothing."""
        locale = locale_of(interaction)
        try:
            current = self.service.tables.get(interaction.channel_id)
            if current is not None and current.version != version and current.seat_of(interaction.user.id):
                raise TableError("already_played")  # a panel of a position gone (also when the pick ended)
            table, seat = self._mover(interaction)
            if version != table.version:
                raise TableError("already_played")
            options = table_choices(table, seat, locale)
            if index is None or not 0 <= index < len(options):
                raise TableError("already_played")
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        message = getattr(interaction, "message", None)  # the panel's own message, or the board post
        await self.commit(interaction, list(options[index].notations), version,
                          edit=message is None or message.flags.ephemeral)

    async def commit(self, interaction: discord.Interaction, notations: list[str], version: int | None,
                     edit: bool) -> None:
        """Commit the step; the mover sees the next question, the channel a board once the pick is done."""
        locale = locale_of(interaction)
        await ack(interaction)  # before the table service: a busy database never misses Discord's 3 s
        try:
            outcome = await self.service.act(where(interaction), interaction.user.id, notations, version)
        except (TableError, IllegalAction) as error:
            return await answer(interaction, deole_error(locale, error))
        except Exception as error:  # nothing was committed; the player gets an id to report
            return await answer(interaction, error_text(locale, error))
        table = outcome.table
        seat = outcome.moves[0][0]
        done = outcome.announce  # the pick (the player's turn) is over: the table service holds its story
        if not done:  # told with the pick's board, even after a restart
            await self.service.hold_events(table, outcome.events)
        text, view = panel_message(table, seat, locale)
        board = None
        if done:  # the board first: the mover hears it is posted once it is (with its link)
            # Moves stay out of the lines: the events tell every step in words.
            told = MoveOutcome(table, [], outcome.events, outcome.finished, outcome.next_seats)
            board = await self.game_cog.send_board(told, None, locale)
        if done and view is not None:  # solo: the next roll is already up
            note = board_note(locale, board, lambda link: tr(locale, "panel.posted", link=link))
            text = f"{note}\n\n{text}"[:2000]
        elif done:
            text = board_note(locale, board, lambda link: tr(locale, "panel.picked", link=link))
        if edit:  # the panel's own message shows the next question
            await publish(interaction, text, view=view)
        else:
            await answer(interaction, text, view=view)

    # -- commands for typists -------------------------------------------------------------------
    async def _autocomplete(self, interaction: discord.Interaction, current: str,
                            kinds: tuple[str, ...]) -> list[app_commands.Choice[str]]:
        table = self.service.tables.get(interaction.channel_id)
        if table is None or table.game.key != KEY or table.state is None:
            return []
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return []
        locale = locale_of(interaction)
        game = engine_of(table)
        found = choices(game, table.state, seat.position, locale)
        fitting = [c for c in found if not kinds or c.notations[0].split()[0] in kinds]
        if not fitting:  # the step is played (by the player, the engine or the clock) or not come: say so
            return [hint_choice(step_hint(game, table.state, kinds, locale) if found else
                                tr(locale, "hint.no_choice", reason=error_text(locale, TableError(
                                    "game_over" if game.is_over(table.state) else "not_your_turn"))))]
        wanted = current.lower().strip()
        out = []
        for choice in fitting:
            value = " | ".join(choice.notations)
            if wanted in choice.label.lower() or wanted in value:
                out.append(app_commands.Choice(name=choice.label[:100], value=value[:100]))
        return out[:25]

    async def typed(self, interaction: discord.Interaction, text: str) -> None:
        if text.strip() == HINT_VALUE:  # a suggestion that explains, sent: the current question instead
            return await self.open_panel(interaction)
        notations = [p.strip() for p in text.split("|") if p.strip()]
        await self.commit(interaction, notations, None, edit=False)

    @app_commands.command(name=_("turn"), description=_("Open your Déole turn panel"))
    async def turn(self, interaction: discord.Interaction) -> None:
        await self.open_panel(interaction)

    async def any_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current, ())

    async def die_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current, ("die", "anchor", "take"))

    async def track_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current, ("track", "castaway", "disaster", "colour"))

    async def mode_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current, ("mode",))

    async def write_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current, ("place", "rudder", "value", "help"))

    async def sail_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current, ("port", "move"))

    async def bonus_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._autocomplete(interaction, current, ("bonus", "flip"))

    @app_commands.command(name=_("play"), description=_("Answer the current step of your Déole turn"))
    @app_commands.rename(choice=_("choice"))
    @app_commands.describe(choice=_("Start typing to see your possible answers"))
    @app_commands.autocomplete(choice=any_choices)
    async def play(self, interaction: discord.Interaction, choice: str) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("die"), description=_("Take a die (from the dice track, or by a bonus)"))
    @app_commands.rename(choice=_("die"))
    @app_commands.describe(choice=_("Colour and value, e.g. blue 5"))
    @app_commands.autocomplete(choice=die_choices)
    async def die(self, interaction: discord.Interaction, choice: str) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("track"), description=_("Choose the track for your die (or castaway, Disaster)"))
    @app_commands.rename(choice=_("track"))
    @app_commands.describe(choice=_("A Wind track of the die's colour, or the Crew track"))
    @app_commands.autocomplete(choice=track_choices)
    async def track(self, interaction: discord.Interaction, choice: str) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("mode"), description=_("Choose the placement mode of the track you start"))
    @app_commands.rename(choice=_("mode"))
    @app_commands.describe(choice=_("One of the game's modes not used yet"))
    @app_commands.autocomplete(choice=mode_choices)
    async def mode(self, interaction: discord.Interaction, choice: str) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("write"), description=_("Write the die's value, using rudders if needed"))
    @app_commands.rename(choice=_("value"))
    @app_commands.describe(choice=_("The value to write; rudders are used for you"))
    @app_commands.autocomplete(choice=write_choices)
    async def write(self, interaction: discord.Interaction, choice: str) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("sail"), description=_("Choose your port or your direction"))
    @app_commands.rename(choice=_("direction"))
    @app_commands.describe(choice=_("A home port to leave from, or a direction"))
    @app_commands.autocomplete(choice=sail_choices)
    async def sail(self, interaction: discord.Interaction, choice: str) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("bonus"), description=_("Choose a bonus letter (or the Crew box a wreck turns)"))
    @app_commands.rename(choice=_("bonus"))
    @app_commands.describe(choice=_("A bonus A to F not used yet"))
    @app_commands.autocomplete(choice=bonus_choices)
    async def bonus(self, interaction: discord.Interaction, choice: str) -> None:
        await self.typed(interaction, choice)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)


def panel_message(table: Table, seat: int, locale: str) -> tuple[str, discord.ui.View | None]:
    """The mover's current question and its answers."""
    game = engine_of(table)
    options = table_choices(table, seat, locale)
    text = panel_text(game, table.state, seat, seat_names(table), locale, options)
    return text[:2000], panel_view(options, table.version, locale)


_ANSWERS: OrderedDict[tuple[int, int, int, str], list[Choice]] = OrderedDict()


def table_choices(table: Table, seat: int, locale: str) -> list[Choice]:
    """The panel's answers at the table's version (:func:`panel_choices`), worked out once: the panel shows
    them, then the click reads the one it names."""
    key = (table.record.id, table.version, seat, locale)
    found = _ANSWERS.get(key)
    if found is None:
        found = _ANSWERS[key] = panel_choices(engine_of(table), table.state, seat, locale)
        while len(_ANSWERS) > 64:
            _ANSWERS.popitem(last=False)
    return found


def board_answers(table: Table) -> list[Choice]:
    """The answers a board post offers the player to move (a select menu holds 25): the panel's, in the
    table's language (a click reads its index in the clicker's: the order is the same in every language)."""
    state = table.state
    to_act = table.game.to_act(state) if state is not None and not table.game.is_over(state) else []
    if len(to_act) != 1 or table.seats[to_act[0]].is_ai:
        return []
    options = table_choices(table, to_act[0], public_locale(table, "en"))
    return options if len(options) <= 25 else []


def engine_of(table: Table) -> DeoleGame:
    """The table's engine, known to be Déole's here (the bot holds every game as ``AnyGame``)."""
    game = table.game
    assert isinstance(game, DeoleGame)
    return game


def deole_error(locale: str, error: Exception) -> str:
    """``error_text`` with the engine's step names in words."""
    if isinstance(error, IllegalAction) and error.code == "wrong_step":
        params = dict(error.params, step=tr(locale, f"step.{error.params.get('step')}"))
        error = IllegalAction(error.code, **params)
    return error_text(locale, error, KEY)[:2000]  # Discord's limit on a message


async def setup(bot: Any) -> None:
    cog = DeoleCog(bot)
    await bot.add_cog(cog)
    bot.get_cog("GameCog").add_panel(KEY, cog.panel)
    bot.add_view(TurnView())
    bot.add_dynamic_items(ChoiceButton, ChoiceSelect)

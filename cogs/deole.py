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
from dataclasses import dataclass
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.i18n import t
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
    seat_label,
    seat_labels,
    seat_names,
    where,
)
from games.core import IllegalAction
from games.deole import data as D
from games.deole.engine import DeoleGame, DeoleState, DisasterOutlook
from rendering.deole import render_sheets

KEY = "deole"
TURN_ID = "pbc:deole:turn"
BUTTON_LIMIT = 20  # more choices than this go into a select menu (4 rows of 5 buttons)
BUTTON_LABEL_LIMIT = 80  # Discord's limit on a button's label; a longer answer goes into a select menu
# Event parameters shown as words of the catalog: parameter name -> catalog prefix.
WORD_PARAMS = {"colour": "colour", "disaster_colour": "colour", "track": "track", "mode": "mode",
               "direction": "dir", "symbol": "symbol"}


def tr(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"{KEY}.{key}", **params)


@dataclass(frozen=True)
class Choice:
    """One answer in the panel: the notations it commits together, its label, and how many of the pick's
    decisions it answers (more than one: an answer that plays several steps at once)."""

    notations: tuple[str, ...]
    label: str
    steps: int = 1


# -- choices --------------------------------------------------------------------------------------
def choices(game: DeoleGame, state: DeoleState, seat: int, locale: str) -> list[Choice]:
    """The mover's answers to the current decision, labelled in ``locale``."""
    view = game.view(state, None)
    if view["actor"] != seat:
        return []
    actions = game.legal_actions(state, seat)
    sheet = view["sheets"][seat]
    writes = game.write_choices(state, seat)  # writing a die: one answer per value, rudders included
    if writes:
        out = []
        for value, steps in writes.items():
            rudders = sum(1 for a in steps if a[0] == "rudder")
            label = (tr(locale, "label.write_rudders", value=value, count=rudders) if rudders
                     else tr(locale, "label.write", value=value))
            out.append(Choice(tuple(game.format(a) for a in steps), label))
        return out
    pending = game.pending_disaster(state)
    return [Choice((game.format(a),), action_label(a, sheet, locale, pending if a[0] == "disaster"
                                                   else game.roll_outlook(state, seat, a)))
            for a in actions]


def panel_choices(game: DeoleGame, state: DeoleState, seat: int, locale: str,
                  limit: int = BUTTON_LIMIT) -> list[Choice]:
    """The panel's answers: the current decision's, each followed by the next decision's answers (as
    answers of their own: "blue 5 · Blue track · ODD") while they all still fit in ``limit`` buttons, the
    shallowest and the fewest first. Only steps whose outcome is already known join: a step that rolls or
    draws a die, or ends the pick, is the last of an answer. Every sequence of answers the steps allow is
    still one answer (or a few) away, so no move is lost; a pick takes a click or two instead of five."""
    first = choices(game, state, seat, locale)
    if not first or len(first) > limit:
        return first
    paths = [_Path.start(game, state, seat, choice, locale) for choice in first]
    while True:
        ready = sorted((p.depth, len(p.next), i) for i, p in enumerate(paths) if p.next)
        found = next((i for _depth, fan, i in ready if len(paths) - 1 + fan <= limit), None)
        if found is None:
            return [p.choice() for p in paths]
        paths[found:found + 1] = paths[found].extended(game, seat, locale)


@dataclass
class _Path:
    """An answer of the panel while :func:`panel_choices` makes it: the step answers it plays, the position
    after them (a copy), and the next decision's answers if they may join it."""

    answers: tuple[Choice, ...]
    segments: tuple[str, ...]
    after: DeoleState
    next: list[Choice]

    @classmethod
    def start(cls, game: DeoleGame, state: DeoleState, seat: int, choice: Choice, locale: str) -> _Path:
        return cls._of(game, state, seat, (), (), choice, locale)

    @classmethod
    def _of(cls, game: DeoleGame, before: DeoleState, seat: int, answers: tuple[Choice, ...],
            segments: tuple[str, ...], choice: Choice, locale: str) -> _Path:
        after = game.clone(before)
        for notation in choice.notations:
            game.apply(after, seat, game.parse(notation))
        known = after.rng.getstate() == before.rng.getstate() and after.bag == before.bag  # no die rolled or drawn
        goes_on = known and not game.pick_over(after, seat)
        segment = short_label(game, after, seat, choice, locale)
        return cls((*answers, choice), (*segments, segment), after,
                   choices(game, after, seat, locale) if goes_on else [])

    @property
    def depth(self) -> int:
        return len(self.answers)

    def extended(self, game: DeoleGame, seat: int, locale: str) -> list[_Path]:
        return [self._of(game, self.after, seat, self.answers, self.segments, choice, locale) for choice in self.next]

    def choice(self) -> Choice:
        if len(self.answers) == 1:
            return self.answers[0]
        notations = tuple(n for answer in self.answers for n in answer.notations)
        return Choice(notations, " · ".join(self.segments), len(self.answers))


def short_label(game: DeoleGame, after: DeoleState, seat: int, choice: Choice,
                locale: str) -> str:
    """A step answer as a part of a combined answer's label: short, and saying what the engine settled by
    itself (a track's only fitting mode)."""
    action = game.parse(choice.notations[0])
    kind = action[0]
    if kind in ("die", "take"):
        die = tr(locale, "label.die", colour=tr(locale, f"colour.{action[1]}"), value=action[2])
        track = after.ctx.get("track") if after.actor == seat else None  # the only fitting track, set by the engine
        return f"{die} · {short_track(after, seat, track, locale)}" if track else die
    if kind == "anchor":
        return tr(locale, "short.anchor", colour=tr(locale, f"colour.{action[1]}"), value=action[2])
    if kind == "track":
        return short_track(after, seat, action[1], locale)
    if kind == "mode":
        return tr(locale, f"mode.{action[1]}")
    if kind == "castaway":
        return tr(locale, "short.castaway", track=tr(locale, f"name.{action[1]}"))
    if kind == "bonus":
        return tr(locale, "short.bonus", bonus=action[1])
    return choice.label


def short_track(after: DeoleState, seat: int, track: str, locale: str) -> str:
    """"Blue track · ODD" once the track has its mode (also the only fitting one, set by the engine), else
    "Blue track" (the mode is the next step)."""
    name = tr(locale, f"name.{track}")
    mode = after.sheets[seat]["modes"][track]
    return tr(locale, "label.track", track=name, mode=tr(locale, f"mode.{mode}")) if mode \
        else tr(locale, "label.castaway", track=name)


# The steps of a pick in their order (a bonus die goes through them again), and the step of each notation.
STEP_ORDER = ("die", "track", "mode", "adjust", "port", "move", "flip", "castaway", "bonus", "colour", "take",
              "disaster")
KIND_STEPS = {"die": "die", "anchor": "die", "track": "track", "mode": "mode", "place": "adjust",
              "rudder": "adjust", "value": "adjust", "port": "port", "move": "move", "flip": "flip",
              "castaway": "castaway", "bonus": "bonus", "colour": "colour", "take": "take", "disaster": "disaster",
              "help": "disaster"}
HINT_VALUE = "?"  # the value of a suggestion that only explains: sent, it shows the current question


def step_hint(game: DeoleGame, state: DeoleState, kinds: tuple[str, ...], locale: str) -> str:
    """Why a command's step has no answers now: done already (by the player, or by the engine when it had
    one answer), not come yet, or not this step, with the step the pick is at."""
    phase = game.view(state, None)["phase"]
    asked = [STEP_ORDER.index(KIND_STEPS[k]) for k in kinds if k in KIND_STEPS]
    now = STEP_ORDER.index(phase) if phase in STEP_ORDER else None
    # A command's first step (the die for /deole die, the track for /deole track) says which it is.
    key = ("hint.not_now" if now is None or not asked else "hint.done" if min(asked) < now
           else "hint.later" if min(asked) > now else "hint.not_now")
    return tr(locale, key, step=tr(locale, f"step.{phase}"))


def hint_choice(text: str) -> app_commands.Choice[str]:
    """A single suggestion that explains an empty list (Discord shows no text of its own)."""
    return app_commands.Choice(name=text[:100], value=HINT_VALUE)


def outlook_text(outlook: DisasterOutlook, locale: str) -> str:
    """Where a Disaster would go, in words: "Disaster blue 4 → Blue box 7 or Crew box 6"."""
    params = {"colour": tr(locale, f"colour.{outlook.colour}"), "value": outlook.value}
    if outlook.ignored:
        return tr(locale, "outlook.ignored", **params)
    if outlook.boxes:
        places = tr(locale, "outlook.or").join(tr(locale, "outlook.box", track=tr(locale, f"name.{track}"), box=box)
                                               for track, box in outlook.boxes)
        return tr(locale, "outlook.to", places=places, **params)
    return tr(locale, "outlook.help" if outlook.helping_hands else "outlook.shipwreck", **params)


def action_label(action: tuple, sheet: dict[str, Any], locale: str, outlook: DisasterOutlook | None = None) -> str:
    kind = action[0]
    if kind == "die" and outlook is not None:  # solo: the other die becomes the Disaster
        return tr(locale, "label.die_solo", colour=tr(locale, f"colour.{action[1]}"), value=action[2],
                  disaster=outlook_text(outlook, locale))
    if kind in ("die", "take"):
        return tr(locale, "label.die", colour=tr(locale, f"colour.{action[1]}"), value=action[2])
    if kind == "anchor":
        disaster = outlook_text(outlook, locale) if outlook is not None else ""
        return tr(locale, "label.anchor", colour=tr(locale, f"colour.{action[1]}"), value=action[2],
                  disaster=disaster)
    if kind == "track":
        mode = sheet["modes"][action[1]]
        name = tr(locale, f"name.{action[1]}")
        if mode:
            return tr(locale, "label.track", track=name, mode=tr(locale, f"mode.{mode}"))
        return tr(locale, "label.track_new", track=name)
    if kind == "mode":
        return f"{tr(locale, f'mode.{action[1]}')}: {tr(locale, f'rule.{action[1]}')}"
    if kind == "value":
        return tr(locale, "label.write", value=action[1])
    if kind == "port":
        return tr(locale, "label.port", port=action[1])
    if kind == "move":
        return tr(locale, "label.move", direction=tr(locale, f"dir.{action[1]}"))
    if kind == "flip":
        return tr(locale, "label.flip", box=action[1])
    if kind == "disaster":
        box = dict(outlook.boxes).get(action[1], "?") if outlook is not None else "?"
        if action[1] == D.CREW:
            return tr(locale, "label.disaster_crew", box=box)
        return tr(locale, "label.disaster_wind", track=tr(locale, f"name.{action[1]}"), box=box,
                  edge=tr(locale, f"edge.{action[1]}"))
    if kind == "castaway":
        return tr(locale, "label.castaway", track=tr(locale, f"name.{action[1]}"))
    if kind == "colour":
        return tr(locale, f"colour.{action[1]}")
    if kind == "bonus":
        return f"{action[1]}: {tr(locale, f'bonus.{action[1]}')}"
    if kind == "help":
        return tr(locale, "label.help")
    return " ".join(str(p) for p in action)


def prompt(game: DeoleGame, state: DeoleState, seat: int, names: list[str], locale: str) -> str:
    """What the panel says: the round, the dice still on the track, the die in hand, in solo what becomes of
    the Disaster, and the question."""
    view = game.view(state, None)
    if view["over"]:
        return t(locale, "game.over")
    if view["actor"] != seat:
        return tr(locale, "panel.done")
    lines = [tr(locale, "panel.header", round=view["round"], turn=view["turn"], player=names[seat])]
    if view["pool"]:
        lines.append(tr(locale, "panel.pool", dice=dice_text(view["pool"], locale)))
    current = view["current"]
    if current["die"]:
        colour, value = current["die"]
        die = tr(locale, "label.die", colour=tr(locale, f"colour.{colour}"), value=value if value else "?")
        if current["track"]:
            lines.append(tr(locale, "panel.in_hand_track", die=die, track=tr(locale, f"name.{current['track']}")))
        else:
            lines.append(tr(locale, "panel.in_hand", die=die))
    if current["bonus_pending"]:
        lines.append(tr(locale, "panel.bonus_pending", count=current["bonus_pending"]))
    sheet = view["sheets"][seat]
    rudders = ", ".join(f"{tr(locale, f'name.{k}')} {v}" for k, v in sheet["rudders"].items() if v)
    if rudders:
        lines.append(tr(locale, "panel.rudders", rudders=rudders))
    if view["solo"]:
        lines.extend(solo_lines(game, state, seat, view, locale))
    question = tr(locale, f"prompt.{view['phase']}")
    lines.append(f"**{question}**")
    return "\n".join(lines)


def solo_lines(game: DeoleGame, state: DeoleState, seat: int, view: dict[str, Any], locale: str) -> list[str]:
    """Solo: the helping hands and storms, and before a die is chosen, which die becomes the Disaster and where
    it would go for each answer; afterwards, the Disaster still to place."""
    lines = []
    sheet = view["sheets"][seat]
    if sheet["helping_hands"]:
        lines.append(tr(locale, "panel.helping_hands", count=sheet["helping_hands"]))
    storms = [tr(locale, "panel.storm", rows=rows, edge=tr(locale, f"edge.{colour}"))
              for colour, rows in view["storms"].items() if rows]
    if storms:
        lines.append(tr(locale, "panel.storms", storms=", ".join(storms)))
    if view["phase"] == "die":
        outlooks = [(a, game.roll_outlook(state, seat, a)) for a in game.legal_actions(state, seat)]
        if any(o is not None for _, o in outlooks):
            lines.append(tr(locale, "panel.solo_rule"))
            lines.extend(tr(locale, "panel.solo_if", choice=action_label(a, sheet, locale, o))
                         for a, o in outlooks if o is not None)
    elif (pending := game.pending_disaster(state)) is not None:
        key = "panel.disaster_now" if view["phase"] == "disaster" else "panel.disaster_pending"
        lines.append(tr(locale, key, disaster=outlook_text(pending, locale)))
    return lines


def dice_text(dice: list[list[Any]], locale: str) -> str:
    return ", ".join(f"{tr(locale, f'colour.{c}')} {v}" for c, v in dice)


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
        return [line for _seat, event in outcome.events if (line := event_line(event, names, locale))]

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        return [final_embed(table, locale)]

    def extra_images(self, view: dict[str, Any], locale: str, names: list[str]) -> list[tuple[str, bytes]]:
        return [("sheets.png", render_sheets(view, locale, names=names))]


    def error_text(self, locale: str, error: Exception) -> str | None:
        return deole_error(locale, error)  # /game move's refusals name the step in words too

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """The mover gets the next question, with its buttons."""
        text, view = panel_message(table, outcome.moves[0][0], locale_of(interaction))
        await answer(interaction, text, view=view)  # /game move acknowledged the command already

def event_line(event: Any, names: list[str], locale: str) -> str | None:
    if event.code == "final_score":
        return None  # the final embed has the breakdown
    params: dict[str, Any] = {}
    for key, value in event.params.items():
        if key in WORD_PARAMS and isinstance(value, str):
            prefix = "edge" if event.code == "storm" else WORD_PARAMS[key]
            value = tr(locale, f"{prefix}.{value}")
        elif key == "dice":
            value = " ".join(tr(locale, f"colour.{w}") if w in D.WIND_COLOURS else w for w in str(value).split())
        params[key] = seat_label(names, key, value)
    text = tr(locale, f"event.{event.code}", **params)
    return None if text == f"{KEY}.event.{event.code}" else text


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

    def _table(self, channel_id: int | None) -> Table:
        table = self.service.tables.get(channel_id)
        if table is None or table.game.key != KEY:
            raise TableError("no_table")
        if table.state is None:
            raise TableError("not_started")
        return table

    def _mover(self, interaction: discord.Interaction) -> tuple[Table, int]:
        """The table and the caller's seat, if it is the caller's move; else a refusal."""
        table = self._table(interaction.channel_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        if seat.position not in table.game.to_act(table.state):
            raise TableError("not_your_turn")
        return table, seat.position

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
    text = prompt(game, table.state, seat, seat_names(table), locale)
    if any(c.steps > 1 for c in options):
        text = f"{text}\n{tr(locale, 'panel.combined')}"
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

"""One panel for every game: a persistent "Take turn" button under each board (with the turn's first
answers in a select menu when the game offers them there), and a private panel that shows the turn's current
``Step`` (presentation/core.py) as buttons or select menus, pages what does not fit, offers Undo inside the
turn, draws the step's picture, and commits the ``Done`` notations in one ``act`` at the table version the
panel was shown at. A game committed step by step is asked for its next step after each commit, in the same
panel message.

Nothing of any game is in here. The panel keeps its state in its components' custom ids,
``pbc:panel:<op>:<version>:<page>:<chosen>`` (``chosen``: the keys answered so far, joined by ``.``), read
back by dynamic items, so it survives a restart; a click at another version than the table's, or a key the
game's ``flow`` never offered at that step, is refused privately ("out of date") and changes nothing.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any, cast

import discord
from discord.ext import commands

from bot.discord_calls import deliver
from bot.i18n import t
from bot.tables import MoveOutcome, Table, TableError
from cogs.board import GamePanel, board_note, posted_board
from cogs.common import (
    REPLY_RETRY_DELAYS,
    ack,
    ack_privately,
    answer,
    as_files,
    detached,
    error_text,
    locale_of,
    seat_labels,
    seat_names,
)
from games.core import IllegalAction
from presentation.core import KEY_RE, Choice, Done, Presentation, Step, presentation_of, walk

TURN_ID = "pbc:panel:turn"
BUTTONS = 20  # choices shown as buttons (4 rows of 5); more go into select menus
OPTIONS = 25  # options of one select menu (Discord's limit)
BOARD_MENUS = 2  # select menus of first answers under a board post (more: Take turn opens them all)
ROWS = 4  # rows for choices; the last of Discord's five holds Undo, paging and the pinned choices
CHOSEN = r"(?P<chosen>[a-z0-9_.-]{0,64})"
BUTTON_TEMPLATE = rf"pbc:panel:(?P<op>do|undo|page):(?P<version>[0-9]{{1,9}}):(?P<page>[0-9]{{1,3}}):{CHOSEN}"
SELECT_TEMPLATE = rf"pbc:panel:sel:(?P<version>[0-9]{{1,9}}):(?P<page>[0-9]{{1,3}})(?:r[0-9])?:{CHOSEN}"
# Buttons of the games' own panels before they all used this one: Take turn still opens the panel, anything
# else says it is out of date (rather than Discord's "interaction failed").
LEGACY_GAMES = "deole|dewan|maple|trails"  # "|"-joined keys of the games whose own panel this one replaced
LEGACY_TURN = rf"pbc:(?:{LEGACY_GAMES}):turn"
LEGACY_OTHER = rf"pbc:(?:{LEGACY_GAMES}):(?!turn$)[!-~]{{1,90}}"
STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


class Stale(Exception):
    """A click the panel cannot have offered at this version (out of date, or forged)."""


def encode(chosen: tuple[str, ...]) -> str:
    return ".".join(chosen)


def decode(text: str) -> tuple[str, ...]:
    chosen = tuple(text.split(".")) if text else ()
    if any(KEY_RE.fullmatch(key) is None for key in chosen):
        raise Stale
    return chosen


def _button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
            row: int | None = None, disabled: bool = False) -> discord.ui.Button:
    return discord.ui.Button(label=label[:80] or "?", custom_id=custom_id, style=style, row=row, disabled=disabled)


def layout(step: Step) -> tuple[list[Choice], list[list[Choice]]]:
    """The step's choices as shown: those under 20 (with short labels) as buttons, else each group of up to
    five as a row of buttons and the larger groups as select menus of 25 (``(buttons, select menus)``; the
    select menus may be more than a page holds). Pinned choices are left out: they go on the last row."""
    shown = [c for c in step.choices if not c.pinned]
    if len(shown) <= BUTTONS and all(len(c.label) <= 80 for c in shown):
        return shown, []
    groups: dict[str, list[Choice]] = {}
    for choice in shown:
        groups.setdefault(choice.group, []).append(choice)
    buttons = [c for g in groups.values() if len(g) <= 5 and all(len(c.label) <= 80 for c in g) for c in g]
    menus = [g[i:i + OPTIONS] for g in groups.values() if g[0] not in buttons for i in range(0, len(g), OPTIONS)]
    return buttons, menus


def page_count(step: Step) -> int:
    buttons, menus = layout(step)
    per_page = ROWS - (len(buttons) + 4) // 5
    return max(1, (len(menus) + per_page - 1) // per_page) if menus else 1


def step_view(step: Step, chosen: tuple[str, ...], version: int, page: int, locale: str) -> discord.ui.View:
    """A step's components: its choices as buttons and select menus (paged past four rows), and on the last
    row the pinned choices, Previous / More, and Undo (back one step, nothing was committed) when allowed."""
    view = discord.ui.View(timeout=None)  # clicks are routed by custom id; this object only carries components
    buttons, menus = layout(step)
    for index, choice in enumerate(buttons):
        view.add_item(_button(choice.label, f"pbc:panel:do:{version}:0:{encode((*chosen, choice.key))}",
                              STYLES[choice.style], row=index // 5))
    first_row = (len(buttons) + 4) // 5
    pages = page_count(step)
    page = min(page, pages - 1)
    per_page = ROWS - first_row
    placeholders = dict(step.placeholders)
    for row, options in enumerate(menus[page * per_page:(page + 1) * per_page], start=first_row):
        text = placeholders.get(options[0].group) or step.placeholder or t(locale, "panel.more")
        view.add_item(discord.ui.Select(
            custom_id=f"pbc:panel:sel:{version}:{page}r{row}:{encode(chosen)}", row=row, placeholder=text[:150],
            options=[discord.SelectOption(label=c.label[:100] or "?", value=c.key,
                                          description=(c.description or "")[:100] or None) for c in options]))
    last_row = [_button(c.label, f"pbc:panel:do:{version}:{page}:{encode((*chosen, c.key))}", STYLES[c.style])
                for c in step.choices if c.pinned]
    if pages > 1:
        # Each page button names the page it shows; a disabled one takes another id (ids must differ).
        last_row += [_button(t(locale, "panel.prev"), f"pbc:panel:page:{version}:{page - 1 if page else pages}:"
                             f"{encode(chosen)}", disabled=page == 0),
                     _button(t(locale, "panel.next"), f"pbc:panel:page:{version}:{page + 1}:{encode(chosen)}",
                             disabled=page == pages - 1)]
    if step.can_undo and chosen:
        last_row.append(_button(t(locale, "panel.undo"), f"pbc:panel:undo:{version}:0:{encode(chosen[:-1])}",
                                discord.ButtonStyle.danger))
    for button in last_row[:5]:
        button.row = 4
        view.add_item(button)
    return view


def step_text(step: Step, page: int, locale: str) -> str:
    pages = page_count(step)
    if pages > 1:
        return f"{step.prompt}\n{t(locale, 'panel.page', page=min(page, pages - 1) + 1, pages=pages)}"
    return step.prompt


class TurnView(discord.ui.View):
    """The persistent "Take turn" button under each board of a game played with the panel."""

    def __init__(self, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.take_turn.label = t(locale, "panel.turn")

    @discord.ui.button(label="Take turn", style=discord.ButtonStyle.primary, custom_id=TURN_ID)
    async def take_turn(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        if (panel := await panel_or_stale(interaction)) is None:
            return
        await panel.open(interaction)


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button, op: str, version: int, page: int, chosen: str) -> None:
        super().__init__(button)
        self.op, self.version, self.page, self.chosen = op, version, page, chosen

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelButton:
        return cls(cast(discord.ui.Button, item), match["op"], int(match["version"]), int(match["page"]),
                   match["chosen"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if (panel := await panel_or_stale(interaction)) is None:
            return
        await panel.handle(interaction, self.version, self.page, self.chosen, None, self.op)


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, select: discord.ui.Select, version: int, page: int, chosen: str) -> None:
        super().__init__(select)
        self.version, self.page, self.chosen = version, page, chosen

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PanelSelect:
        return cls(cast(discord.ui.Select, item), int(match["version"]), int(match["page"]), match["chosen"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values")
        value = values[0] if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str) else "?"
        if (panel := await panel_or_stale(interaction)) is None:
            return
        await panel.handle(interaction, self.version, self.page, self.chosen, value, "sel")


class LegacyTurn(discord.ui.DynamicItem[discord.ui.Button], template=LEGACY_TURN):
    """A Take turn button of a board posted before every game used this panel: it opens the panel."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LegacyTurn:
        return cls(cast(discord.ui.Button, item))

    async def callback(self, interaction: discord.Interaction) -> None:
        if (panel := await panel_or_stale(interaction)) is None:
            return
        await panel.open(interaction)


class LegacyOther(discord.ui.DynamicItem[discord.ui.Button], template=LEGACY_OTHER):
    """Any other component of the games' former panels: out of date, nothing is played."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LegacyOther:
        return cls(cast(discord.ui.Button, item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await stale(interaction)


DYNAMIC_ITEMS = (PanelButton, PanelSelect, LegacyTurn, LegacyOther)


def panel_of(interaction: discord.Interaction) -> GenericPanel | None:
    """The panel of the channel's table (every game with a presentation module); ``None`` if it has none."""
    game_cog: Any = cast(commands.Bot, interaction.client).get_cog("GameCog")
    table = game_cog.service.tables.get(interaction.channel_id)
    panel = game_cog.panels.get(table.game.key) if table is not None else next(
        (p for p in game_cog.panels.values() if isinstance(p, GenericPanel)), None)
    return panel if isinstance(panel, GenericPanel) else None


async def panel_or_stale(interaction: discord.Interaction) -> GenericPanel | None:
    """The channel's panel; ``None`` once the click was answered as out of date (no table, or a forged id)."""
    panel = panel_of(interaction)
    if panel is None:
        await stale(interaction)
    return panel


async def stale(interaction: discord.Interaction) -> None:
    await ack(interaction)
    await answer(interaction, t(locale_of(interaction), "panel.stale"))


def on_private_panel(interaction: discord.Interaction) -> bool:
    """Whether the interaction is a click on a private panel message (edited in place); a click under a
    board post, or a command, is answered with a private message of its own."""
    if interaction.type != discord.InteractionType.component or interaction.message is None:
        return False
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    return custom_id.startswith("pbc:panel:") and custom_id != TURN_ID and interaction.message.flags.ephemeral


class GenericPanel(GamePanel):
    """The board hooks and the private panel of every game with a presentation module."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.before: dict[int, tuple[int, Any]] = {}  # table id -> (version, JSON) a commit of steps starts from

    # -- GamePanel hooks -------------------------------------------------------------------------------
    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        """Take turn, and the turn's first answers when the game offers them on the board (one click saved)."""
        view = TurnView(locale)
        state, game = table.state, table.game
        presentation = presentation_of(game.key)
        if presentation is None or state is None or game.is_over(state):
            return view
        to_act = game.to_act(state)
        if len(to_act) != 1 or table.seats[to_act[0]].is_ai:
            return view
        step = presentation.flow(state, to_act[0], (), locale)
        if not isinstance(step, Step) or not step.on_board:
            return view
        choices = [c for c in step.choices if not c.pinned]
        if 0 < len(choices) <= BOARD_MENUS * OPTIONS:
            name = seat_names(table)[to_act[0]]
            placeholder = t(locale, "panel.board_pick", player=name, what=step.placeholder or step.prompt)[:150]
            for row, start in enumerate(range(0, len(choices), OPTIONS), start=1):
                view.add_item(discord.ui.Select(
                    custom_id=f"pbc:panel:sel:{table.version}:0r{row}:", row=row, placeholder=placeholder,
                    options=[discord.SelectOption(label=c.label[:100] or "?", value=c.key,
                                                  description=(c.description or "")[:100] or None)
                             for c in choices[start:start + OPTIONS]]))
        return view

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        presentation = presentation_of(table.game.key)
        narrate_at = getattr(presentation, "narrate_at", None)
        if narrate_at is not None:
            return narrate_at(table.state, outcome.events, names, locale)
        narrate = getattr(presentation, "narrate", None)
        return narrate(outcome.events, names, locale) if narrate is not None else None

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        presentation = presentation_of(table.game.key)
        final, final_at = getattr(presentation, "final", None), getattr(presentation, "final_at", None)
        if final is None and final_at is None:
            return []
        names = seat_labels(table, locale)
        if final_at is not None:  # reads the position too
            breakdown = final_at(table.state, names, locale)
        else:
            assert final is not None
            breakdown = final(table.game.result(table.state), names, locale)
        embed = discord.Embed(title=breakdown.title[:256], colour=discord.Colour.gold(),
                              description=breakdown.description)
        for name, value in breakdown.fields[:25]:
            embed.add_field(name=name[:256], value=value[:1024], inline=breakdown.inline)
        if breakdown.footer:
            embed.set_footer(text=breakdown.footer[:2048])
        return [embed]

    def error_text(self, locale: str, error: Exception, key: str | None = None) -> str | None:
        """A refusal in the game's words (its ``reword``: e.g. a step named in words), by the catalogs."""
        reword = getattr(presentation_of(key), "reword", None) if key is not None else None
        if reword is None or not isinstance(error, IllegalAction):
            return None
        return error_text(locale, reword(error, locale), key)

    def holds_steps(self, key: str) -> bool:
        return bool(getattr(presentation_of(key), "TELLS_STEPS", False))

    def held(self, table: Table, outcome: MoveOutcome) -> list[tuple[int, Any]]:
        """What a step's commit leaves for the turn's board: its events, shaped by the game's ``held``."""
        shape = getattr(presentation_of(table.game.key), "held", None)
        saved = self.before.pop(table.record.id, None)
        if shape is None:
            return list(outcome.events)
        before = saved[1] if saved and saved[0] + len(outcome.moves) == table.version else None
        return shape(outcome.moves, outcome.events, before)

    def starts_commit(self, table: Table) -> None:
        """A commit (a click, or a game's typed command) is about to play several steps: the position it starts
        from is kept for the game's ``held``, which tells them one by one."""
        if getattr(presentation_of(table.game.key), "held", None) is not None and table.state is not None:
            self.before[table.record.id] = (table.version, table.game.to_json(table.state))

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """A step of a turn played step by step (a panel click, ``/game move``, a typed command): the next
        question, in the panel's own message after a click on it, else privately."""
        await self.show_current(interaction, table, outcome.moves[0][0], edit=on_private_panel(interaction))

    # -- the position ----------------------------------------------------------------------------------
    def mover(self, interaction: discord.Interaction) -> tuple[Table, int, Presentation]:
        """The caller's running table where it is their turn, and its game's presentation; a ``TableError``
        saying why not."""
        table, position = self.service.mover(interaction.channel_id, interaction.user.id)
        presentation = presentation_of(table.game.key)
        if presentation is None:
            raise TableError("no_table")
        return table, position, presentation

    # -- clicks ----------------------------------------------------------------------------------------
    async def open(self, interaction: discord.Interaction) -> None:
        """The Take turn button (or ``/game turn``): the turn's first step at the current version, privately."""
        locale = locale_of(interaction)
        await ack_privately(interaction)
        try:
            table, seat, _presentation = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await self.show_current(interaction, table, seat, edit=False)

    def suggestions(self, interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
        """``/game choose``'s suggestions: the current step's answers (label, key) that match what was typed;
        none when it is not the caller's turn."""
        try:
            table, seat, presentation = self.mover(interaction)
        except TableError:
            return []
        step = presentation.flow(table.state, seat, (), locale_of(interaction))
        wanted = current.lower().strip()
        return [(c.label, c.key) for c in (step.choices if isinstance(step, Step) else ())
                if not wanted or wanted in c.label.lower() or wanted == c.key][:25]

    async def choose(self, interaction: discord.Interaction, key: str) -> None:
        """``/game choose``: an answer of the turn's current step, typed; the rest of the turn in the panel
        that follows (privately), or the turn played when the answer completes it."""
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            table, seat, presentation = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        try:
            at = walk(presentation, table.state, seat, (key.strip(),), locale) if KEY_RE.fullmatch(key.strip()) else None
        except (ValueError, IndexError, KeyError, IllegalAction):
            at = None
        if at is None:
            return await answer(interaction, t(locale, "panel.not_a_choice"))
        if isinstance(at, Step):
            return await self.show_step(interaction, table, at, (key.strip(),), table.version, 0, edit=False)
        await self.commit(interaction, table, seat, at, table.version, edit=False)

    async def undo(self, interaction: discord.Interaction) -> None:
        """``/game undo``: the turn's last committed step taken back (a game played step by step: its panel's
        pinned Undo); nothing committed yet in this turn: said so."""
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            table, seat, presentation = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        step = presentation.flow(table.state, seat, (), locale)
        undo = next((c for c in (step.choices if isinstance(step, Step) else ())
                     if c.pinned and c.notations and set(c.notations) == {"undo"}), None)
        if undo is None:
            return await answer(interaction, t(locale, "panel.nothing_to_undo"))
        await self.game_cog.play(interaction, list(undo.notations), table.version)

    async def show_current(self, interaction: discord.Interaction, table: Table, seat: int, edit: bool,
                           note: str | None = None) -> None:
        """The turn's current step (``flow`` from nothing chosen) at the table's version."""
        locale = locale_of(interaction)
        presentation = presentation_of(table.game.key)
        assert presentation is not None and table.state is not None
        step = presentation.flow(table.state, seat, (), locale)
        if isinstance(step, Done):  # nothing to ask: the turn has a single way to be played
            step = Step(step.summary, ())
        await self.show_step(interaction, table, step, (), table.version, 0, edit, note)

    async def show_step(self, interaction: discord.Interaction, table: Table, step: Step, chosen: tuple[str, ...],
                        version: int, page: int, edit: bool, note: str | None = None) -> None:
        locale = locale_of(interaction)
        text = step_text(step, page, locale)
        view = step_view(step, chosen, version, page, locale) if step.choices else None
        if note:
            text = f"{note}\n\n{text}"
        picture = None
        if step.picture is not None:
            draw, names = step.picture, seat_names(table)
            picture = await asyncio.to_thread(draw, names)
        await self.show(interaction, text, view, edit, [("preview.png", picture)] if picture else [])

    async def handle(self, interaction: discord.Interaction, version: int, page: int, chosen_text: str,
                     picked: str | None, op: str = "do") -> None:
        """A click on the panel (or a board's select): the next step (or another page, or one step back), or
        the commit; what the panel did not offer at the table's current version is refused privately and
        changes nothing."""
        locale = locale_of(interaction)
        edit = on_private_panel(interaction)
        await (ack(interaction) if edit else ack_privately(interaction))
        table = self.service.tables.get(interaction.channel_id)
        if table is None or table.version != version:  # moved on, or over (a finished table is let go)
            return await answer(interaction, t(locale, "panel.stale"))
        try:
            table, seat, presentation = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        try:  # everything is read from the position before the next await
            chosen = decode(chosen_text)
            if picked is not None:
                if KEY_RE.fullmatch(picked) is None:
                    raise Stale
                chosen = (*chosen, picked)
            at = walk(presentation, table.state, seat, chosen, locale)
            if at is None:
                raise Stale
        except (Stale, ValueError, IndexError, KeyError, IllegalAction):
            return await answer(interaction, t(locale, "panel.stale"))
        except Exception as error:  # a bug: told with an id, nothing was played
            return await answer(interaction, error_text(locale, error))
        if isinstance(at, Step):
            return await self.show_step(interaction, table, at, chosen, version, page if op == "page" else 0, edit)
        await self.commit(interaction, table, seat, at, version, edit)

    async def commit(self, interaction: discord.Interaction, table: Table, seat: int, done: Done, version: int,
                     edit: bool) -> None:
        """A chosen ``Done``: its notations played in one ``act`` at ``version``; the turn's end told."""
        self.starts_commit(table)
        interaction.extras["panel"] = True  # the panel answers once the board is posted (``after_turn``)
        outcome = await self.game_cog.play(interaction, list(done.notations), version)
        if outcome is not None and outcome.announce:  # the turn's board was posted (or will be)
            await self.after_turn(interaction, outcome, seat, done.summary, edit)

    async def after_turn(self, interaction: discord.Interaction, outcome: MoveOutcome, seat: int, summary: str,
                         edit: bool) -> None:
        """The turn is over and its board posted (or to follow): the panel says so with the board's link; a
        player who moves again at once (solo) reads their next question under it."""
        locale = locale_of(interaction)
        board = posted_board(interaction)
        if not outcome.finished and seat in outcome.next_seats:
            note = board_note(locale, board, lambda link: t(locale, "panel.posted", link=link))
            return await self.show_current(interaction, outcome.table, seat, edit, note=note)
        note = board_note(locale, board, lambda link: t(locale, "panel.played", link=link))
        await self.show(interaction, f"{summary}\n{note}" if summary else note, None, edit, [])

    async def show(self, interaction: discord.Interaction, text: str, view: discord.ui.View | None,
                   edit: bool, images: Sequence[tuple[str, bytes]] = ()) -> None:
        """A panel screen: the panel message edited (``edit``; its old picture replaced), or a new private
        message."""
        view = detached(view) if view is not None else None
        if not edit:
            return await answer(interaction, text, view=view, images=list(images))
        await deliver(lambda: interaction.edit_original_response(content=text[:2000], view=view,
                                                                 attachments=as_files(list(images))),
                      "a panel", REPLY_RETRY_DELAYS)

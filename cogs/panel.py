"""One panel for every game with a presentation module (presentation/core.py) and no cog of its own: a
persistent "Take turn" button under each board, and a private panel that shows the turn's current ``Step``
as buttons (up to 20) or a select menu (25 options a page, Previous / More past that), Undo inside the turn,
and commits the ``Done`` notations in one ``act`` at the table version the panel was shown at.

Nothing of the game is in here. The panel keeps its state in its components' custom ids,
``pbc:panel:<op>:<version>:<page>:<chosen>`` (``chosen``: the keys answered so far, joined by ``.``), read
back by dynamic items, so it survives a restart; a click at another version than the table's, or a key the
game's ``flow`` never offered at that step, is refused privately ("out of date") and changes nothing.
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord
from discord.ext import commands

from bot.discord_calls import deliver
from bot.i18n import t
from bot.tables import MoveOutcome, Table, TableError
from cogs.board import GamePanel, board_note, posted_board
from cogs.common import REPLY_RETRY_DELAYS, ack, answer, detached, error_text, locale_of
from games.core import IllegalAction
from presentation.core import KEY_RE, Done, Presentation, Step, presentation_of, walk

TURN_ID = "pbc:panel:turn"
BUTTONS = 20  # choices shown as buttons (4 rows of 5); more go into a select menu, paged
OPTIONS = 25  # options of one select menu (Discord's limit)
CHOSEN = r"(?P<chosen>[a-z0-9_.-]{0,64})"
BUTTON_TEMPLATE = rf"pbc:panel:(?P<op>do|undo|page):(?P<version>[0-9]{{1,9}}):(?P<page>[0-9]{{1,3}}):{CHOSEN}"
SELECT_TEMPLATE = rf"pbc:panel:sel:(?P<version>[0-9]{{1,9}}):(?P<page>[0-9]{{1,3}}):{CHOSEN}"
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
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row, disabled=disabled)


def step_view(step: Step, chosen: tuple[str, ...], version: int, page: int, locale: str) -> discord.ui.View:
    """A step's components: its choices as buttons, or a page of a select menu with Previous / More; Undo
    (back one step, nothing was committed) on the last row when the step allows it."""
    view = discord.ui.View(timeout=None)  # clicks are routed by custom id; this object only carries components
    choices = step.choices
    last_row: list[discord.ui.Button] = []
    if len(choices) <= BUTTONS:
        for index, choice in enumerate(choices):
            view.add_item(_button(choice.label, f"pbc:panel:do:{version}:0:{encode((*chosen, choice.key))}",
                                  STYLES[choice.style], row=index // 5))
    else:
        pages = (len(choices) + OPTIONS - 1) // OPTIONS
        page = min(page, pages - 1)
        shown = choices[page * OPTIONS:(page + 1) * OPTIONS]
        view.add_item(discord.ui.Select(
            custom_id=f"pbc:panel:sel:{version}:{page}:{encode(chosen)}", row=0,
            placeholder=(step.placeholder or t(locale, "panel.more"))[:150],
            options=[discord.SelectOption(label=c.label[:100], value=c.key,
                                          description=(c.description or "")[:100] or None) for c in shown]))
        if pages > 1:
            last_row += [_button(t(locale, "panel.prev"), f"pbc:panel:page:{version}:{max(page - 1, 0)}:{encode(chosen)}",
                                 disabled=page == 0),
                         _button(t(locale, "panel.next"),
                                 f"pbc:panel:page:{version}:{min(page + 1, pages - 1)}:{encode(chosen)}",
                                 disabled=page == pages - 1)]
            if page == pages - 1:  # both would say "page:<last>": the disabled one takes another id
                last_row[1].custom_id = f"pbc:panel:page:{version}:{page + 1}:{encode(chosen)}"
            elif page == 0:
                last_row[0].custom_id = f"pbc:panel:page:{version}:{pages}:{encode(chosen)}"
    if step.can_undo and chosen:
        last_row.append(_button(t(locale, "panel.undo"), f"pbc:panel:undo:{version}:0:{encode(chosen[:-1])}",
                                discord.ButtonStyle.danger))
    for button in last_row:
        button.row = 4
        view.add_item(button)
    return view


def step_text(step: Step, page: int, locale: str) -> str:
    pages = (len(step.choices) + OPTIONS - 1) // OPTIONS
    if len(step.choices) > BUTTONS and pages > 1:
        return f"{step.prompt}\n{t(locale, 'panel.page', page=min(page, pages - 1) + 1, pages=pages)}"
    return step.prompt


class TurnView(discord.ui.View):
    """The persistent "Take turn" button under each board of a game played with the generic panel."""

    def __init__(self, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.take_turn.label = t(locale, "panel.turn")

    @discord.ui.button(label="Take turn", style=discord.ButtonStyle.primary, custom_id=TURN_ID)
    async def take_turn(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        panel = panel_of(interaction)
        if panel is None:
            return await stale(interaction)
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
        panel = panel_of(interaction)
        if panel is None:
            return await stale(interaction)
        await panel.handle(interaction, self.version, self.page, self.chosen, None)


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
        panel = panel_of(interaction)
        if panel is None:
            return await stale(interaction)
        await panel.handle(interaction, self.version, self.page, self.chosen, value)


def panel_of(interaction: discord.Interaction) -> GenericPanel | None:
    """The generic panel of the channel's table; ``None`` if its game has a panel of its own (a forged id)."""
    game_cog: Any = cast(commands.Bot, interaction.client).get_cog("GameCog")
    table = game_cog.service.tables.get(interaction.channel_id)
    panel = game_cog.panels.get(table.game.key) if table is not None else next(
        (p for p in game_cog.panels.values() if isinstance(p, GenericPanel)), None)
    return panel if isinstance(panel, GenericPanel) else None


async def stale(interaction: discord.Interaction) -> None:
    await ack(interaction)
    await answer(interaction, t(locale_of(interaction), "panel.stale"))


def from_panel(interaction: discord.Interaction) -> bool:
    """Whether the interaction is a click on a generic panel (its message is the panel to edit)."""
    custom_id = str((interaction.data or {}).get("custom_id", "")) \
        if interaction.type == discord.InteractionType.component else ""
    return custom_id.startswith("pbc:panel:") and custom_id != TURN_ID


class GenericPanel(GamePanel):
    """The board hooks and the private panel of every game with a presentation module and no cog."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    # -- GamePanel hooks -------------------------------------------------------------------------------
    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        return TurnView(locale)

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        presentation = presentation_of(table.game.key)
        narrate = getattr(presentation, "narrate", None)
        return narrate(outcome.events, names, locale) if narrate is not None else None

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """A step of a turn played step by step (``/game move``): the next question, privately."""
        await self.show_current(interaction, table, outcome.moves[0][0], edit=from_panel(interaction))

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
        """The Take turn button: the turn's first step at the current version, privately."""
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            table, seat, _presentation = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error))
        await self.show_current(interaction, table, seat, edit=False)

    async def show_current(self, interaction: discord.Interaction, table: Table, seat: int, edit: bool) -> None:
        locale = locale_of(interaction)
        presentation = presentation_of(table.game.key)
        assert presentation is not None and table.state is not None
        step = presentation.flow(table.state, seat, (), locale)
        if isinstance(step, Done):  # nothing to ask: the turn has a single way to be played
            step = Step(step.summary, ())
        await self.show(interaction, step_text(step, 0, locale), step_view(step, (), table.version, 0, locale), edit)

    async def handle(self, interaction: discord.Interaction, version: int, page: int, chosen_text: str,
                     picked: str | None) -> None:
        """A click on the panel: the next step (or another page, or one step back), or the commit; what
        the panel did not offer at the table's current version is refused privately and changes nothing."""
        locale = locale_of(interaction)
        await ack(interaction)
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
        except (Stale, ValueError, IllegalAction):
            return await answer(interaction, t(locale, "panel.stale"))
        except Exception as error:  # a bug: told with an id, nothing was played
            return await answer(interaction, error_text(locale, error))
        if isinstance(at, Step):
            return await self.show(interaction, step_text(at, page, locale),
                                   step_view(at, chosen, version, page, locale), edit=True)
        outcome = await self.game_cog.play(interaction, list(at.notations), version)
        if outcome is not None and outcome.announce:  # the turn's board was posted (or will be): the panel is done
            note = board_note(locale, posted_board(interaction), lambda link: t(locale, "panel.played", link=link))
            text = f"{at.summary}\n{note}" if at.summary else note
            await self.show(interaction, text, None, edit=True)

    async def show(self, interaction: discord.Interaction, text: str, view: discord.ui.View | None,
                   edit: bool) -> None:
        """A panel screen: the panel message edited (``edit``), or a new private message."""
        view = detached(view) if view is not None else None
        if not edit:
            return await answer(interaction, text, view=view)
        await deliver(lambda: interaction.edit_original_response(content=text[:2000], view=view),
                      "a panel", REPLY_RETRY_DELAYS)

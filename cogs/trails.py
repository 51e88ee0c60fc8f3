"""Trails & Fortresses in Discord: under each board post a "Take turn" button and the legal positions,
each opening an ephemeral panel (position selects, rotation buttons, preview, figure select, Confirm /
Undo; a position picked under the board opens it on that position, so a turn takes two to four clicks),
``/trails`` commands for those who type, scoring told in sentences and a final breakdown.

The panel keeps its whole state in the custom ids of its components (``pbc:trails:<op>:<state>``, see
:class:`PanelState`), read back by dynamic items, so an open panel survives a restart. Nothing is played
until Confirm, which commits place + figure + confirm in one ``act`` at the version the panel was opened
at: a double click or a stale panel gives "already played" and nothing twice.

The commands work step by step on the engine instead (``/trails place`` and ``/trails figure`` commit the
pending step, answered with an ephemeral preview; only ``/trails confirm`` posts the public board), so a
player may type one step now and the next later, as ``/game move`` always allowed.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_calls import deliver
from bot.tables import MoveOutcome, Table, TableError
from cogs.board import GamePanel, board_note
from cogs.common import (
    REPLY_RETRY_DELAYS,
    ack,
    answer,
    error_text,
    locale_of,
    publish,
    report_command_error,
    seat_labels,
    seat_names,
)
from games.core import IllegalAction
from games.trails.actions import Figure, clip, format_action, parse_rotation
from games.trails.engine import figure_options, legal_spots
from games.trails.turn import (
    figure_moves,
    find_spot,
    parse_figure_choice,
    place_moves,
    spot_labels,
    turn_moves,
)
from presentation.trails import (
    KEY,
    Offer,
    PanelState,
    TurnFacts,
    board_offers,
    event_sentences,
    facts_of,
    figure_choices,
    figure_text,
    final_breakdown,
    notations,
    opening_panel,
    page_label,
    panel_lines,
    panel_offers,
    panel_step,
    position_options,
    step_lines,
    tr,
    wrong_step_text,
)
from rendering.trails import geometry, render_preview

TURN_ID = "pbc:trails:turn"


def position_select(spots: list[tuple[str, tuple[int, int]]], offer: Offer, locale: str,
                    chosen: tuple[int, int] | None = None, key: str = "panel.choose_position") -> discord.ui.Select:
    options, placeholder = position_options(spots, offer.state.page, locale, chosen, key)
    return discord.ui.Select(custom_id=offer.custom_id, placeholder=placeholder, row=offer.row, options=[
        discord.SelectOption(label=label, value=value, default=default) for label, value, default in options])


def standings_embed(table: Table, locale: str) -> discord.Embed:
    """Final standings with the breakdown per player."""
    names = seat_labels(table, locale)  # as the standings of the same post name them
    title, fields, footer = final_breakdown(table.game.result(table.state), names,
                                            set(table.state.options["expansions"]), locale)
    embed = discord.Embed(title=title, colour=discord.Colour.gold())
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=True)
    embed.set_footer(text=footer)
    return embed


# -- the panel -------------------------------------------------------------------------------------
class TakeTurnView(discord.ui.View):
    """The persistent button under every board post; the channel identifies the table."""

    def __init__(self, panel: TrailsPanel, locale: str = "en") -> None:
        super().__init__(timeout=None)
        self.panel = panel
        self.take_turn.label = tr(locale, "button.turn")

    @discord.ui.button(label="Take turn", style=discord.ButtonStyle.primary, custom_id=TURN_ID, emoji="🧩")
    async def take_turn(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        await self.panel.open(interaction)


BUTTON_TEMPLATE = r"pbc:trails:(?P<op>page|rot|ok|undo):(?P<state>[-\w.]+)(?::(?P<arg>-?\d+))?"
SELECT_TEMPLATE = r"pbc:trails:(?P<op>pos|fig):(?P<state>[-\w.]+)"


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button, op: str, state: str, arg: str | None) -> None:
        super().__init__(button)
        self.op, self.state, self.arg = op, state, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PanelButton:
        # The template only matches the custom ids of this panel's buttons.
        return cls(cast(discord.ui.Button, item), match["op"], match["state"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel_of(interaction).handle(interaction, self.op, self.state, self.arg, [])


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, select: discord.ui.Select, op: str, state: str) -> None:
        super().__init__(select)
        self.op, self.state = op, state

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PanelSelect:
        # The template only matches the custom ids of this panel's selects.
        return cls(cast(discord.ui.Select, item), match["op"], match["state"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values", [])
        if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
            values = ["?"]  # not what Discord sends: refused as a value the select never offered
        await panel_of(interaction).handle(interaction, self.op, self.state, None, values)



def panel_of(interaction: discord.Interaction) -> TrailsPanel:
    game_cog: Any = cast(commands.Bot, interaction.client).get_cog("GameCog")  # cogs/game.py's GameCog
    return game_cog.panels[KEY]


def _button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
            row: int = 0, disabled: bool = False) -> discord.ui.Button:
    return discord.ui.Button(label=label, custom_id=custom_id, style=style, row=row, disabled=disabled)



class TrailsPanel(GamePanel):
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.warming: asyncio.Task[None] | None = None  # the renderer's warm-up, started at load

    # -- GamePanel hooks ---------------------------------------------------------------------------
    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        """Take turn, and the positions where the tile may go: a pick opens the player's panel on it (a click
        saved on every turn)."""
        view = TakeTurnView(self, locale)
        state = table.state
        if state is None or table.game.is_over(state):
            return view
        labels = spot_labels(legal_spots(state))
        spots = list(labels.items())
        for offer in board_offers(labels, table.version):
            view.add_item(position_select(spots, offer, locale, key="board.place"))
        return view

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        state = table.state
        pending = (state.tile, state.pending[2]) if state.pending is not None and state.tile else None
        return event_sentences(locale, names, outcome.events, pending)

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        return [standings_embed(table, locale)]

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """Answered privately with the preview, as /trails does."""
        head = outcome.moves[-1][1].split()[0]
        key = {"place": "cmd_reply.placed", "undo": "cmd_reply.undone"}.get(head, "cmd_reply.figured")
        await self.bot.get_cog("TrailsCog").step_reply(interaction, table, key)

    def error_text(self, locale: str, error: Exception, key: str | None = None) -> str | None:
        """``wrong_step`` with the step in words."""
        return wrong_step_text(locale, error.code, error.params) if isinstance(error, IllegalAction) else None

    # -- the position at the table's version --------------------------------------------------------
    def facts(self, table: Table) -> TurnFacts:
        """What the engine says of the turn now; the view is the public one (the confirmed board, the turn at
        its place step), on which the preview draws the candidate tile."""
        return facts_of(table.state, table.game.view(table.state, None))

    def _turn_table(self, interaction: discord.Interaction) -> Table:
        """The caller's running Trails table where it is their turn, or a TableError saying why not."""
        return self.service.mover(interaction.channel_id, interaction.user.id, KEY)[0]

    # -- opening and driving the panel --------------------------------------------------------------
    async def open(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            table = self._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        facts = self.facts(table)
        await self.send_panel(interaction, table, facts, opening_panel(facts, table.version), locale)

    async def send_panel(self, interaction: discord.Interaction, table: Table, facts: TurnFacts, panel: PanelState,
                         locale: str) -> None:
        """A new private panel (Take turn, or a position picked on the board post)."""
        figures = self.figures_for(table, panel)  # before any await: the clock may move the game on meanwhile
        await interaction.response.defer(ephemeral=True, thinking=True)
        kwargs = await self.render(table, facts, panel, locale, figures)
        await interaction.followup.send(ephemeral=True, **kwargs)

    async def handle(self, interaction: discord.Interaction, op: str, encoded: str, arg: str | None,
                     values: list[str]) -> None:
        locale = locale_of(interaction)
        try:
            panel = PanelState.decode(encoded)
        except (ValueError, KeyError):
            return await answer(interaction, tr(locale, "panel.stale"))
        current = self.service.tables.get(interaction.channel_id)
        if current is None or current.version != panel.version:  # a move was made since it opened
            return await answer(interaction, tr(locale, "panel.stale"))
        try:
            table = self._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        facts = self.facts(table)
        # A custom id or select value that this panel never offered (a forged one) changes nothing and is
        # answered as a stale panel.
        if not self.offered(table, facts, panel):
            return await answer(interaction, tr(locale, "panel.stale"))
        if op == "ok":
            if arg is not None or values:
                return await answer(interaction, tr(locale, "panel.stale"))
            return await self.confirm(interaction, table, facts, panel, locale)
        panel = self.step(facts, panel, op, arg, values)
        if panel is None or not self.offered(table, facts, panel):
            return await answer(interaction, tr(locale, "panel.stale"))
        message = getattr(interaction, "message", None)  # the message the clicked component is on
        if message is not None and not message.flags.ephemeral:  # picked on the board post: a panel of one's own
            if op != "pos":
                return await answer(interaction, tr(locale, "panel.stale"))
            return await self.send_panel(interaction, table, facts, panel, locale)
        # Everything read from the position is read before the first await: a timeout may move the game
        # on while Discord is answered, and this panel then shows the position it was opened on.
        figures = self.figures_for(table, panel)
        await ack(interaction)  # an update of the panel message
        kwargs = await self.render(table, facts, panel, locale, figures)
        await deliver(lambda: interaction.edit_original_response(embed=kwargs["embed"], view=kwargs["view"],
                                                                 attachments=kwargs["files"]),
                      "a Trails panel", REPLY_RETRY_DELAYS)

    def offered(self, table: Table, facts: TurnFacts, panel: PanelState) -> bool:
        """Whether the panel's choices are ones it could have offered: a legal spot and rotation, and a figure
        allowed there."""
        if panel.spot is None or panel.rot is None:
            return panel.spot is None and panel.rot is None and panel.figure is None
        if panel.rot not in facts.rotations.get(panel.spot, []):
            return False
        return panel.figure is None or panel.figure in self.figures_for(table, panel)

    step = staticmethod(panel_step)  # the panel after one click (presentation/trails.py)

    def figures_for(self, table: Table, panel: PanelState) -> list[Figure]:
        """The figures that may go on the panel's chosen placement (none chosen yet: none)."""
        spot = panel.spot
        if spot is None or panel.rot is None:
            return []
        return figure_options(table.state, spot[0], spot[1], panel.rot)

    async def render(self, table: Table, facts: TurnFacts, panel: PanelState, locale: str,
                     figures: list[Figure]) -> dict[str, Any]:
        """The panel message: an embed (text + preview), the components (:func:`panel_offers`), the preview
        file."""
        spots = list(facts.labels.items())
        # Clicks are routed by the dynamic items (custom ids), also after a restart; this view object only
        # carries the components, so it may be forgotten after the interaction token's 15 minutes.
        view = discord.ui.View(timeout=900)
        for offer in panel_offers(facts, panel, figures):
            if offer.op == "pos":
                view.add_item(position_select(spots, offer, locale, panel.spot))
            elif offer.op == "page":
                view.add_item(_button(page_label(offer, len(spots), panel.page, locale), offer.custom_id, row=offer.row, disabled=offer.disabled))
            elif offer.op == "rot" and offer.arg is not None:
                view.add_item(_button(f"↻ {offer.arg * 90}°", offer.custom_id, row=offer.row,
                                      style=discord.ButtonStyle.success if offer.arg == panel.rot
                                      else discord.ButtonStyle.secondary))
            elif offer.op == "fig" and panel.rot is not None:
                fig_options = [discord.SelectOption(label=label, value=value, default=default) for label, value, default
                               in figure_choices(facts.tile, panel.rot, figures, panel.figure, locale)]
                view.add_item(discord.ui.Select(custom_id=offer.custom_id, options=fig_options, row=offer.row,
                                                placeholder=tr(locale, "panel.choose_figure")[:150]))
            elif offer.op == "ok":
                view.add_item(_button(tr(locale, "panel.confirm"), offer.custom_id, row=offer.row,
                                      style=discord.ButtonStyle.primary, disabled=offer.disabled))
            elif offer.op == "undo":
                view.add_item(_button(tr(locale, "panel.undo"), offer.custom_id, row=offer.row,
                                      style=discord.ButtonStyle.danger, disabled=offer.disabled))
        lines = panel_lines(facts, panel, figures, locale)
        preview: bytes | None = None
        if panel.spot is not None and panel.rot is not None:
            x, y = panel.spot
            names = seat_names(table)
            fig = (panel.figure.kind, panel.figure.feature) if panel.figure else None
            preview = await asyncio.to_thread(render_preview, facts.view, x, y, panel.rot, names, locale, fig)
        embed = discord.Embed(description="\n".join(lines), colour=discord.Colour.blurple())
        files = []
        if preview is not None:
            embed.set_image(url="attachment://preview.png")
            files = [discord.File(io.BytesIO(preview), "preview.png")]
        return {"embed": embed, "view": view, "files": files}

    async def confirm(self, interaction: discord.Interaction, table: Table, facts: TurnFacts, panel: PanelState,
                      locale: str) -> None:
        if panel.spot is None or panel.rot is None:
            return await answer(interaction, tr(locale, "panel.stale"))
        x, y = panel.spot
        moves = notations(turn_moves(table.state, x, y, panel.rot, panel.figure))
        await ack(interaction)
        try:
            outcome = await self.service.act(interaction.channel_id, interaction.user.id, moves,
                                             expected_version=panel.version)
        except (TableError, IllegalAction) as error:
            return await answer(interaction, error_text(locale, error, KEY))
        except Exception as error:  # nothing committed: say so with an id
            return await answer(interaction, error_text(locale, error))
        board = await self.game_cog.send_board(outcome, None, locale)
        # The panel, emptied, says so once the board is in the channel (or that it will follow).
        await publish(interaction, board_note(locale, board, lambda link: tr(locale, "panel.played", link=link)))


# -- /trails commands ----------------------------------------------------------------------------
class TrailsCog(commands.GroupCog, group_name=_("trails"),
                group_description=_("Trails & Fortresses: your turn step by step")):
    def __init__(self, bot: Any, panel: TrailsPanel) -> None:
        self.bot = bot
        self.panel = panel
        super().__init__()

    def _table_or_none(self, interaction: discord.Interaction) -> Table | None:
        try:
            return self.panel._turn_table(interaction)
        except TableError:
            return None

    async def position_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None:
            return []
        locale = locale_of(interaction)
        wanted = current.strip().lower()
        choices = []
        for label, (x, y) in self.panel.facts(table).labels.items():
            name = tr(locale, "panel.spot", label=label, x=x, y=y)
            if not wanted or wanted in name.lower() or wanted == label.lower():
                choices.append(app_commands.Choice(name=name, value=f"{x},{y}"))
        return choices[:25]

    async def rotation_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None:
            return []
        facts = self.panel.facts(table)
        try:
            spot: tuple[int, int] | None = find_spot(str(getattr(interaction.namespace, "position", "") or ""),
                                                     facts.labels)
        except IllegalAction:
            spot = None
        rotations = facts.rotations.get(spot, []) if spot else sorted({r for rs in facts.rotations.values() for r in rs})
        return [app_commands.Choice(name=f"{r * 90}°", value=str(r * 90)) for r in rotations
                if current.strip() in str(r * 90)]

    async def feature_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None or table.state.pending is None:
            return []
        locale = locale_of(interaction)
        x, y, rot = table.state.pending
        tile = table.state.tile
        wanted = current.strip().lower()
        choices = [app_commands.Choice(name=tr(locale, "panel.no_figure"), value="none")]
        choices += [app_commands.Choice(name=figure_text(locale, tile, rot, f)[:100], value=format_action(f))
                    for f in figure_options(table.state, x, y, rot)]
        return [c for c in choices if not wanted or wanted in c.name.lower() or wanted in c.value][:25]

    async def _act(self, interaction: discord.Interaction, moves: list[str]) -> MoveOutcome | None:
        locale = locale_of(interaction)
        await ack(interaction)
        try:
            return await self.bot.tables.act(interaction.channel_id, interaction.user.id, moves)
        except (TableError, IllegalAction) as error:
            await answer(interaction, self.panel.error_text(locale, error) or error_text(locale, error, KEY))
        except Exception as error:  # nothing committed
            await answer(interaction, error_text(locale, error))
        return None

    async def step_reply(self, interaction: discord.Interaction, table: Table, key: str) -> None:
        """The ephemeral answer to a step: where things stand, with a preview of the pending tile."""
        locale = locale_of(interaction)
        state = table.state
        lines = step_lines(state, key, locale)
        images = []
        if state.pending is not None:
            x, y, rot = state.pending
            fig = (state.pending_figure.kind, state.pending_figure.feature) if state.pending_figure else None
            view = self.panel.facts(table).view
            await ack(interaction)
            png = await asyncio.to_thread(render_preview, view, x, y, rot, seat_names(table), locale, fig)
            images = [("preview.png", png)]
        await answer(interaction, "\n".join(lines), images=images)

    @app_commands.command(name=_("place"), description=_("Lay your tile (not played until you confirm)"))
    @app_commands.rename(position=_("position"), rotation=_("rotation"))
    @app_commands.describe(position=_("Where: a letter from the board or x,y"), rotation=_("Clockwise turn in degrees"))
    @app_commands.autocomplete(position=position_autocomplete, rotation=rotation_autocomplete)
    async def place(self, interaction: discord.Interaction, position: str, rotation: str) -> None:
        locale = locale_of(interaction)
        try:
            table = self.panel._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        try:
            x, y = find_spot(position, self.panel.facts(table).labels)
            rot = parse_rotation(rotation)
        except IllegalAction:
            return await answer(interaction, tr(locale, "cmd_reply.bad_place", position=clip(position),
                                                rotation=clip(rotation)))
        moves = notations(place_moves(table.state, x, y, rot))
        if await self._act(interaction, moves) is not None:
            await self.step_reply(interaction, table, "cmd_reply.placed")

    @app_commands.command(name=_("figure"), description=_("Put a figure on the tile you laid, or none"))
    @app_commands.rename(feature=_("feature"))
    @app_commands.describe(feature=_("Which figure where; start typing to see the legal ones"))
    @app_commands.autocomplete(feature=feature_autocomplete)
    async def figure_command(self, interaction: discord.Interaction, feature: str) -> None:
        locale = locale_of(interaction)
        try:
            table = self.panel._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        try:
            moves = notations(figure_moves(table.state, parse_figure_choice(feature)))
        except IllegalAction as error:
            return await answer(interaction, error_text(locale, error, KEY))
        if moves and await self._act(interaction, moves) is None:
            return
        await self.step_reply(interaction, table, "cmd_reply.figured")

    @app_commands.command(name=_("confirm"), description=_("End your turn: the tile and figure are played"))
    async def confirm(self, interaction: discord.Interaction) -> None:
        await self.bot.get_cog("GameCog").play(interaction, "confirm")

    @app_commands.command(name=_("undo"), description=_("Take back your last step before you confirm"))
    async def undo(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        try:
            table = self.panel._turn_table(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        if await self._act(interaction, ["undo"]) is not None:
            await self.step_reply(interaction, table, "cmd_reply.undone")

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_command_error(interaction, error)


async def setup(bot: Any) -> None:
    panel = TrailsPanel(bot)
    bot.get_cog("GameCog").add_panel(KEY, panel)
    bot.add_view(TakeTurnView(panel))
    bot.add_dynamic_items(PanelButton, PanelSelect)
    await bot.add_cog(TrailsCog(bot, panel))
    # Tile layouts take about a second to work out: do it beside start-up, not in the first player's turn.
    panel.warming = asyncio.get_running_loop().create_task(asyncio.to_thread(geometry.warm_up))

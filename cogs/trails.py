"""Trails & Fortresses' typed commands: ``/trails place``, ``figure``, ``confirm`` and ``undo`` play the turn
step by step on the engine (each step answered privately with a preview of the pending tile; only Confirm posts
the board), as ``/game move`` always allowed, so a player may type one step now and the next later. The Take
turn panel, the positions under the board post, the story of a turn and the final standings are the generic
panel's (cogs/panel.py), from the game's presentation module (presentation/trails.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.tables import MoveOutcome, Table, TableError
from cogs.common import ack, answer, error_text, locale_of, seat_names
from cogs.typed import TypedCommands
from games.core import IllegalAction
from games.trails.actions import clip, format_action, parse_rotation
from games.trails.engine import figure_options
from games.trails.turn import figure_moves, find_spot, parse_figure_choice, place_moves
from presentation.trails import KEY, TurnFacts, facts_of, figure_text, notations, reword, step_lines, tr
from rendering.trails import geometry, render_preview


# -- /trails commands ----------------------------------------------------------------------------
class TrailsCog(TypedCommands, commands.GroupCog, group_name=_("trails"),
                group_description=_("Trails & Fortresses: your turn step by step")):
    game_key = KEY
    warming: asyncio.Task[None] | None = None  # the renderer's warm-up, started at load

    def _turn_table(self, interaction: discord.Interaction) -> Table:
        """The caller's running Trails table where it is their turn, or a TableError saying why not."""
        return self.mover(interaction)[0]

    def _table_or_none(self, interaction: discord.Interaction) -> Table | None:
        found = self.mover_or_none(interaction)
        return found[0] if found is not None else None

    @staticmethod
    def facts(table: Table) -> TurnFacts:
        """What the engine says of the turn now, on the public view the previews draw on."""
        return facts_of(table.state, table.game.view(table.state, None))

    async def position_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None:
            return []
        locale = locale_of(interaction)
        wanted = current.strip().lower()
        choices = []
        for label, (x, y) in self.facts(table).labels.items():
            name = tr(locale, "panel.spot", label=label, x=x, y=y)
            if not wanted or wanted in name.lower() or wanted == label.lower():
                choices.append(app_commands.Choice(name=name, value=f"{x},{y}"))
        return choices[:25]

    async def rotation_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        table = self._table_or_none(interaction)
        if table is None:
            return []
        facts = self.facts(table)
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
            worded = reword(error, locale) if isinstance(error, IllegalAction) else error
            await answer(interaction, error_text(locale, worded, KEY))
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
            view = self.facts(table).view
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
        if (found := await self.mover_or_refuse(interaction)) is None:
            return
        table = found[0]
        try:
            x, y = find_spot(position, self.facts(table).labels)
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
        if (found := await self.mover_or_refuse(interaction)) is None:
            return
        table = found[0]
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
        if (found := await self.mover_or_refuse(interaction)) is None:
            return
        table = found[0]
        if await self._act(interaction, ["undo"]) is not None:
            await self.step_reply(interaction, table, "cmd_reply.undone")



async def setup(bot: Any) -> None:
    cog = TrailsCog(bot)
    await bot.add_cog(cog)
    # Tile layouts take about a second to work out: do it beside start-up, not in the first player's turn.
    cog.warming = asyncio.get_running_loop().create_task(asyncio.to_thread(geometry.warm_up))

"""Dewan's typed commands (``/dewan take``, ``camp``, ``choose``, ``turn``), each suggesting what is legal as
the player types. The "Take turn" panel (a take is the pair; a camp is the destination, the payment when
there is a choice, then Confirm under a private preview of the planned camp, carrying the reward when the
emptied slot offers a choice), the turn told in words on the board and the score pad are the generic
panel's (cogs/panel.py), from the game's presentation module (presentation/dewan.py).

The commands work step by step on the engine (``/dewan camp to:`` alone leaves the payment to
``/dewan choose``), as ``/game move`` always allowed, committed through ``GameCog.play`` like a click: the
steps are answered privately with the next question, the channel hears the whole turn once.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.tables import Table, TableError, echo
from cogs.common import answer, error_text, locale_of, seat_names
from cogs.typed import TypedCommands
from games.core import IllegalAction
from games.dewan.engine import DewanGame
from presentation.dewan import (
    HEX_RE,
    KEY,
    action_label,
    decode_payment,
    destination_options,
    destinations,
    encode_payment,
    payment_text,
    payments,
    plan_camp,
    tr,
)

PAYMENT_SUGGESTIONS = 200  # payments searched for /dewan camp's suggestions (filtered by what is typed)


def engine_of(table: Table) -> DewanGame:
    """The table's engine, known to be Dewan's here (the bot holds every game as ``AnyGame``)."""
    game = table.game
    assert isinstance(game, DewanGame)
    return game


# -- /dewan commands ------------------------------------------------------------------------------------
# Longest values the commands accept (Discord refuses longer ones; a hostile client is cut short here).
ShortText = app_commands.Range[str, 1, 100]


class DewanCog(TypedCommands, commands.GroupCog, group_name=_("dewan"),
               group_description=_("Dewan: your turn step by step")):
    game_key = KEY

    async def _not_dewan(self, interaction: discord.Interaction) -> bool:
        """Whether the channel has no Dewan table (told privately): /dewan never plays another game's move."""
        table = self.bot.tables.tables.get(interaction.channel_id)
        if table is None or table.game.key != KEY:
            await answer(interaction, error_text(locale_of(interaction), TableError("no_table"), KEY))
            return True
        return False

    async def pair_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self.mover_or_none(interaction)
        if found is None:
            return []
        table, seat = found
        game = engine_of(table)
        row = game.view(table.state, None)["row"]
        names = seat_names(table)
        return self.matching([(action_label(a, names, row, locale_of(interaction)), game.format(a))
                               for a in game.legal_actions(table.state, seat) if a[0] in ("take", "take1")], current)

    async def to_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self.mover_or_none(interaction)
        if found is None:
            return []
        table, seat = found
        game = engine_of(table)
        return self.matching(destination_options(game, table.state, seat, locale_of(interaction)), current)

    async def pay_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self.mover_or_none(interaction)
        hex_ = str(getattr(interaction.namespace, "to", "") or "")[:10].strip().upper()
        if found is None or HEX_RE.fullmatch(hex_) is None:
            return []
        table, seat = found
        game = engine_of(table)
        if hex_ not in destinations(game, table.state, seat):
            return []
        names = seat_names(table)
        locale = locale_of(interaction)
        found = payments(game, table.state, seat, hex_, limit=PAYMENT_SUGGESTIONS)
        return self.matching([(payment_text(p, names, locale), encode_payment(p)) for p, _route in found], current)

    async def step_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = self.mover_or_none(interaction)
        if found is None:
            return []
        table, seat = found
        game = engine_of(table)
        row = game.view(table.state, None)["row"]
        names = seat_names(table)
        locale = locale_of(interaction)
        return self.matching([(f"{game.format(a)}: {action_label(a, names, row, locale)}", game.format(a))
                               for a in game.legal_actions(table.state, seat)], current)

    @app_commands.command(name=_("turn"), description=_("Open your Dewan turn panel"))
    async def turn(self, interaction: discord.Interaction) -> None:
        await self.open_panel(interaction)

    @app_commands.command(name=_("take"), description=_("Take two neighbouring cards of the row"))
    @app_commands.rename(pair=_("pair"))
    @app_commands.describe(pair=_("Positions of the row, e.g. 3 for cards 3 and 4"))
    @app_commands.autocomplete(pair=pair_autocomplete)
    async def take(self, interaction: discord.Interaction, pair: ShortText) -> None:
        if await self._not_dewan(interaction):
            return
        typed = " ".join(pair[:40].lower().split())
        first = typed.partition("-")[0].strip()
        notation = typed if typed.startswith("take") else f"take {first}"
        found = self.mover_or_none(interaction)
        if found is not None and first in ("1", "2", "3", "4", "5", "6") and not typed.startswith("take"):
            table, seat = found  # no two cards side by side: the single card at that position
            legal = engine_of(table).legal_actions(table.state, seat)
            if ("take", int(first)) not in legal and ("take1", int(first)) in legal:
                notation = f"take1 {first}"
        await self.game_cog.play(interaction, notation)

    @app_commands.command(name=_("camp"), description=_("Place a camp: the space, and how to pay (or choose later)"))
    @app_commands.rename(to=_("to"), pay=_("pay"))
    @app_commands.describe(to=_("The free land space, e.g. C6"),
                           pay=_("The cards that pay the route; empty: choose them step by step"))
    @app_commands.autocomplete(to=to_autocomplete, pay=pay_autocomplete)
    async def camp(self, interaction: discord.Interaction, to: ShortText, pay: ShortText | None = None) -> None:
        locale = locale_of(interaction)
        if await self._not_dewan(interaction):
            return
        hex_ = to[:10].strip().upper()
        if HEX_RE.fullmatch(hex_) is None:
            return await answer(interaction, tr(locale, "cmd_reply.bad_space", space=echo(to, 40)))
        if not pay:
            return await self.game_cog.play(interaction, f"camp {hex_}")
        try:
            table, seat = self.mover(interaction)
        except TableError as error:
            return await answer(interaction, error_text(locale, error, KEY))
        game = engine_of(table)
        try:
            payment = tuple(sorted(decode_payment(pay[:80].strip().lower())))  # typed in any order
            if hex_ not in destinations(game, table.state, seat):
                raise ValueError("no route")
            plan = plan_camp(game, table.state, seat, hex_, payment)  # the engine takes it, or refuses it
        except (ValueError, IllegalAction):
            return await answer(interaction, tr(locale, "cmd_reply.bad_payment", space=hex_, pay=echo(pay, 40)))
        await self.game_cog.play(interaction, plan.notations, table.version)

    @app_commands.command(name=_("choose"), description=_("Answer the current step: a card to pay, a story tile, a card to tuck"))
    @app_commands.rename(step=_("step"))
    @app_commands.describe(step=_("Start typing to see the possible answers"))
    @app_commands.autocomplete(step=step_autocomplete)
    async def choose(self, interaction: discord.Interaction, step: ShortText) -> None:
        if not await self._not_dewan(interaction):
            await self.game_cog.play(interaction, step[:200])



async def setup(bot: Any) -> None:
    await bot.add_cog(DewanCog(bot))

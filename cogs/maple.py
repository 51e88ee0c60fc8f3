"""Maple Valley's typed commands (``/maple card``, ``walk``, ``choose``, ``craft``, ``end``, ``undo``, ``turn``),
each suggesting the current question's answers in words as the player types (valued in notation: a whole walk
``path 3 | path 11 | stop``, a card with its play ability's answer). The "Take turn" panel, the turn told on
the board (without the steps taken back), the board's preview and the final scores are the generic panel's
(cogs/panel.py), from the game's presentation module (presentation/maple.py); a typed answer is committed
through ``GameCog.play`` like a click, so a step is answered privately with the next question and the channel
gets one board per turn.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.i18n import t
from bot.tables import TableError, echo
from cogs.common import answer, locale_of
from cogs.typed import TypedCommands
from games.maple.engine import MapleGame
from presentation.maple import KEY, choice_label, choices_of

# A piece of typed notation: short words of letters, digits and ,=- only (no int() of thousands of digits).
TYPED_RE = re.compile(r"[a-zA-Z0-9,=\-]{1,24}( [a-zA-Z0-9,=\-]{1,24}){0,3}")


# -- /maple commands ---------------------------------------------------------------------------------
TypedText = app_commands.Range[str, 1, 200]


def typed_pieces(text: str) -> list[str] | None:
    """What a typist sent, as notations: one step, or several joined by ``|`` as the autocomplete offers
    them (a walk ``path 3 | path 11 | stop``, a card with its play ability's answer); ``None`` for anything
    that is not short words of the notation."""
    pieces = [p.strip() for p in text.split("|")]
    if len(pieces) > 25 or not all(TYPED_RE.fullmatch(p) for p in pieces):
        return None
    return pieces


class MapleCog(TypedCommands, commands.GroupCog, group_name=_("maple"),
               group_description=_("Play Maple Valley in this channel")):
    game_key = KEY

    async def _suggest(self, interaction: discord.Interaction, current: str,
                       groups: tuple[str, ...]) -> list[app_commands.Choice[str]]:
        """Autocomplete: the caller's choices now of the given groups, named in words, valued in notation."""
        try:
            table, seat = self.mover(interaction)
        except TableError:
            return []
        locale = locale_of(interaction)
        assert isinstance(table.game, MapleGame)
        view = table.game.view(table.state, None)
        wanted = current.lower().strip()[:100]
        out = []
        for choice in choices_of(table.state, seat):
            if groups and choice.group not in groups:
                continue
            label = choice_label(locale, choice, view)
            value = " | ".join(choice.notations)
            if len(value) <= 100 and (wanted in label.lower() or wanted in value):
                out.append(app_commands.Choice(name=label[:100], value=value))
        return out[:25]

    async def card_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ("card",))

    async def walk_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ("dest", "path"))

    async def any_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ())

    async def craft_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, ("craft",))

    async def typed(self, interaction: discord.Interaction, text: str) -> None:
        pieces = typed_pieces(text)
        if pieces is None:
            return await answer(interaction, t(locale_of(interaction), "error.notation", text=echo(text)))
        table = self.bot.tables.tables.get(interaction.channel_id)
        if len(pieces) > 1 and table is not None and table.game.key == KEY:
            self.game_cog.panels[KEY].starts_commit(table)  # its steps are told (and taken back) one by one
        await self.game_cog.play(interaction, pieces)

    @app_commands.command(name=_("turn"), description=_("Open your Maple Valley turn panel"))
    async def turn(self, interaction: discord.Interaction) -> None:
        await self.open_panel(interaction)

    @app_commands.command(name=_("card"), description=_("Play a friend (with its path type) or a dawdle card"))
    @app_commands.rename(card=_("card"))
    @app_commands.describe(card=_("Start typing to see your cards, e.g. friend f05 F"))
    @app_commands.autocomplete(card=card_choices)
    async def card(self, interaction: discord.Interaction, card: TypedText) -> None:
        await self.typed(interaction, card)

    @app_commands.command(name=_("walk"), description=_("Walk to a location, or one path at a time, or stop"))
    @app_commands.rename(route=_("route"))
    @app_commands.describe(route=_("A destination, or path 4, path 16 tok, stop"))
    @app_commands.autocomplete(route=walk_choices)
    async def walk(self, interaction: discord.Interaction, route: TypedText) -> None:
        await self.typed(interaction, route)

    @app_commands.command(name=_("choose"), description=_("Answer the current question of your turn"))
    @app_commands.rename(choice=_("choice"))
    @app_commands.describe(choice=_("Start typing to see your possible answers"))
    @app_commands.autocomplete(choice=any_choices)
    async def choose(self, interaction: discord.Interaction, choice: TypedText) -> None:
        await self.typed(interaction, choice)

    @app_commands.command(name=_("craft"), description=_("Craft a favor with your goods"))
    @app_commands.rename(favor=_("favor"))
    @app_commands.describe(favor=_("Start typing to see the favors you can craft, e.g. craft tr05"))
    @app_commands.autocomplete(favor=craft_choices)
    async def craft(self, interaction: discord.Interaction, favor: TypedText) -> None:
        await self.typed(interaction, favor)

    @app_commands.command(name=_("end"), description=_("End your turn (the board is posted)"))
    async def end(self, interaction: discord.Interaction) -> None:
        await self.game_cog.play(interaction, "end")

    @app_commands.command(name=_("undo"), description=_("Take back your last step before you end the turn"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.game_cog.play(interaction, "undo")



async def setup(bot: Any) -> None:
    await bot.add_cog(MapleCog(bot))

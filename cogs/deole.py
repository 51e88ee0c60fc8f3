"""Déole's typed commands (``/deole die``, ``track``, ``mode``, ``write``, ``sail``, ``bonus``, ``play``), each
suggesting the current decision's answers as the player types. The "Take turn" panel, the answers under the
board post, the story of a pick and the final scores are the generic panel's (cogs/panel.py), from the game's
presentation module (presentation/deole.py); a typed answer is committed through ``GameCog.play`` like a
click, so a step is answered privately with the next question and the channel gets one board per pick.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.tables import TableError
from cogs.common import error_text, locale_of
from cogs.typed import TypedCommands
from games.deole.engine import DeoleGame
from presentation.deole import HINT_VALUE, KEY, choices, step_hint, tr


def hint_choice(text: str) -> app_commands.Choice[str]:
    """A single suggestion that explains an empty list (Discord shows no text of its own)."""
    return app_commands.Choice(name=text[:100], value=HINT_VALUE)


class DeoleCog(TypedCommands, commands.GroupCog, group_name=_("deole"),
               group_description=_("Play Déole in this channel")):
    game_key = KEY

    # -- commands for typists -------------------------------------------------------------------
    async def _autocomplete(self, interaction: discord.Interaction, current: str,
                            kinds: tuple[str, ...]) -> list[app_commands.Choice[str]]:
        table = self.bot.tables.tables.get(interaction.channel_id)
        if table is None or table.game.key != KEY or table.state is None:
            return []
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return []
        locale = locale_of(interaction)
        game = table.game
        assert isinstance(game, DeoleGame)
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
        await self.game_cog.play(interaction, notations)

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



async def setup(bot: Any) -> None:
    await bot.add_cog(DeoleCog(bot))

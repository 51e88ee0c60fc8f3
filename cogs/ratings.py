"""``/game leaderboard`` and ``/game stats``: ratings per server and game (``bot/ratings.py``), in the reader's
language. A mixin of the ``/game`` cog (``GameCog``), so the commands sit in its group."""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot import ratings
from bot.i18n import t
from bot.store.base import PlayerGame, RatingLine
from bot.tables import READ_RESULTS_WITHIN, TableError, echo
from cogs.common import answer, error_text, locale_of
from cogs.game_choice import game_autocomplete, resolve_game
from games import registry
from rendering.chart import rating_chart

log = logging.getLogger(__name__)

TOP = 10


def player_name(line_player: str, display: str, locale: str) -> str:
    """A member's name as in their latest game; an AI level by its name in the reader's language."""
    if line_player.startswith(ratings.AI_PREFIX):
        level = line_player.removeprefix(ratings.AI_PREFIX)
        return t(locale, "ratings.ai", level=t(locale, f"ai.level.{level}"))
    return display


def leaderboard_lines(board: list[RatingLine], player: str, locale: str) -> list[str]:
    """The top ``TOP`` by conservative rating (ties: more games first), and the reader's own line after a gap
    when they are not among them."""
    order = sorted(board, key=lambda r: (-ratings.ordinal(r.mu, r.sigma), -r.games, r.player))

    def line(place: int, row: RatingLine) -> str:
        text = t(locale, "leaderboard.line", place=place, name=player_name(row.player, row.display, locale),
                 rating=f"{ratings.ordinal(row.mu, row.sigma):.1f}",
                 games=t(locale, "ratings.games", count=row.games), wins=t(locale, "ratings.wins", count=row.wins))
        return f"**{text}**" if row.player == player else text

    lines = [line(place, row) for place, row in enumerate(order[:TOP], start=1)]
    own = next((place for place, row in enumerate(order, start=1) if row.player == player), None)
    if own is not None and own > TOP:
        lines += ["…", line(own, order[own - 1])]
    return lines


def stats_lines(games: list[PlayerGame], locale: str) -> list[tuple[str, str]]:
    """(game name, its line) per game played: games, wins, win rate, average and best score, rating."""
    by_game: dict[str, list[PlayerGame]] = defaultdict(list)
    for played in games:
        by_game[played.game].append(played)
    out = []
    for key, played in sorted(by_game.items(), key=lambda item: -len(item[1])):
        wins = sum(p.won for p in played)
        rated = [p for p in played if p.mu is not None and p.sigma is not None]
        rating = (f"{ratings.ordinal(rated[-1].mu, rated[-1].sigma):.1f}"  # type: ignore[arg-type]
                  if rated else t(locale, "stats.unrated"))
        name = registry.get(key).names.get(locale, key) if registry.has(key) else key
        out.append((name, t(locale, "stats.line", games=t(locale, "ratings.games", count=len(played)),
                            wins=t(locale, "ratings.wins", count=wins), rate=round(100 * wins / len(played)),
                            average=f"{sum(p.score for p in played) / len(played):.1f}",
                            best=max(p.score for p in played), rating=rating)))
    return out


def rating_series(games: list[PlayerGame], locale: str) -> list[tuple[str, list[float]]]:
    """Per game, the rating after each rated game (the chart's lines)."""
    series: dict[str, list[float]] = {}
    for played in games:
        if played.mu is not None and played.sigma is not None:
            name = registry.get(played.game).names.get(locale, played.game) if registry.has(played.game) else played.game
            series.setdefault(name, []).append(ratings.ordinal(played.mu, played.sigma))
    return list(series.items())


if TYPE_CHECKING:  # the commands' ``self`` is the cog they are mixed into
    from discord.ext.commands import Cog as CommandsMixin
else:
    CommandsMixin = object

class RatingsCommands(CommandsMixin):
    """The commands, mixed into ``GameCog`` (``self.service`` is the table service)."""

    service: Any
    bot: Any
    background: list[asyncio.Task[Any]]

    def catch_up_ratings(self) -> None:
        """Once connected, record the games that ended while their results could not be recorded (a crash
        right after the last move) or before ratings existed; in the background, so a first start with many
        finished games is not held up."""
        async def run() -> None:
            try:
                await self.bot.wait_until_ready()
            except RuntimeError:  # a client that never logs in (a tool, a test): nothing to catch up
                return
            try:
                recorded = await ratings.catch_up(self.service.store, self.service.owns_guild)
            except Exception:  # the next start tries again
                log.exception("could not record the results of finished games")
                return
            if recorded:
                log.info("recorded the results of %d finished games", recorded)

        self.background = [asyncio.get_running_loop().create_task(run(), name="ratings-catch-up")]

    @app_commands.command(name=_("leaderboard"), description=_("The best rated players of a game in this server"))
    @app_commands.describe(game=_("Which game"))
    @app_commands.rename(game=_("game"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 32]) -> None:
        locale = locale_of(interaction)
        game = resolve_game(game)  # also typed by its name without picking the suggestion ("тропы")
        if not registry.has(game):
            return await answer(interaction, error_text(locale, TableError("unknown_game", game=echo(game))))
        await self.service.results_recorded(within=READ_RESULTS_WITHIN)  # a game that has just ended counts
        board = await self.service.store.rating_board(interaction.guild_id or ratings.NO_GUILD, game)
        name = registry.get(game).names.get(locale, game)
        if not board:
            return await answer(interaction, t(locale, "leaderboard.empty", game=name))
        lines = leaderboard_lines(board, ratings.user_player(interaction.user.id), locale)
        embed = discord.Embed(title=t(locale, "leaderboard.title", game=name), description="\n".join(lines)[:4000],
                              colour=discord.Colour.gold())
        embed.set_footer(text=t(locale, "leaderboard.footer"))
        await answer(interaction, embed=embed)

    @app_commands.command(name=_("stats"), description=_("A player's games, wins, scores and rating in this server"))
    @app_commands.describe(user=_("Whose (yours if left out)"))
    @app_commands.rename(user=_("user"))
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        locale = locale_of(interaction)
        who = user or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)  # the chart is drawn off the loop
        await self.service.results_recorded(within=READ_RESULTS_WITHIN)
        games = await self.service.store.player_results(interaction.guild_id or ratings.NO_GUILD,
                                                       ratings.user_player(who.id))
        if not games:
            return await answer(interaction, t(locale, "stats.none", player=who.display_name))
        embed = discord.Embed(title=t(locale, "stats.title", player=who.display_name), colour=discord.Colour.gold())
        for name, line in stats_lines(games, locale)[:25]:
            embed.add_field(name=name, value=line, inline=False)
        series = rating_series(games, locale)
        images: list[tuple[str, bytes]] = []
        if series:
            chart = await asyncio.to_thread(rating_chart, series, t(locale, "stats.chart", player=who.display_name),
                                            t(locale, "stats.chart_games"))
            images.append(("rating.png", chart))
            embed.set_image(url="attachment://rating.png")
        await answer(interaction, embed=embed, files=[discord.File(io.BytesIO(data), name) for name, data in images])

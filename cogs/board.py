"""Board posts, shared by every game: what happened, the standings, whose turn, the images, and the
game's own additions (its ``GamePanel``); reminders and timeouts of the turn clock; reposts when Discord
refuses a post for a while.

A board is the bot's own message in the table's channel, sent with a nonce made of the table and its
version: if Discord took a post but its answer was lost (an ambiguous 502), posting again returns the
same message instead of a second board. A board is due from the move's own transaction until it is
posted, so a crash in between, or an outage, still ends with the board in the channel."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import discord

import rendering
from bot.board_queue import BoardQueue
from bot.discord_calls import deliver
from bot.i18n import pick_locale, t
from bot.tables import MoveOutcome, Table, TableService, format_duration
from cogs.common import answer, detached, locale_of, public_locale, seat_label, seat_labels, seat_names

log = logging.getLogger(__name__)


standing_names = seat_labels  # the seat lists and standings (and the games' score breakdowns)


def board_note(locale: str, message: discord.Message | None, posted: Callable[[str], str]) -> str:
    """What the mover privately reads once their turn's board was (or could not be) posted: ``posted(link)``
    only once it is in the channel (``link``: the board's message); else that it will follow."""
    return posted(message.jump_url) if message is not None else t(locale, "game.board_later")


def posted_board(interaction: discord.Interaction) -> discord.Message | None:
    """The board ``post_board`` posted for this interaction (``None``: not posted, or none was due)."""
    board = interaction.extras.get("board")
    return board if isinstance(board, discord.Message) else None


class HandView(discord.ui.View):
    """The "My hand" button under boards of games with private views: the caller's own view, ephemerally
    (as ``/game hand``). Persistent: it works on old boards and after a restart."""

    def __init__(self, cog: Any, locale: str = "en") -> None:  # the GameCog: it has show_hand
        super().__init__(timeout=None)
        self.cog = cog
        self.my_hand.label = t(locale, "button.hand")

    @discord.ui.button(label="My hand", style=discord.ButtonStyle.secondary, custom_id="pbc:hand")
    async def my_hand(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.show_hand(interaction)


class GamePanel:
    """What a game's panel adds to the shared board post: the one panel (cogs/panel.py ``GenericPanel``) for
    every game with a presentation module; these defaults add nothing, so a game without one is played with
    ``/game move`` alone."""

    def board_view(self, table: Table, outcome: MoveOutcome, locale: str) -> discord.ui.View | None:
        """Components under a board post of a game still running (e.g. a persistent "Take turn" button)."""
        return None

    def event_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str] | None:
        """Sentences telling the outcome (its events, in words) instead of the moves in notation and the
        catalogs' ``<key>.event.<code>`` lines; ``None`` keeps those."""
        return None

    def final_embeds(self, table: Table, locale: str) -> list[discord.Embed]:
        """Extra embeds for the last board post (e.g. the scoring breakdown per player)."""
        return []

    def error_text(self, locale: str, error: Exception, key: str | None = None) -> str | None:
        """The game's own wording of a refusal (e.g. engine step names in words); ``None``: the catalogs'."""
        return None

    def holds_steps(self, key: str) -> bool:
        """Whether the events of steps answered privately are held (stored) and told with the turn's board."""
        return False

    def held(self, table: Table, outcome: MoveOutcome) -> list[tuple[int, Any]]:
        """What a step's commit leaves for the turn's board (when ``holds_steps``)."""
        return list(outcome.events)

    bot: Any = None  # the bot, for a game's panel that asks the table service or the /game cog

    @property
    def service(self) -> Any:
        """The table service (``bot.tables``)."""
        return self.bot.tables

    @property
    def game_cog(self) -> Any:
        """The ``/game`` cog: board posts and answers shared by every game."""
        return self.bot.get_cog("GameCog")

    async def answer_step(self, interaction: discord.Interaction, table: Table, outcome: MoveOutcome) -> None:
        """The private answer to a step of a turn (a commit after which the same turn goes on: the table
        service's ``MoveOutcome.announce`` is false); the channel hears the whole turn once it ends."""


class BoardPoster:
    """The board posting half of ``GameCog`` (a mixin; ``GameCog.__init__`` sets these)."""

    bot: Any
    service: TableService
    panels: dict[str, GamePanel]  # game key -> the game's panel
    board_queue: BoardQueue  # the due boards, posted a few at a time (``GameCog.__init__`` makes it)
    refused: set[int]  # tables whose latest board Discord refused (in this process)

    # A board post that failed every attempt (Discord down for a while) is posted again to the channel
    # later (the board queue's retry delays), with the position then current, so the next player still hears
    # it is their turn.
    post_retry_delay = 2.0  # one more try after discord.py's own retries gave up, before the reposts

    async def post_board(self, interaction: discord.Interaction, outcome: MoveOutcome, headline: str | None,
                         locale: str, posted_key: str = "game.board_posted") -> discord.Message | None:
        """The board after a player's command or click; a slash command's private "thinking" becomes a
        short answer pointing at it once it is posted (or saying it will come when Discord lets it through).
        The message (``None`` if not posted) is kept on the interaction (``posted_board``) for a game's panel
        that tells the mover afterwards."""
        message = await self.send_board(outcome, headline, locale)
        interaction.extras["board"] = message
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message \
                and not interaction.extras.get("panel"):  # a panel tells the mover itself (cogs/panel.py)
            own = locale_of(interaction)
            await answer(interaction, board_note(own, message, lambda link: t(own, posted_key, link=link)))
        return message

    async def on_board_posted(self, outcome: MoveOutcome, message: discord.Message) -> None:
        """After a board is posted (the game cog updates the lobby with the last one)."""

    async def announce_timeout(self, outcome: MoveOutcome) -> None:
        """Called by the turn clock: say what the clock did, in the table's channel."""
        table = outcome.table
        found = await self.channel_of(table)
        locale = found[1] if found else public_locale(table, "en")
        player = table.seats[outcome.timed_out_seat or 0].display
        headline = t(locale, f"clock.{outcome.timeout}", player=player)
        await self.send_board(outcome, headline, locale)

    async def announce_failure(self, table: Table, error_id: str, delay: float) -> None:
        """Called by the turn clock, once, when it cannot handle the table's deadline."""
        found = await self.channel_of(table)
        if found is not None:
            channel, locale = found
            text = t(locale, "clock.table_failing", error_id=error_id, delay=format_duration(int(delay), locale))
            await deliver(lambda: channel.send(text), "a clock failure notice")

    async def channel_of(self, table: Table) -> tuple[Any, str] | None:
        """The table's channel and the language of its posts; ``None`` if Discord cannot tell (logged)."""
        channel_id = table.record.channel_id
        channel = self.bot.get_channel(channel_id) or await deliver(lambda: self.bot.fetch_channel(channel_id),
                                                                    f"finding channel {channel_id}")
        if channel is None:
            return None
        guild = getattr(channel, "guild", None)
        return channel, public_locale(table, pick_locale(str(guild.preferred_locale.value) if guild else None))

    async def announce_reminder(self, table: Table, seat: int) -> None:
        """Called by the turn clock: remind the player to move (a mention of that player only)."""
        user_id = table.seats[seat].user_id
        found = await self.channel_of(table)
        if user_id is None or table.record.deadline is None or found is None:
            return
        channel, locale = found
        when = discord.utils.format_dt(datetime.fromtimestamp(table.record.deadline, tz=UTC), "R")
        # The game's Take turn button comes with the reminder: the player acts from there.
        view = self.panel(table.game.key).board_view(table, MoveOutcome(table, [], [], False, [seat]), locale)
        extra = {"view": detached(view)} if view is not None and view.is_persistent() else {}
        await deliver(lambda: channel.send(
            t(locale, "clock.reminder", mention=f"<@{user_id}>", when=when),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False, roles=False),
            **extra,
        ), "a reminder")

    def panel(self, game_key: str) -> GamePanel:
        return self.panels.get(game_key) or GamePanel()

    def story_lines(self, table: Table, outcome: MoveOutcome, names: list[str], locale: str) -> list[str]:
        """What happened: the game's own sentences when its panel tells them, else each move in notation
        followed by the catalogs' ``<key>.event.<code>`` lines."""
        told = self.panel(table.game.key).event_lines(table, outcome, names, locale)
        if told is not None:
            return told
        key = table.game.key
        lines = [t(locale, "game.move", player=names[seat], move=notation)
                 for seat, notation in outcome.moves if not notation.startswith("@")]  # "@": the clock's entries
        for _seat, event in outcome.events:
            params = {k: seat_label(names, k, v) for k, v in event.params.items()}
            text = t(locale, f"{key}.event.{event.code}", **params)
            if text != f"{key}.event.{event.code}":
                lines.append(text)
        return lines

    async def board_images(self, table: Table, locale: str) -> list[tuple[str, bytes]]:
        """The public board image and the game's extra ones, drawn in a worker thread from the spectators'
        view taken now: the live state may change with the next move while the thread draws."""
        names = seat_names(table)
        view = json.loads(json.dumps(table.game.view(table.state, None)))  # a copy owned by the thread
        key = table.game.key

        def draw() -> list[tuple[str, bytes]]:
            board = rendering.render_board(key, view, locale, names)
            return [("board.png", board), *rendering.render_details(key, view, locale, names)]

        return await asyncio.to_thread(draw)

    def schedule_repost(self, table: Table, locale: str, at_once: bool = False) -> None:
        """Queue the table's due board (``at_once``: at start, as soon as the bot is connected; else it was just
        refused, and is tried again after the queue's first retry delay)."""
        self.board_queue.add(table, locale, refused=not at_once)

    async def post_due(self, table: Table, locale: str) -> bool:
        """The board queue's post: the table's due board, with the position now. ``True`` once posted (or once
        a later board has told the position); ``False`` if Discord did not take it."""
        await self.bot.wait_until_ready()
        if not table.board_due:
            return True
        finished = table.record.status == "finished"
        next_seats = [] if finished else table.game.to_act(table.state)
        outcome = MoveOutcome(table, [], [], finished, next_seats)
        return await self.send_board(outcome, self.repost_headline(table, locale), locale, repost=False) is not None

    async def send_board(self, outcome: MoveOutcome, headline: str | None, locale: str,
                         repost: bool = True, nonce: str | None = None) -> discord.Message | None:
        """After a committed move: what happened, the standings, whose turn (a mention of that player only,
        with the deadline) and the board image, rendered off the event loop, posted in the table's channel.
        Returns the message, or ``None`` if Discord did not take it: then it is posted again later
        (``repost``), as it is after a restart (the board stays due in the store until posted). ``nonce``:
        for a post that is not a turn's own board (a resume), which must not be taken for that board."""
        table = outcome.table
        locale = public_locale(table, locale)
        # What the board tells is held in the store, from the move's own commit (and steps told privately
        # before it): forgotten only once the board is posted, so a crash, a failed post or a shutdown loses
        # none of it, and a repost tells the turn too.
        held, version = len(table.record.held_events), table.version
        outcome = replace(outcome, moves=self.service.held_moves(table), events=self.service.held_events(table))
        post = await self.board_post(outcome, headline, locale)
        images = post.pop("images")
        found = await self.channel_of(table)
        # Fresh File objects on each attempt: a retried send must not read an exhausted buffer. The nonce
        # makes a retry of a post Discord already took return that post instead of a second board.
        nonce = nonce or f"pbc{table.record.id}v{table.version}"
        posted = None if found is None else await deliver(lambda: found[0].send(
            **post, nonce=nonce, files=[discord.File(io.BytesIO(data), name) for name, data in images],
        ), f"the board of table {table.record.id}", (self.post_retry_delay,))
        if posted is None:
            self.refused.add(table.record.id)  # a repost says Discord refused it (not a restart)
            if repost:
                await self.service.set_board_due(table, True)
                self.schedule_repost(table, locale)
            return None
        self.refused.discard(table.record.id)
        await self.service.board_posted(table, held, version)
        await self.on_board_posted(outcome, posted)
        return posted

    def repost_headline(self, table: Table, locale: str) -> str:
        """The header of a board posted late: Discord refused it earlier in this process, or the bot stopped
        (or crashed) before it could post it, and this process posts it after its start."""
        key = "game.reposted" if table.record.id in self.refused else "game.posted_late"
        return t(public_locale(table, locale), key)

    async def board_post(self, outcome: MoveOutcome, headline: str | None, locale: str,
                         private: bool = False) -> dict[str, Any]:
        """What a board post says, in ``locale``: ``content`` (the game over, or the players to move
        mentioned, with the deadline or the pause), ``embeds`` (the headline, what happened, the standings,
        the board image; at the end the game's own), ``view``, ``allowed_mentions`` (the players to move
        only; nobody for a ``private`` copy, which only its reader sees) and ``images`` (file name, PNG)."""
        table = outcome.table
        game = table.game
        panel = self.panel(game.key)
        names = seat_names(table)
        lines = [headline] if headline else []
        lines += self.story_lines(table, outcome, names, locale)
        embed = discord.Embed(description="\n".join(lines)[:4000] or None, colour=discord.Colour.green())
        result = game.result(table.state)
        standings = standing_names(table, locale)
        embed.add_field(name=t(locale, "game.standings"),
                        value="\n".join(f"{p.rank}. {standings[p.seat]}: {p.score}" for p in result.ranking))
        mention_ids = [u for s in outcome.next_seats if (u := table.seats[s].user_id) is not None]
        content = t(locale, "game.over") if outcome.finished else " ".join(f"<@{u}>" for u in mention_ids) or None
        record = table.record
        if not outcome.finished and record.paused_at is not None:
            by = next((s.display for s in table.seats if s.user_id == record.paused_by), "?")
            content = f"{content or ''} {t(locale, 'game.status_paused', player=by)}".strip()
        elif not outcome.finished and record.deadline is not None:
            when = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
            content = f"{content or ''} {t(locale, 'clock.deadline', when=when)}".strip()
        images = await self.board_images(table, locale)
        embed.set_image(url="attachment://board.png")
        embeds = [embed, *(panel.final_embeds(table, locale) if outcome.finished else [])][:10]
        view = None if outcome.finished else panel.board_view(table, outcome, locale)
        if game.private_views and not outcome.finished:  # a "My hand" button beside the game's own
            hand = HandView(self, locale)
            view = view or discord.ui.View(timeout=None)
            for item in hand.children:
                view.add_item(item)  # routed by its custom id to the HandView registered at start
        if view is not None and view.is_persistent():
            view = detached(view)
        mentions = discord.AllowedMentions(users=[] if private else [discord.Object(u) for u in mention_ids],
                                           everyone=False, roles=False)
        post: dict[str, Any] = {"content": content, "embeds": embeds, "allowed_mentions": mentions, "images": images}
        if view is not None:
            post["view"] = view
        return post

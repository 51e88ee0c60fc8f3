"""``/game replay``: a finished game of the channel as an animated image (one frame per turn, the last held)
with its record as a JSON file anyone can download and replay (``python -m bot replay FILE``). A mixin of the
``/game`` cog (``GameCog``), so the command sits in its group.

Only finished games: a record holds the seed, which tells the deck order of a game still in play."""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import rendering
from bot import replay as records
from bot.i18n import t
from bot.store import TableRecord
from bot.tables import READ_RESULTS_WITHIN, TableError, TableSettings
from cogs.common import ack, answer, error_text, locale_of, where
from games import registry
from rendering.replay import ReplayTooLarge, animate

# Replays take seconds of CPU (a board per turn): one is built at a time, so games in play stay quick, and
# the latest are kept (a finished game never changes), so a replay asked for again is posted at once.
_building: dict[int, asyncio.Semaphore] = {}
_built: OrderedDict[tuple[int, float, str], tuple[bytes, int]] = OrderedDict()  # by table id, creation, language
KEPT_BYTES = 32 * 1024 * 1024


def keep(key: tuple[int, float, str], built: tuple[bytes, int]) -> None:
    _built[key] = built
    while sum(len(data) for data, _ in _built.values()) > KEPT_BYTES and len(_built) > 1:
        _built.popitem(last=False)


def build(record: TableRecord, data: dict[str, Any], locale: str) -> tuple[bytes, int]:
    """The animation (WebP) of a record's positions, drawn from the spectators' views, and its frame count."""
    names = [s.display for s in sorted(record.seats, key=lambda s: s.position)]
    frames = [rendering.render_board(record.game, view, locale, names) for view in records.replay_views(data)]
    captions = records.frame_captions(len(frames), locale)  # a turn counter; a pace that fits the players
    return animate(frames, players=len(names), captions=captions)[0], len(frames)


def record_error_text(locale: str, error: records.RecordError) -> str:
    return t(locale, f"replay.error.{error.code}", **error.params)


if TYPE_CHECKING:  # the commands' ``self`` is the cog they are mixed into
    from discord.ext.commands import Cog as CommandsMixin
else:
    CommandsMixin = object

class ReplayCommands(CommandsMixin):
    """The command, mixed into ``GameCog`` (``self.service`` is the table service)."""

    service: Any

    @app_commands.command(name=_("replay"), description=_("A finished game as an animation, with its record"))
    @app_commands.describe(game=_("A finished game's number from /game history (the latest if left out)"))
    @app_commands.rename(game=_("game"))
    async def replay(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1, 2**53] | None = None) -> None:
        locale = locale_of(interaction)
        store = self.service.store
        # Checked before the answer, which is public: a refusal stays private.
        if game is None:
            await self.service.results_recorded(within=READ_RESULTS_WITHIN)
            latest = await store.finished_games(where(interaction), 1)
            record = latest[0][0] if latest else None
        else:
            record = await store.table_record(game)
        if record is None or record.channel_id != where(interaction) or record.status != "finished":
            return await answer(interaction, error_text(locale, TableError(
                "no_finished_game" if game is None else "not_a_finished_game", game=game or 0)))
        data = records.game_record(record, await store.moves(record.id))
        try:
            records.check_record(data)
        except records.RecordError as error:
            return await answer(interaction, record_error_text(locale, error))
        await ack(interaction, public=True)
        locale = TableSettings.from_json(record.settings).language or locale  # a public post: the table's language
        gate = _building.setdefault(id(asyncio.get_running_loop()), asyncio.Semaphore(1))
        try:
            async with gate:
                key = (record.id, record.created_at, locale)
                if key not in _built:
                    keep(key, await asyncio.to_thread(build, record, data, locale))
                _built.move_to_end(key)
                animation, frames = _built[key]
        except records.RecordError as error:  # a move the engine now refuses
            return await answer(interaction, record_error_text(locale, error))
        except ReplayTooLarge:
            return await answer(interaction, t(locale, "replay.too_large"))
        name = registry.get(record.game).names.get(locale, record.game)
        stem = f"{record.game}-{record.id}"
        files = [discord.File(io.BytesIO(animation), f"{stem}.webp"),
                 discord.File(io.BytesIO(records.record_json(data)), f"{stem}.json")]
        await answer(interaction, t(locale, "replay.posted", game=name, id=record.id,
                                    turns=t(locale, "replay.turns", count=frames - 1)), files=files)

"""The table service's lobby: a table opened, seats taken and left, AI seats, the start and the abort; and the
waits of the commands that read a table (``current``, ``settled``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

from bot.errors import TableError, echo
from bot.service_base import ServiceBase
from bot.service_results import READ_RESULTS_WITHIN
from bot.store import Seat
from bot.table import BrokenTable, MoveOutcome, Table
from bot.table_settings import DEFAULT_TURN_SECONDS, TableSettings
from games import registry
from games.ai import DEFAULT_LEVEL, LEVELS
from games.core import AnyGame


class LobbyMixin(ServiceBase):
    # -- lobby ----------------------------------------------------------------------------------
    async def create(
        self, guild_id: int | None, channel_id: int, game_key: str, host_id: int, host_name: str,
        options: dict[str, Any] | None = None, seed: int | None = None, turn_seconds: int = DEFAULT_TURN_SECONDS,
        settings: TableSettings | None = None,
    ) -> Table:
        await self.settled(channel_id)  # a game ending or a table closing there: a new one may follow it
        game, stored = self.check_new(channel_id, game_key, options)
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        settings_json = (settings or TableSettings()).to_json()
        host = Seat(0, host_id, host_name)
        # The table's lock, held from now until the table is in the cache: a join or start sent as soon as
        # this command was acknowledged waits for it in line (on PostgreSQL the write is a network round trip)
        # instead of finding no table.
        lock = self._opening[channel_id] = asyncio.Lock()
        await lock.acquire()  # a new lock: taken at once
        try:
            try:
                record = await self.store.create_table(guild_id, channel_id, game_key, stored, host_id, seed,
                                                       self.clock(), seats=[host], turn_seconds=turn_seconds,
                                                       settings=settings_json)
            except ValueError:  # another process opened one there first
                raise TableError("table_exists") from None
            table = Table(record, game)
            table.lock = lock
            self.tables[channel_id] = table
            return table
        finally:
            del self._opening[channel_id]
            lock.release()

    async def current(self, channel_id: int, within: float = READ_RESULTS_WITHIN) -> Table:
        """The channel's table for a command that only reads it, once the commands acknowledged before are
        applied (waiting at most ``within`` seconds: a reader answers within Discord's 3 s). Raises as ``table``."""
        await self.settled(channel_id, within)
        return self.table(channel_id)

    def busy(self, channel_id: int) -> bool:
        """Whether a command is being applied at the channel's table (or one is being opened there)."""
        if channel_id in self._opening:
            return True
        table = self.tables.get(channel_id)
        return table is not None and table.lock.locked()

    async def settled(self, channel_id: int, within: float | None = None) -> None:
        """Wait until the commands being applied at the channel's table are done (at most ``within`` seconds),
        so a command that reads sees what the commands acknowledged before it did. The channel's commands wait
        for each other in line: a lock is first come, first served."""
        lock = self._opening.get(channel_id)
        if lock is None and (table := self.tables.get(channel_id)) is not None:
            lock = table.lock
        if lock is None or not lock.locked():
            return
        async def in_line() -> None:
            async with lock:
                pass
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(in_line(), within)

    def check_new(self, channel_id: int, game_key: str, options: dict[str, Any] | None) -> tuple[AnyGame, dict[str, str]]:
        """Everything ``create`` checks before it writes (no I/O, so a command can check before it answers):
        the channel is free, the game exists, and its options pass the game's own setup check, so options it
        refuses (a deck with unknown tiles...) are refused now, not at Start. Returns the game and the
        options as stored."""
        if channel_id in self.tables or channel_id in self.broken or channel_id in self._opening:
            raise TableError("table_exists")
        if not registry.has(game_key):
            raise TableError("unknown_game", game=echo(game_key))
        game = registry.get(game_key)
        parsed = game.parse_options(options)  # InvalidOptions is an IllegalAction: the caller localises it
        stored = {spec.name: spec.format(parsed[spec.name]) for spec in game.option_specs}
        for players in (game.min_players, game.max_players):  # every player count must be possible
            game.setup(players, stored, 0)
        return game, stored

    async def _reseat(self, table: Table, seats: list[Seat]) -> None:
        for position, seat in enumerate(seats):
            seat.position = position
        await self.store.save_seats(table.record.id, seats)
        table.record.seats = seats

    async def join(self, channel_id: int, user_id: int, name: str) -> Table:
        async with self._locked(channel_id, "lobby") as table:
            if table.seat_of(user_id):
                raise TableError("already_seated")
            if len(table.seats) >= table.game.max_players:
                raise TableError("table_full", maximum=table.game.max_players)
            await self._reseat(table, [*table.seats, Seat(0, user_id, name)])
        return table

    async def leave(self, channel_id: int, user_id: int) -> Table:
        async with self._locked(channel_id, "lobby") as table:
            if not table.seat_of(user_id):
                raise TableError("not_seated")
            if user_id == table.record.host_id:
                raise TableError("host_cannot_leave")
            await self._reseat(table, [s for s in table.seats if s.user_id != user_id])
        return table

    async def add_ai(self, channel_id: int, user_id: int, level: str = DEFAULT_LEVEL) -> Table:
        """Seat a built-in AI player of ``level`` (easy, normal or hard)."""
        if level not in LEVELS:
            raise TableError("bad_ai_level", value=echo(level), choices=", ".join(LEVELS))
        async with self._locked(channel_id, "lobby") as table:
            self._require_host(table, user_id, manage_channels=False, action="ai")
            if len(table.seats) >= table.game.max_players:
                raise TableError("table_full", maximum=table.game.max_players)
            number = sum(1 for s in table.seats if s.is_ai) + 1
            await self._reseat(table, [*table.seats, Seat(0, None, f"AI {number}", ai_level=level)])
        return table

    async def remove_ai(self, channel_id: int, user_id: int) -> Table:
        async with self._locked(channel_id, "lobby") as table:
            self._require_host(table, user_id, manage_channels=False, action="ai")
            ai_seats = [s for s in table.seats if s.is_ai]
            if not ai_seats:
                raise TableError("no_ai_seat")
            await self._reseat(table, [s for s in table.seats if s is not ai_seats[-1]])
        return table

    @staticmethod
    def _require_host(table: Table, user_id: int, manage_channels: bool, action: str = "control") -> None:
        """Host controls. ``action`` names who may: ``control`` (the host or a member with Manage Channels)
        or a host-only one (``start``, ``ai``), so the refusal says exactly who can."""
        if user_id != table.record.host_id and not (manage_channels and action == "control"):
            raise TableError("host_only" if action == "control" else f"host_only_{action}")

    async def start(self, channel_id: int, user_id: int) -> MoveOutcome:
        async with self._locked(channel_id, "lobby") as table:
            self._require_host(table, user_id, manage_channels=False, action="start")
            count = len(table.seats)
            if not table.game.min_players <= count <= table.game.max_players:
                raise TableError("player_count", count=count, minimum=table.game.min_players,
                                 maximum=table.game.max_players)
            state = table.game.setup(count, table.record.options, table.record.seed)
            # Seats, the first snapshot, "playing" and the first board due: one transaction.
            await self.store.start_game(table.record.id, table.seats, table.game.dumps(state))
            table.state, table.version, table.snapshot_version, table.record.status = state, 0, 0, "playing"
            self._rebuilt_on_use(table)
            table.record.board_due = True
            # AI seats that open the game move at once.
            opening = [(0, event) for event in table.game.initial_events(state)]
            return await self._commit(table, state, [], opening, before=None)

    async def abort(self, channel_id: int, user_id: int, manage_channels: bool = False) -> Table | BrokenTable:
        broken = self.broken.get(channel_id)
        if broken is not None and channel_id not in self.tables:
            if user_id != broken.host_id and not manage_channels:
                raise TableError("host_only")
            await self.store.set_status(broken.table_id, "aborted", self.clock())
            del self.broken[channel_id]
            return broken
        async with self._locked(channel_id) as table:
            self._require_host(table, user_id, manage_channels)
            await self.store.set_status(table.record.id, "aborted", self.clock())
            table.record.status = "aborted"
            del self.tables[channel_id]
            self._recent.pop(channel_id, None)
        self._clock_changed(table)
        return table

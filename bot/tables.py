"""The table service: lobby, seats, turns and permissions, over a store. No Discord in here.

Every state change of a table happens under that table's lock, and what was checked before the lock
is checked again inside it (``_locked``), so two clicks at once see one after the other. A move is
applied to the table's live state and committed with a version check; a rejected move leaves the state
untouched (the engine contract), and after a failed commit the table goes back to the state the store holds
(its latest snapshot and the moves logged after it), so a rejected or failed move changes nothing.

The service is made of parts, one concern each: the lobby (``bot.service_lobby``), play and commits
(``bot.service_play``), the clock (``bot.service_clock``), results and what the channel is told
(``bot.service_results``). This module holds the cache of tables and its lookups, and is where the rest of
the bot imports the service and its types from (``__all__``).
"""

from __future__ import annotations

import asyncio
import gc
import heapq
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from bot.ai_thinker import AI_WORKER_GRACE, HARD_AI_SECONDS, AIThinker, think_in_worker
from bot.errors import ECHO_LIMIT, TableError, echo
from bot.notations import NOTATION_KEPT_LENGTH, NOTATIONS_KEPT, Notations
from bot.service_clock import STALE_WAKES_KEPT, ClockMixin
from bot.service_lobby import LobbyMixin
from bot.service_play import SNAPSHOT_EVERY, PlayMixin
from bot.service_results import READ_RESULTS_WITHIN, ResultsMixin
from bot.store import Store, TableRecord
from bot.store.base import IndexRow
from bot.table import (
    BROKEN_CAUSES,
    ELIMINATED,
    LOG_MARK,
    MOVE,
    REPLACED_BY_AI,
    BrokenTable,
    ClockUpdate,
    MoveOutcome,
    Table,
    TurnKey,
    Unplayable,
    turn_key,
)
from bot.table_settings import (
    AUTO,
    DEFAULT_TURN_SECONDS,
    DURATION_UNITS,
    MAX_RESUME_WAIT_SECONDS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    PAUSES_PER_PLAYER,
    REMINDER_MIN_TURN_SECONDS,
    RESUME_WAIT_SECONDS,
    SHOWN_UNITS,
    TIMEOUT_POLICIES,
    TableSettings,
    format_duration,
    format_reminders,
    next_reminder,
    parse_duration,
    parse_reminders,
    reminder_offsets,
    reminder_schedule,
    settings_changes,
    wake_time,
)
from games import registry
from games.core import AnyGame, IllegalAction

log = logging.getLogger(__name__)

# Python's cycle collector looks at the young objects every 700 allocations by default, following each of their
# references; the service allocates a few hundred objects a move (events, the story told, futures) beside many
# long-lived game states, and at the default it spent about a sixth of its time collecting (measured with
# benchmarks/bench_table_service.py, Trails 2 players, 50 tables at once). Collecting every 20,000 allocations
# frees the same cycles a few megabytes later.
GC_THRESHOLDS = (20_000, 10, 10)
MAX_DECODED_TABLES = 2000  # states of loaded tables kept in memory; idle ones beyond are read again when used


def tune_garbage_collector() -> None:
    """The collector's thresholds for a process that runs the table service: the bot and its benchmarks."""
    gc.set_threshold(*GC_THRESHOLDS)


class _Locked:
    """``async with service._locked(channel, status) as table``: a class rather than a generator-based context
    manager, which costs a few microseconds more on every move."""

    __slots__ = ("channel_id", "service", "status", "table")

    def __init__(self, service: TableService, channel_id: int, status: str | None) -> None:
        self.service, self.channel_id, self.status = service, channel_id, status

    async def __aenter__(self) -> Table:
        service, status, channel_id = self.service, self.status, self.channel_id
        lock = service._opening.get(channel_id)  # a table being opened: this waits for it, in line
        if lock is None:
            table = service.table(channel_id)
            lock = table.lock
            if status is not None and lock.locked():  # refused at once rather than after the wait
                service._require_status(table, status)
        await lock.acquire()
        try:
            table = service.tables.get(channel_id)
            if table is None or table.lock is not lock:
                raise TableError("no_table")  # aborted, finished or not opened after all while this waited
            if status is not None:
                service._require_status(table, status)
        except BaseException:
            lock.release()
            raise
        self.table = table
        return table

    async def __aexit__(self, *exc_info: object) -> None:
        self.table.lock.release()


class TableService(LobbyMixin, PlayMixin, ClockMixin, ResultsMixin):
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.tables: dict[int, Table] = {}  # channel id -> active table
        self.broken: dict[int, BrokenTable] = {}  # channel id -> a stored table that could not be loaded
        self.finished_due: list[Table] = []  # finished before a restart with the last board not posted yet
        self._opening: dict[int, asyncio.Lock] = {}  # channel id -> the lock of the table being opened there
        self.on_deadline_change: Callable[[], None] = lambda: None  # wakes the turn clock
        # Whether this process runs a guild's tables (Discord shards: each process loads, clocks and reminds only
        # the tables of the guilds on its shards; guild None is a DM, on shard 0).
        self.owns_guild: Callable[[int | None], bool] = lambda guild_id: True
        # When each table next needs the clock (its deadline or next reminder), in a heap: the clock's pass
        # costs O(log n) per table due, not a scan of every table. Entries whose time is no longer the
        # table's (``_wake_at``) are stale and skipped.
        self._wakes: list[tuple[float, int]] = []
        self._wake_at: dict[int, float] = {}
        self.max_decoded = MAX_DECODED_TABLES
        self._recent: OrderedDict[int, Table] = OrderedDict()  # tables whose stored state was decoded
        self._recordings: set[asyncio.Task[None]] = set()  # results of games just finished, being recorded
        self.ai = AIThinker()
        self.notations = Notations()

    async def load(self) -> None:
        """Rebuild the cache of active tables from the store (at start). A table that cannot be loaded is
        set aside and logged; every other table plays, and the broken one's channel is told on first use."""
        self.tables.clear()
        self.broken.clear()
        self.finished_due.clear()
        self._wakes, self._wake_at = [], {}
        rows = await self.store.table_index()
        # Many small objects at once: the cyclic garbage collector would scan them again and again (half the
        # start-up time at 100,000 tables); none of them is garbage.
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._index(rows)
        finally:
            if collecting:
                gc.enable()

    def _index(self, rows: list[IndexRow]) -> None:
        """The tables of the start-up index: routed by channel, in the clock's heap, read on first use."""
        offsets_of: dict[tuple[str, int], tuple[float, ...]] = {}  # (settings JSON, turn time) -> reminders (few distinct)
        for row in rows:
            if not self.owns_guild(row.guild_id):
                continue
            if row.status == "finished":  # only its last board is still due: a few, read whole
                record = self.store.table_record_now(row.id)
                if record is not None:
                    self._set_aside_or_add(record)
                continue
            try:
                if not registry.has(row.game):
                    raise Unplayable("not_installed", f"game {row.game!r} is not installed")
                if row.status == "playing" and row.version is None:
                    raise ValueError("no snapshot of a game in play")
                kind = (row.settings, row.turn_seconds)
                if kind not in offsets_of:
                    reminders = TableSettings.from_json(json.loads(row.settings)).reminders
                    offsets_of[kind] = reminder_offsets(row.turn_seconds, reminders)
                offsets = offsets_of[kind]
            except Exception as error:  # anything a bad row can raise: one table must not stop the bot
                self._set_aside(row.id, row.game, row.channel_id, row.host_id, error)
                continue
            table_id = row.id
            table = Table(None, registry.get(row.game), version=row.version or 0, index=row,
                          read_record=lambda table_id=table_id: self._read_record(table_id))
            if row.status == "playing":
                self._rebuilt_on_use(table)
            self.tables[row.channel_id] = table
            when = wake_time(row.deadline, row.reminders_sent, offsets)
            if when is not None:
                self._wake_at[row.channel_id] = when
                self._wakes.append((when, row.channel_id))
        heapq.heapify(self._wakes)

    def _read_record(self, table_id: int) -> TableRecord:
        """The record of a table indexed at start, read on its first use."""
        record = self.store.table_record_now(table_id)
        if record is None:
            raise LookupError(f"table {table_id} is not in the store")
        if record.load_error:
            raise Unplayable("unreadable", record.load_error)
        return record

    def _set_aside(self, table_id: int, game: str, channel_id: int, host_id: int, error: Exception) -> None:
        reason = f"{type(error).__name__}: {echo(error, 200)}"
        log.error("table %s (%s) in channel %s set aside: %s", table_id, game, channel_id, reason)
        self.tables.pop(channel_id, None)
        self._recent.pop(channel_id, None)
        cause = error.cause if isinstance(error, Unplayable) else "damaged"
        self.broken[channel_id] = BrokenTable(table_id, game, host_id, reason, cause)

    def _set_aside_or_add(self, record: TableRecord) -> None:
        """A finished table whose last board is due, read whole at start."""
        try:
            table = self._load_table_now(record)
        except Exception as error:  # a finished one only loses its last board
            log.error("finished table %s (%s) set aside: %s", record.id, record.game, echo(error, 200))
            return
        self.finished_due.append(table)

    def _load_table_now(self, record: TableRecord) -> Table:
        """A stored table, its state left undecoded until first use (checked here only as far as it is
        cheap: readable JSON of a version the engine knows)."""
        if record.load_error:
            raise ValueError(record.load_error)
        if not registry.has(record.game):
            raise LookupError(f"game {record.game!r} is not installed")
        game = registry.get(record.game)
        if record.status not in ("playing", "finished"):
            return Table(record, game)
        if record.snapshot_version is None or record.version is None:
            raise ValueError("no snapshot of a game in play")
        table = Table(record, game, version=record.version, snapshot_version=record.snapshot_version)
        self._rebuilt_on_use(table)
        return table

    def _rebuilt_on_use(self, table: Table) -> None:
        """The table's state is rebuilt from the store when next used (and may be let go when idle)."""
        table.loader, table.on_decode = (lambda: self._recover(table)), self._decoded

    def _recover(self, table: Table) -> Any:
        """The table's state as the store has it: the latest snapshot with the moves logged after it."""
        state, table.version, table.snapshot_version = self._recovered(table.record.id, table.game)
        return state

    def _recovered(self, table_id: int, game: AnyGame) -> tuple[Any, int, int]:
        """(state, version, snapshot version) of a table as stored; touches no table, so a worker thread may
        run it (``read_off_loop``)."""
        recovery = self.store.recovery_now(table_id)
        if recovery is None:
            raise Unplayable("unreadable", "no snapshot of a game in play")
        try:
            data = json.loads(recovery.state)
        except ValueError as error:
            raise Unplayable("unreadable", f"the snapshot is not JSON: {error}") from error
        try:
            state = game.from_json(data)
        except Exception as error:
            known = isinstance(data, dict) and data.get("v") == game.json_version
            raise Unplayable("damaged" if known else "state_version", f"the snapshot: {error}") from error
        for seat, text in recovery.moves:
            try:
                game.apply(state, seat, self.notations.parse(game, text)[0])
            except Exception as error:
                raise Unplayable("moves", f"logged move {text!r} of seat {seat}: {error}") from error
        return state, recovery.version, recovery.snapshot_version

    async def read_off_loop(self, table: Table) -> bool:
        """Read a table's record and rebuild its state on a worker thread, where its first use would do it on the
        event loop (the board queue: thousands of tables at once after an outage, each a few milliseconds).
        ``False`` if it is no longer to be played or shown: closed meanwhile, or set aside as it cannot be
        played (as on first use)."""
        async with table.lock:
            def read() -> tuple[Any, int, int] | None:
                record = table.record  # read on first use
                if table.decoded or table.loader is None or record.status not in ("playing", "finished"):
                    return None
                return self._recovered(record.id, table.game)

            try:
                found = await asyncio.to_thread(read)
            except Exception as error:
                index = table.index  # a table of the start-up index: its record may be what failed
                if index is not None and self.tables.get(index.channel_id) is table:
                    self._broken_on_use(table, error)  # its channel hears why at its next command
                else:  # a finished game read whole at start: only its last board is lost
                    log.error("finished table %s set aside: %s", table.record.id, echo(error, 200))
                return False
            if found is not None and not table.decoded:
                table.state, table.version, table.snapshot_version = found
                self._decoded(table)
            return table.record.status in ("playing", "finished")

    def _decoded(self, table: Table) -> None:
        """Keep at most ``max_decoded`` tables' states in memory: the least recently decoded idle ones go."""
        channel = table.record.channel_id
        self._recent[channel] = table
        self._recent.move_to_end(channel)
        while len(self._recent) > self.max_decoded:
            _, oldest = self._recent.popitem(last=False)
            if oldest is not table and not oldest.unload():
                self._recent[oldest.record.channel_id] = oldest  # busy: kept, and tried again later
                break

    def table(self, channel_id: int) -> Table:
        table = self.tables.get(channel_id)
        if table is not None:
            try:  # read on first use: a record or a state that cannot be played is broken
                if table.record.status == "playing" and not table.decoded:
                    table.game.to_act(table.state)
            except Exception as error:
                self._broken_on_use(table, error)
                table = None
        if table is None:
            broken = self.broken.get(channel_id)
            if broken is not None:
                raise TableError("table_broken", table_id=broken.table_id, game=broken.game, cause=broken.cause)
            raise TableError("no_table")
        return table

    def _broken_on_use(self, table: Table, error: Exception) -> None:
        """A table whose record or state, read on first use, cannot be played: set aside."""
        index = table.index
        table_id, channel_id, host_id = (index.id, index.channel_id, index.host_id) if index is not None else (
            table.record.id, table.record.channel_id, table.record.host_id)
        self._set_aside(table_id, table.game.key, channel_id, host_id, error)

    def _locked(self, channel_id: int, status: str | None = None) -> _Locked:
        """The channel's table under its lock, checked again once the lock is held: a Start, an abort or the
        game's end that came first wins, and whoever waited sees the table as it is now."""
        return _Locked(self, channel_id, status)

    @staticmethod
    def _require_status(table: Table, status: str) -> None:
        if status == "lobby" and table.record.status != "lobby":
            raise TableError("already_started")
        if status == "playing" and (table.record.status != "playing" or table.state is None):
            raise TableError("not_started")


__all__ = [
    "AIThinker",
    "AI_WORKER_GRACE",
    "AUTO",
    "BROKEN_CAUSES",
    "BrokenTable",
    "ClockUpdate",
    "DEFAULT_TURN_SECONDS",
    "DURATION_UNITS",
    "ECHO_LIMIT",
    "ELIMINATED",
    "GC_THRESHOLDS",
    "HARD_AI_SECONDS",
    "IllegalAction",
    "LOG_MARK",
    "MAX_DECODED_TABLES",
    "MAX_RESUME_WAIT_SECONDS",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "MOVE",
    "MoveOutcome",
    "NOTATIONS_KEPT",
    "NOTATION_KEPT_LENGTH",
    "Notations",
    "PAUSES_PER_PLAYER",
    "READ_RESULTS_WITHIN",
    "REMINDER_MIN_TURN_SECONDS",
    "REPLACED_BY_AI",
    "RESUME_WAIT_SECONDS",
    "SHOWN_UNITS",
    "SNAPSHOT_EVERY",
    "STALE_WAKES_KEPT",
    "TIMEOUT_POLICIES",
    "Table",
    "TableError",
    "TableService",
    "TableSettings",
    "TurnKey",
    "Unplayable",
    "echo",
    "format_duration",
    "format_reminders",
    "next_reminder",
    "parse_duration",
    "parse_reminders",
    "reminder_offsets",
    "reminder_schedule",
    "settings_changes",
    "think_in_worker",
    "tune_garbage_collector",
    "turn_key",
    "wake_time",
]

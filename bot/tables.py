"""The table service: lobby, seats, turns and permissions, over a store. No Discord in here.

Every state change of a table happens under that table's lock, and what was checked before the lock
is checked again inside it (``_locked``), so two clicks at once see one after the other. A move is
applied to the table's live state and committed with a version check; a rejected move leaves the state
untouched (the engine contract), and after a failed commit the table goes back to the state the store holds
(its latest snapshot and the moves logged after it), so a rejected or failed move changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import heapq
import json
import logging
import multiprocessing
import os
import random
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from bot import ratings
from bot.errors import TableError
from bot.i18n import LOCALES
from bot.store import Seat, Store, TableRecord, VersionConflict
from bot.store.base import IndexRow
from games import registry
from games.ai import DEFAULT_LEVEL, LEVELS, forward_actions, make_player, plan_of
from games.core import AnyGame, Event, IllegalAction

log = logging.getLogger(__name__)


class Table:
    """A table in the service's cache: its record, its game, and the engine state once playing. A table
    indexed at start reads its record on first use (``read_record``) and rebuilds its state on first use
    (``loader``: the latest snapshot and the moves logged after it), and an idle one may let its state go again
    (``unload``), so the bot is online at once however many tables are stored, and only the tables in use
    take memory (decoding a late Trails game replays every tile)."""

    __slots__ = ("_record", "_settings", "_state", "game", "index", "loader", "lock", "on_decode", "read_record",
                 "snapshot_version", "version")

    def __init__(self, record: TableRecord | None, game: AnyGame, state: Any = None, version: int = 0,
                 loader: Callable[[], Any] | None = None, snapshot_version: int = 0,
                 index: IndexRow | None = None, read_record: Callable[[], TableRecord] | None = None) -> None:
        self._record, self.game, self.version = record, game, version
        self.index = index  # what start-up read of the table (when its record is read on first use)
        self.read_record = read_record
        self.snapshot_version = snapshot_version  # moves in the stored snapshot (the rest are replayed)
        self._state = state
        self.loader = loader  # the state rebuilt from the store, now
        self.on_decode: Callable[[Table], None] = lambda table: None
        self.lock = asyncio.Lock()
        self._settings: tuple[dict[str, Any], TableSettings] | None = None  # parsed from the record's JSON

    @property
    def record(self) -> TableRecord:
        if self._record is None:
            if self.read_record is None:
                raise RuntimeError("a table with neither a record nor a way to read it")
            self._record = self.read_record()
        return self._record

    @record.setter
    def record(self, value: TableRecord) -> None:
        self._record = value

    @property
    def board_due(self) -> bool:
        """Whether the latest board is still to be posted (without reading the record, if not read yet)."""
        if self._record is None and self.index is not None:
            return bool(self.index.board_due)
        return self.record.board_due

    @property
    def status(self) -> str:
        """lobby, playing, finished or aborted (without reading the record, if not read yet)."""
        if self._record is None and self.index is not None:
            return self.index.status
        return self.record.status

    @property
    def turn_began(self) -> float:
        """When the current turn began, as far as known without reading the record (its deadline less the turn
        time); a finished game: when it ended; a paused one, or a lobby: 0."""
        row: IndexRow | TableRecord = self.index if self._record is None and self.index is not None else self.record
        if isinstance(row, TableRecord) and row.finished_at is not None:
            return row.finished_at
        return row.deadline - row.turn_seconds if row.deadline is not None else 0.0

    @property
    def guild_id(self) -> int | None:
        if self._record is None and self.index is not None:
            return self.index.guild_id
        return self.record.guild_id

    @property
    def state(self) -> Any:
        """The engine state (``None`` in the lobby)."""
        if self._state is None and self.loader is not None:
            self._state = self.loader()
            self.on_decode(self)
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._state = value

    @property
    def decoded(self) -> bool:
        """Whether the state is in memory (decoded and checked on its first use since it was let go)."""
        return self._state is not None

    def unload(self) -> bool:
        """Let the decoded state go (it is read again on next use), unless the table is busy."""
        if self.loader is None or self.lock.locked() or self._state is None:
            return False
        self._state = None
        return True

    @property
    def seats(self) -> list[Seat]:
        return self.record.seats

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def settings(self) -> TableSettings:
        """Parsed once per settings value (a change of settings stores a new dict: see ``update_settings``)."""
        data = self.record.settings
        if self._settings is None or self._settings[0] is not data:
            self._settings = (data, TableSettings.from_json(data))
        return self._settings[1]


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


@dataclass(slots=True)
class MoveOutcome:
    table: Table
    moves: list[tuple[int, str]]  # (seat, notation) applied, the player's first, then any AI replies
    events: list[tuple[int, Event]]
    finished: bool
    next_seats: list[int]
    timeout: str | None = None  # what a missed deadline did: "default", "eliminated" or "replaced" (by an AI)
    timed_out_seat: int | None = None
    # Whether the channel hears of it with a board: a turn ended (or the game), not a step of a turn. Such a
    # board is marked due in the move's own transaction and stays due until it is posted.
    announce: bool = True


TurnKey = tuple[tuple[int, ...], int]  # (the seats to act, the game's turn number)
ClockUpdate = tuple[float | None, int, float | None]  # (deadline, reminders sent, time left while paused)


def turn_key(game: AnyGame, state: Any, to_act: list[int] | None = None) -> TurnKey:
    """What changes exactly when a new turn begins, also when the same seat gets the turn again (``to_act``:
    the seats to act, when the caller has just asked)."""
    return tuple(game.to_act(state) if to_act is None else to_act), game.turn_number(state)


@dataclass(frozen=True, slots=True)
class BrokenTable:
    """A stored table that could not be loaded (corrupt snapshot, game no longer installed, ...)."""

    table_id: int
    game: str
    host_id: int
    reason: str  # for the log
    cause: str = "damaged"  # for the channel: one of BROKEN_CAUSES


# What the channel is told of a table set aside (``error.broken.<cause>``): the game is not installed, its saved
# position is not readable, it was saved by a version of the game this bot does not know, a saved move no
# longer replays, or anything else in its stored row.
BROKEN_CAUSES = ("not_installed", "unreadable", "state_version", "moves", "damaged")


class Unplayable(Exception):
    """A stored table that cannot be played, and why (one of ``BROKEN_CAUSES``)."""

    def __init__(self, cause: str, detail: object) -> None:
        super().__init__(detail)
        self.cause = cause


LOG_MARK = "@"  # begins the log entries that are not the game's notation (replayed from a snapshot, never)
ELIMINATED = "@eliminated"  # move-log entry for a seat removed by the clock or a host
REPLACED_BY_AI = "@replaced_by_ai"  # move-log entry for a seat handed to an AI player instead
MOVE = "@move"  # a held entry that is a move (in notation), beside the held events
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 30, 14 * 86400
# A table's snapshot is written every this many moves (and at the end, and with any move the engine cannot
# replay); the moves between are the log's, replayed on recovery. A move's commit is then one small insert.
SNAPSHOT_EVERY = 50  # a rebuild replays at most 49 moves: a few milliseconds in the slowest engine
# Python's cycle collector looks at the young objects every 700 allocations by default, following each of their
# references; the service allocates a few hundred objects a move (events, the story told, futures) beside many
# long-lived game states, and at the default it spent about a sixth of its time collecting (measured with
# benchmarks/bench_table_service.py, Trails 2 players, 50 tables at once). Collecting every 20,000 allocations
# frees the same cycles a few megabytes later.
GC_THRESHOLDS = (20_000, 10, 10)
NOTATIONS_KEPT = 4096  # parsed notations remembered (per process; all games)
NOTATION_KEPT_LENGTH = 64  # longer texts are parsed each time (a real notation is a few words)
STALE_WAKES_KEPT = 4  # the clock's heap is rebuilt when it holds this many entries per live one
MAX_DECODED_TABLES = 2000  # states of loaded tables kept in memory; idle ones beyond are read again when used
DEFAULT_TURN_SECONDS = 86400
PAUSES_PER_PLAYER = 2
REMINDER_MIN_TURN_SECONDS = 10 * 60  # shorter turns are played live: no reminders
RESUME_WAIT_SECONDS = 120  # others seated may resume someone's pause after this long
MAX_RESUME_WAIT_SECONDS = 86400
# What a missed deadline does: the rules' policy (default action, then elimination at the second miss),
# always the default action (casual tables), or elimination at once (strict tables).
TIMEOUT_POLICIES = ("standard", "default", "eliminate")
AUTO = "auto"


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's clock settings besides the turn time; stored as JSON with the table.

    ``reminders``: ``None`` is automatic (half time, and one hour before on long turns; none on live
    turns), ``()`` none, else entries ``"half"`` or seconds before the deadline."""

    reminders: tuple[str | int, ...] | None = None
    timeout: str = "standard"
    ai_replaces: bool = False
    resume_wait: int = RESUME_WAIT_SECONDS
    language: str | None = None  # of the table's public posts (the host's at creation); None: the guild's

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        reminders = data.get("reminders", AUTO)
        return cls(None if reminders == AUTO else tuple(reminders), data.get("timeout", "standard"),
                   bool(data.get("ai_replaces", False)), int(data.get("resume_wait", RESUME_WAIT_SECONDS)),
                   data.get("language"))

    def to_json(self) -> dict[str, Any]:
        return {"reminders": AUTO if self.reminders is None else list(self.reminders), "timeout": self.timeout,
                "ai_replaces": self.ai_replaces, "resume_wait": self.resume_wait, "language": self.language}


# Units of a duration as players type them, in English and in Russian ("24h", "24ч", "10 мин").
DURATION_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400,
                  "с": 1, "сек": 1, "м": 60, "мин": 60, "ч": 3600, "д": 86400, "дн": 86400}
SHOWN_UNITS = {"en": ("d", "h", "m", "s"), "ru": ("д", "ч", "м", "с")}


def tune_garbage_collector() -> None:
    """The collector's thresholds for a process that runs the table service: the bot and its benchmarks."""
    gc.set_threshold(*GC_THRESHOLDS)


def parse_duration(text: str, minimum: int = MIN_TURN_SECONDS, maximum: int = MAX_TURN_SECONDS) -> int:
    """``90s``, ``10m``, ``24h``, ``3d`` (or ``24ч``, ``10 мин``, ``3д``) or plain seconds -> seconds within
    ``minimum``..``maximum`` (by default the allowed turn times)."""
    text = text.strip().lower()
    shown = echo(text)
    # Short plain decimals only: no "1e400", "inf", "nan" or thousands of digits (OverflowError, slow int()).
    found = re.fullmatch(r"(\d{1,9}(?:[.,]\d{1,3})?)\s*([^\W\d_]*)", text)
    unit = (DURATION_UNITS.get(found[2], 0) if found[2] else 1) if found else 0
    if found is None or not unit:
        raise TableError("bad_duration", value=shown)
    number = found[1].replace(",", ".")
    seconds = int(float(number) * unit)
    if not minimum <= seconds <= maximum:
        raise TableError("bad_duration", value=shown)
    return seconds


ECHO_LIMIT = 100


def echo(text: Any, limit: int = ECHO_LIMIT) -> str:
    """User text quoted back in a reply, cut to ``limit`` characters (Discord replies hold 2,000)."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_duration(seconds: int, locale: str = "en") -> str:
    """The shortest exact form: 86400 -> ``1d``, 5400 -> ``90m``, 45 -> ``45s`` (in Russian ``1д``, ``90м``)."""
    days, hours, minutes, secs = SHOWN_UNITS.get(locale, SHOWN_UNITS["en"])
    for unit, size in ((days, 86400), (hours, 3600), (minutes, 60)):
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}{secs}"


def parse_reminders(text: str) -> tuple[str | int, ...] | None:
    """``auto``, ``none``, or a comma list of ``half`` and times before the deadline (``half,1h,10m``)."""
    text = text.strip().lower()
    if text == AUTO:
        return None
    if text in ("none", "off", "0"):
        return ()
    entries: list[str | int] = []
    for piece in filter(None, (p.strip() for p in text.split(","))):
        entry = "half" if piece == "half" else parse_duration(piece, 60, MAX_TURN_SECONDS)
        if entry not in entries:
            entries.append(entry)
    if not entries:
        raise TableError("bad_reminders", value=echo(text))
    return tuple(entries)


def format_reminders(reminders: tuple[str | int, ...] | None, locale: str = "en") -> str:
    if reminders is None:
        return AUTO
    return ",".join(r if isinstance(r, str) else format_duration(r, locale) for r in reminders) or "none"


def next_reminder(deadline: float | None, reminders_sent: int, offsets: tuple[float, ...]) -> float | None:
    """The time of the next reminder still to send (``offsets``: see ``reminder_offsets``), if any."""
    if deadline is None or reminders_sent >= len(offsets):
        return None
    return deadline - offsets[reminders_sent]


def wake_time(deadline: float | None, reminders_sent: int, offsets: tuple[float, ...]) -> float | None:
    """When the clock next has to look at a table: its next reminder while one is still to send (reminders
    come before the deadline), else its deadline."""
    reminder = next_reminder(deadline, reminders_sent, offsets)
    return deadline if reminder is None else reminder


def reminder_schedule(deadline: float | None, turn_seconds: int,
                      reminders: tuple[str | int, ...] | None) -> list[float]:
    """The reminder times of a turn ending at ``deadline`` (see ``TableService.reminder_times``)."""
    if deadline is None:
        return []
    return [deadline - before for before in reminder_offsets(turn_seconds, reminders)]


@functools.lru_cache(maxsize=1024)  # few distinct settings; asked again with every new turn
def reminder_offsets(turn_seconds: int, reminders: tuple[str | int, ...] | None) -> tuple[float, ...]:
    """How long before the deadline each reminder of a turn of ``turn_seconds`` comes, earliest first."""
    if reminders is None:
        if turn_seconds < REMINDER_MIN_TURN_SECONDS:
            return ()
        reminders = ("half", 3600) if turn_seconds > 2 * 3600 else ("half",)
    offsets = {turn_seconds / 2 if isinstance(r, str) else r for r in reminders}
    return tuple(sorted((x for x in offsets if x < turn_seconds), reverse=True))


def settings_changes(reminders: str | None = None, timeout: str | None = None, ai_replaces: bool | None = None,
                     resume_wait: str | None = None, language: str | None = None) -> dict[str, Any]:
    """User input for settings -> validated field changes of ``TableSettings`` (absent ones left out)."""
    changes: dict[str, Any] = {}
    if language is not None:
        if language not in LOCALES:
            raise TableError("bad_language", value=echo(language))
        changes["language"] = language
    if reminders is not None:
        changes["reminders"] = parse_reminders(reminders)
    if timeout is not None:
        if timeout not in TIMEOUT_POLICIES:
            raise TableError("bad_timeout_policy", value=echo(timeout))
        changes["timeout"] = timeout
    if ai_replaces is not None:
        changes["ai_replaces"] = ai_replaces
    if resume_wait is not None:
        try:
            changes["resume_wait"] = parse_duration(resume_wait, 0, MAX_RESUME_WAIT_SECONDS)
        except TableError:
            raise TableError("bad_resume_wait", value=echo(resume_wait)) from None
    return changes


# How long a command reading results (leaderboard, stats, history) waits for a game that has just ended: well
# within the 3 s an interaction has to answer; a slower write is read as it stands.
READ_RESULTS_WITHIN = 1.5
HARD_AI_SECONDS = 0.8  # the search budget of a hard AI's decision (it stops at the first check past it)
AI_WORKER_GRACE = 10.0  # beyond the budget, before a late worker is given up for a normal decision


def think_in_worker(key: str, level: str, seed: int, state_json: str, seat: int, seconds: float) -> list[str]:
    """An AI decision in a worker process: the state as the engine's JSON in, the notation of the steps it
    means to play out (the rest of its turn if it plans one, else one step)."""
    game = registry.get(key)
    state = game.from_json(json.loads(state_json))
    end = time.monotonic() + seconds
    player = make_player(key, level, seed, deadline=lambda: time.monotonic() >= end)
    return [game.format(action) for action in plan_of(player, game, state, seat)]


class AIThinker:
    """Where AI seats think, off the event loop: ``hard`` searches in a pool of worker processes (one per
    CPU, started on first use; the state goes as JSON) with a deadline per decision, so no table waits for
    another's AI; the lighter levels in a thread. ``worker`` is the function the processes run."""

    def __init__(self, processes: int | None = None, hard_seconds: float = HARD_AI_SECONDS,
                 worker: Callable[[str, str, int, str, int, float], list[str]] = think_in_worker) -> None:
        self.processes = processes or os.cpu_count() or 1
        self.hard_seconds = hard_seconds
        self.worker = worker
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            # forkserver: a clean process to fork from, not this one with its threads and open database
            self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("forkserver"))
        return self._pool

    async def steps(self, game: AnyGame, state: Any, seat: int, level: str, seed: int) -> list[Any]:
        """The steps the AI of ``seat`` means to play, the first legal now (the caller checks the others as it
        plays them). The state is only read (nothing changes it while the table is locked). A worker that
        fails or misses its deadline is logged and a normal decision is played instead."""
        if level == "hard" and len(forward_actions(game, state, seat)) > 1:
            text = game.dumps(state)
            loop = asyncio.get_running_loop()
            try:
                notations = await asyncio.wait_for(
                    loop.run_in_executor(self._executor(), self.worker, game.key, level, seed, text, seat,
                                         self.hard_seconds),
                    self.hard_seconds + AI_WORKER_GRACE)
                actions = [game.parse(notation) for notation in notations]
                if actions and actions[0] in game.legal_actions(state, seat):
                    return actions
                log.error("%s: the hard AI chose %r, not a legal action; normal plays", game.key, notations)
            except Exception as error:  # a broken pool, a worker past its deadline: the table goes on
                log.error("%s: the hard AI failed (%s: %s); normal plays", game.key, type(error).__name__, error)
            level = DEFAULT_LEVEL
        player = make_player(game.key, level, seed)
        return [await asyncio.to_thread(player.choose, game, state, seat)]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Notations:
    """Notation text -> (action, the notation as the game writes it), remembered. Parsing is a pure function
    of the text and actions are immutable (the engine contract), so the answer of one table is every table's:
    on a busy server most moves are texts seen before (and parsing one costs as much as a tenth of a move).
    Refused texts are not remembered, nor long ones (hostile input does not grow the memory)."""

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[tuple[str, str], tuple[Any, str]] = {}

    def parse(self, game: AnyGame, text: str) -> tuple[Any, str]:
        key = (game.key, text)
        known = self._known.get(key)
        if known is None:
            action = game.parse(text)
            known = action, game.format(action)
            if len(text) <= NOTATION_KEPT_LENGTH:
                if len(self._known) >= NOTATIONS_KEPT:
                    self._known.clear()  # simpler than an LRU, and a refill costs one parse per text
                self._known[key] = known
        return known


class TableService:
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

    # -- play -----------------------------------------------------------------------------------
    async def act(self, channel_id: int, user_id: int, notation: str | Sequence[str],
                  expected_version: int | None = None) -> MoveOutcome:
        """Apply one move of ``user_id``, or several in a row committed together (all or nothing: a
        turn built in a panel, e.g. place + figure + confirm). ``expected_version`` (from a button posted at
        that version) turns a stale second click into ``already_played`` instead of a move in a later position."""
        notations = [notation] if isinstance(notation, str) else list(notation)
        if not notations:
            raise TableError("not_your_turn")
        async with self._locked(channel_id, "playing") as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if expected_version is not None and expected_version != table.version:
                raise TableError("already_played")
            game = table.game
            # Moves are applied to the live state (no copy per move: decoding a late game replays every
            # tile). A refused action leaves the state untouched (the engine contract); if anything fails
            # after the state changed (a later step refused, the commit failed), the table goes back to
            # the state it has in the store.
            working = table.state
            before = turn_key(game, working)
            position, parse = seat.position, self.notations.parse
            moves: list[tuple[int, str]] = []
            events: list[tuple[int, Event]] = []
            try:
                for number, text in enumerate(notations):
                    if game.is_over(working):
                        raise TableError("game_over")
                    if position not in (before[0] if number == 0 else game.to_act(working)):
                        raise TableError("not_your_turn")
                    action, written = parse(game, text)
                    events += [(position, e) for e in game.apply(working, position, action)]
                    moves.append((position, written))
                return await self._commit(table, working, moves, events, before=before)
            except BaseException:
                if moves:
                    await self._restore(table)
                raise

    async def _restore(self, table: Table) -> None:
        """Back to the state and version the store holds (after a move that changed the live state failed)."""
        table.state = self._recover(table)

    async def expire(self, channel_id: int) -> MoveOutcome | None:
        """The deadline of the seat to move has passed: the first time, the game's default action is
        played for it; the second time, it is eliminated and the game goes on without it."""
        table = self.tables.get(channel_id)
        if table is None or table.state is None:
            return None
        async with table.lock:
            if self.tables.get(channel_id) is not table:
                return None
            deadline = table.record.deadline
            owner = table.game.turn_owner(table.state)
            if deadline is None or self.clock() < deadline or owner is None:
                return None
            game = table.game
            working = game.from_json(game.to_json(table.state))
            before = turn_key(game, table.state)
            moves: list[tuple[int, str]] = []
            events: list[tuple[int, Event]] = []
            with self._seats_kept_on_error(table):
                seat = table.seats[owner]
                seat.timeouts += 1
                policy = table.settings.timeout
                if policy == "default" or (policy == "standard" and seat.timeouts == 1):
                    # A turn may take several actions (tile, then figure, then confirm): play them all, and
                    # only them: the same seat's next turn (solo, or after an AI) gets its own full time.
                    while not game.is_over(working) and turn_key(game, working) == before and len(moves) < 50:
                        action = game.default_action(working, owner)
                        events += [(owner, e) for e in game.apply(working, owner, action)]
                        moves.append((owner, game.format(action)))
                    kind = "default"
                else:
                    kind = self._remove_seat(table, working, seat, moves, events)
                outcome = await self._commit(table, working, moves, events, before=before, seats=True, announce=True)
            outcome.timeout, outcome.timed_out_seat = kind, owner
            return outcome

    @staticmethod
    @contextlib.contextmanager
    def _seats_kept_on_error(table: Table) -> Iterator[None]:
        """Seats changed for a commit (timeouts, elimination) go back as they were if it fails."""
        kept = [replace(seat) for seat in table.seats]
        try:
            yield
        except BaseException:
            table.record.seats = kept
            raise

    def _remove_seat(self, table: Table, working: Any, seat: Seat, moves: list[tuple[int, str]],
                     events: list[tuple[int, Event]]) -> str:
        """Take a player out of the game (timeout or kick): an AI player takes the seat over if the table
        says so (the game goes on unchanged), else the seat is eliminated. Returns which happened."""
        if table.settings.ai_replaces:
            seat.user_id, seat.timeouts = None, 0  # the seat keeps its name; the announcement says who plays
            seat.ai_level = DEFAULT_LEVEL
            moves.append((seat.position, REPLACED_BY_AI))
            return "replaced"
        events += [(seat.position, e) for e in table.game.eliminate(working, seat.position)]
        moves.append((seat.position, ELIMINATED))
        seat.eliminated = True
        return "eliminated"

    # -- pauses and host controls -----------------------------------------------------------------
    async def pause(self, channel_id: int, user_id: int, manage_channels: bool = False) -> Table:
        """A seated player pauses on their own turn (two per game); the host or an admin at any time."""
        async with self._locked(channel_id, "playing") as table:
            if table.record.paused_at is not None:
                raise TableError("already_paused")
            controller = user_id == table.record.host_id or manage_channels
            seat = table.seat_of(user_id)
            if not controller:
                if seat is None:
                    raise TableError("not_seated")
                if seat.position not in table.game.to_act(table.state):
                    raise TableError("pause_own_turn")
                if seat.pauses_used >= PAUSES_PER_PLAYER:
                    raise TableError("no_pauses_left", count=PAUSES_PER_PLAYER)
                seat.pauses_used += 1
                await self.store.save_seats(table.record.id, table.seats)
            now = self.clock()
            deadline = table.record.deadline
            time_left = None if deadline is None else max(0.0, deadline - now)
            record = table.record
            record.paused_at, record.paused_by, record.time_left, record.deadline = now, user_id, time_left, None
            await self.store.set_pause(record.id, now, user_id, time_left, None)
        self._clock_changed(table)
        return table

    async def resume(self, channel_id: int, user_id: int, manage_channels: bool = False) -> Table:
        """Who paused may resume at once, as may the host or an admin; others seated after a wait."""
        async with self._locked(channel_id, "playing") as table:
            record = table.record
            if record.paused_at is None:
                raise TableError("not_paused")
            now = self.clock()
            if not (user_id in (record.paused_by, record.host_id) or manage_channels):
                if table.seat_of(user_id) is None:
                    raise TableError("not_seated")
                ready_at = record.paused_at + table.settings.resume_wait
                if now < ready_at:
                    raise TableError("resume_wait", seconds=int(ready_at - now + 0.999))
            deadline = None if record.time_left is None else now + record.time_left
            record.paused_at = record.paused_by = record.time_left = None
            record.deadline = deadline
            await self.store.set_pause(record.id, None, None, None, deadline)
        self._clock_changed(table)
        return table

    async def extend(self, channel_id: int, user_id: int, seconds: int, manage_channels: bool = False) -> Table:
        async with self._locked(channel_id, "playing") as table:
            self._require_host(table, user_id, manage_channels)
            if table.record.deadline is None:
                raise TableError("no_deadline")
            table.record.deadline += seconds
            await self.store.set_clock(table.record.id, table.record.deadline,
                                       reminders_sent=table.record.reminders_sent)
        self._clock_changed(table)
        return table

    async def update_settings(self, channel_id: int, user_id: int, manage_channels: bool = False,
                              turn_seconds: int | None = None, **changes: Any) -> Table:
        """The host or a member with Manage Channels changes the clock settings (``changes``: fields of
        ``TableSettings``), only in the lobby or while paused, so no running turn changes under a player."""
        async with self._locked(channel_id) as table:
            self._require_host(table, user_id, manage_channels)
            if table.record.status != "lobby" and table.record.paused_at is None:
                raise TableError("settings_when_paused")
            settings = replace(table.settings, **changes)
            table.record.turn_seconds = turn_seconds or table.record.turn_seconds
            table.record.settings = settings.to_json()
            await self.store.set_settings(table.record.id, table.record.turn_seconds, table.record.settings)
        self._clock_changed(table)  # other reminders
        return table

    def my_turns(self, guild_id: int | None, user_id: int) -> list[tuple[Table, float | None]]:
        """The user's tables in this server where it is their turn, soonest deadline first."""
        found = []
        for table in self.tables.values():
            if table.guild_id != guild_id:  # other servers' tables are not read
                continue
            seat = table.seat_of(user_id)
            if seat is None or table.state is None:
                continue
            if seat.position in table.game.to_act(table.state):
                found.append((table, table.record.deadline))
        return sorted(found, key=lambda item: (item[1] is None, item[1] or 0))

    async def substitute(self, channel_id: int, user_id: int, old_user: int, new_user: int, new_name: str,
                         manage_channels: bool = False) -> Table:
        """Hand a seat to another member; the seat keeps its state (score, hand, timeouts, pauses)."""
        async with self._locked(channel_id) as table:
            self._require_host(table, user_id, manage_channels)
            seat = table.seat_of(old_user)
            if seat is None:
                raise TableError("target_not_seated")
            if table.seat_of(new_user) is not None:
                raise TableError("already_seated")
            seat.user_id, seat.display = new_user, new_name
            await self.store.save_seats(table.record.id, table.seats)
        return table

    async def kick(self, channel_id: int, user_id: int, target_user: int, manage_channels: bool = False) -> MoveOutcome:
        """Eliminate a seat now, with the same consequences as a second missed deadline."""
        async with self._locked(channel_id, "playing") as table:
            self._require_host(table, user_id, manage_channels)
            seat = table.seat_of(target_user)
            if seat is None:
                raise TableError("target_not_seated")
            if seat.eliminated:
                raise TableError("already_eliminated")
            game = table.game
            before = turn_key(game, table.state)
            working = game.from_json(game.to_json(table.state))
            moves: list[tuple[int, str]] = []
            events: list[tuple[int, Event]] = []
            with self._seats_kept_on_error(table):
                self._remove_seat(table, working, table.seats[seat.position], moves, events)
                return await self._commit(table, working, moves, events, before=before, seats=True, announce=True)

    @staticmethod
    def reminder_times(table: Table) -> list[float]:
        """When to remind the player to move. Automatic: at half time, and one hour before the deadline
        when the turn is long enough for that to differ; none for short (live) turns. Otherwise the table's
        own list (half time or a time before the deadline), keeping those within the turn."""
        record = table.record
        return reminder_schedule(record.deadline, record.turn_seconds, table.settings.reminders)

    @staticmethod
    def _reminder_offsets(table: Table) -> tuple[float, ...]:
        return reminder_offsets(table.record.turn_seconds, table.settings.reminders)

    def _next_reminder(self, table: Table) -> float | None:
        record = table.record
        return next_reminder(record.deadline, record.reminders_sent, self._reminder_offsets(table))

    def next_deadline(self) -> float | None:
        """The earliest running deadline over all tables."""
        deadlines = [t.record.deadline for t in self.tables.values() if t.record.deadline is not None]
        return min(deadlines, default=None)

    def _reschedule(self, table: Table) -> None:
        """Put the table in the clock's heap at its next deadline or reminder (or take it out). Called with
        every new turn, so it works from the cached reminder offsets, not the list of reminder times."""
        record = table.record
        channel = record.channel_id
        when = None
        if self.tables.get(channel) is table:
            when = wake_time(record.deadline, record.reminders_sent, self._reminder_offsets(table))
        if when is None:
            self._wake_at.pop(channel, None)
        elif self._wake_at.get(channel) != when:
            self._wake_at[channel] = when
            wakes = self._wakes
            if len(wakes) > STALE_WAKES_KEPT * (len(self._wake_at) + 1):
                # Mostly stale entries (each new turn leaves one behind until its time): rebuilt from the live
                # times, so the heap's memory follows the tables, not the moves of the last day.
                wakes[:] = [(at, owner) for owner, at in self._wake_at.items()]
                heapq.heapify(wakes)
            else:
                heapq.heappush(wakes, (when, channel))

    def _clock_changed(self, table: Table) -> None:
        self._reschedule(table)
        self.on_deadline_change()

    def postpone(self, channel_id: int, until: float) -> None:
        """Do not wake for this table before ``until`` (the clock backing off a table that keeps failing)."""
        if channel_id in self._wake_at:
            self._wake_at[channel_id] = until
            heapq.heappush(self._wakes, (until, channel_id))

    def _top(self) -> tuple[float, int] | None:
        while self._wakes:
            when, channel = self._wakes[0]
            if self._wake_at.get(channel) == when:
                return when, channel
            heapq.heappop(self._wakes)  # stale: the table's time changed since
        return None

    def next_wake(self) -> float | None:
        """The earliest deadline or pending reminder (or retry of a failing table): the clock sleeps until
        then. O(1) but for stale entries dropped on the way."""
        top = self._top()
        return None if top is None else top[0]

    def _woken(self) -> list[Table]:
        """The tables whose wake time has come (their entries stay until rescheduled)."""
        now, found, kept = self.clock(), [], []
        while (top := self._top()) is not None and top[0] <= now:
            kept.append(heapq.heappop(self._wakes))
            if (table := self.tables.get(top[1])) is not None:
                found.append(table)
        for entry in kept:
            heapq.heappush(self._wakes, entry)
        return found

    async def due_reminders(self) -> list[tuple[Table, int]]:
        """Tables whose next reminder time has passed, with the seat to remind; marks them sent (a
        reminder missed while the bot was down is sent once, not once per missed time)."""
        now, due = self.clock(), []
        for table in self._woken():
            reminder = self._next_reminder(table)
            if reminder is None or reminder > now:
                continue
            async with table.lock:  # a move committed meanwhile has a new deadline: look again
                reminder = self._next_reminder(table)
                owner = table.game.turn_owner(table.state) if table.state is not None else None
                if reminder is None or reminder > now or owner is None:
                    continue
                table.record.reminders_sent = sum(1 for r in self.reminder_times(table) if r <= now)
                await self.store.set_clock(table.record.id, table.record.deadline,
                                           reminders_sent=table.record.reminders_sent)
                self._reschedule(table)
                due.append((table, owner))
        return due

    def due(self) -> list[int]:
        """Channels whose deadline has passed (and whose table is not being backed off)."""
        now = self.clock()
        return [t.record.channel_id for t in self._woken()
                if t.record.deadline is not None and t.record.deadline <= now]

    async def _commit(self, table: Table, working: Any, moves: list[tuple[int, str]],
                      events: list[tuple[int, Event]], before: TurnKey | None, seats: bool = False,
                      announce: bool = False) -> MoveOutcome:
        """Let AI seats reply, then store everything in one transaction (moves, snapshot, the clock of a new
        turn, whether a board is due, and the seats if ``seats``) and only then make it live.

        ``before``: the turn key before these moves (``None`` at the start). Every new turn gets a full turn
        time, whoever had the previous one; the steps of one turn keep the turn's deadline. A new turn, or
        what the caller wants ``announce``d (a timeout, a kick), is told with a board."""
        game, record = table.game, table.record
        by_position = {s.position: s for s in record.seats}
        while True:
            finished = game.is_over(working)
            to_act = [] if finished else game.to_act(working)
            if not to_act or not by_position[to_act[0]].is_ai:
                break
            ai_seat = to_act[0]
            # The AI thinks off the event loop (a worker process for hard, else a thread): other tables go
            # on meanwhile. Seeded by the position, so a replay of the table decides the same.
            level = by_position[ai_seat].ai_level or DEFAULT_LEVEL
            planned = await self.ai.steps(game, working, ai_seat, level, record.seed + table.version + len(moves))
            for number, action in enumerate(planned):
                if number and (game.is_over(working) or game.to_act(working) != [ai_seat]
                               or action not in game.legal_actions(working, ai_seat)):
                    break  # the rest of a plan that no longer fits: the AI is asked again
                events += [(ai_seat, e) for e in game.apply(working, ai_seat, action)]
                moves.append((ai_seat, game.format(action)))
        new_turn = finished or turn_key(game, working, to_act) != before
        clock = self._clock_for(table, new_turn, to_act)
        tell = new_turn or announce
        # What the next board tells is kept with the moves: a board posted after a crash or an outage still
        # tells the turn. (Steps answered privately are held by the cog, if the game wants them told.)
        story = record.held_events
        if tell:
            story = story + [[seat, MOVE, {"notation": text}] for seat, text in moves]
            story += [[seat, e.code, e.params] for seat, e in events]
        version = table.version + len(moves)
        # A snapshot every few moves, at the end, and with a move the log cannot replay (a seat removed: a
        # commit of the seats).
        snapshot = (finished or version - table.snapshot_version >= SNAPSHOT_EVERY
                    or (seats and any(text.startswith(LOG_MARK) for _seat, text in moves)))
        if moves or finished or clock is not None:
            try:
                table.version = await self.store.commit_moves(
                    record.id, table.version, moves, game.dumps(working) if snapshot else None,
                    self.clock(),
                    # What the next board tells and whether it is due, written with every commit (from memory,
                    # where a board posted meanwhile has already changed them): a posted board's own write
                    # still queued with it is then left out (see the store's ``set_board_posted``).
                    status="finished" if finished else None, clock=clock, board_due=tell or record.board_due,
                    seats=record.seats if seats else None, held_events=story,
                )
            except VersionConflict:
                raise TableError("already_played") from None
            if snapshot:
                table.snapshot_version = table.version
        table.state = working
        if table.loader is not None:
            self._decoded(table)  # in use: the last to let its state go
        if tell:
            record.board_due, record.held_events = True, story
        if clock is not None:
            record.deadline, record.reminders_sent, record.time_left = clock
        if finished:
            record.status = "finished"
            self.tables.pop(record.channel_id, None)
            self._recent.pop(record.channel_id, None)
        if clock is not None or finished:
            self._clock_changed(table)
        if finished:
            record.finished_at = record.finished_at or self.clock()
            self._record_results(record, game, working)
        return MoveOutcome(table, moves, events, finished, list(to_act), announce=tell)

    def _record_results(self, record: TableRecord, game: AnyGame, state: Any) -> None:
        """Record a finished game's results and ratings beside the move that ended it, not in its way: ratings
        are recorded one game at a time (each reads what the one before wrote), so the last move of a game
        would otherwise wait for every other game ending at the same moment. A recording that fails, or that a
        stop cuts short, is made at the next start (``ratings.catch_up``)."""
        async def record_them() -> None:
            try:
                await ratings.record_finished(self.store, record, game, state)
            except Exception:
                log.exception("could not record the results of table %s", record.id)

        task = asyncio.get_running_loop().create_task(record_them(), name=f"results of table {record.id}")
        self._recordings.add(task)
        task.add_done_callback(self._recordings.discard)

    async def results_recorded(self, within: float | None = None) -> None:
        """Once the results of every game finished so far are recorded, or ``within`` seconds have passed (what
        reads them waits for this: the leaderboard, stats, the list of finished games, each within the time an
        interaction has to answer; and the bot before it closes the store)."""
        loop = asyncio.get_running_loop()
        end = None if within is None else loop.time() + within
        while self._recordings:
            left = None if end is None else end - loop.time()
            if left is not None and left <= 0:
                return
            await asyncio.wait(set(self._recordings), timeout=left)

    def _clock_for(self, table: Table, new_turn: bool, to_act: list[int]) -> ClockUpdate | None:
        """The clock after a commit: a new turn gets a fresh deadline (or, while paused, a full turn of time
        left for the resume); no one to act, no deadline; a step of a turn keeps the turn's deadline."""
        record = table.record
        if not to_act:
            return None if record.deadline is None and record.time_left is None else (None, 0, None)
        if not new_turn and (record.deadline is not None or record.paused_at is not None):
            return None
        if record.paused_at is not None:
            return None, 0, float(record.turn_seconds)
        return self.clock() + record.turn_seconds, 0, None

    # -- what the channel has not been told yet ---------------------------------------------------------
    async def hold_events(self, table: Table, events: list[tuple[int, Event]]) -> None:
        """Keep the events of a step answered privately for the next board (stored: a restart keeps them)."""
        if events:
            async with table.lock:
                table.record.held_events = [*table.record.held_events, *([seat, e.code, e.params] for seat, e in events)]
                await self.store.set_held_events(table.record.id, table.record.held_events)

    @staticmethod
    def held_events(table: Table) -> list[tuple[int, Event]]:
        """The events held for the next board (kept until it is posted: see ``board_posted``)."""
        return [(seat, Event(code, params)) for seat, code, params in table.record.held_events if code != MOVE]

    @staticmethod
    def held_moves(table: Table) -> list[tuple[int, str]]:
        """The moves (notation) the next board tells, held with the events."""
        return [(seat, params["notation"]) for seat, code, params in table.record.held_events if code == MOVE]

    async def board_posted(self, table: Table, told: int, version: int) -> None:
        """A board drawn at ``version``, telling the first ``told`` held entries, was posted: those are
        forgotten, and the board is no longer due unless a later turn (committed meanwhile) owes its own.
        Under the table's lock, so a move committed meanwhile is neither lost nor told twice (when no one holds
        the lock, the bookkeeping is made at once: it has no ``await``, so nothing can come between).

        The write is queued, not waited for: the store makes it before the table's next write (the next move
        does not wait for a disk sync of its own), and a crash before it is stored posts the board again at the
        next start, as a crash just after the post always could. The store logs it if it fails."""
        if table.lock.locked():
            async with table.lock:
                self._forget_told(table, told, version)
        else:
            self._forget_told(table, told, version)

    def _forget_told(self, table: Table, told: int, version: int) -> None:
        record = table.record
        record.held_events = record.held_events[told:]
        record.board_due = record.board_due and table.version != version
        self.store.set_board_posted(record.id, record.held_events, record.board_due)

    async def set_lobby_message(self, table: Table, message_id: int) -> None:
        table.record.lobby_message_id = message_id
        await self.store.set_lobby_message(table.record.id, message_id)

    async def set_board_due(self, table: Table, due: bool) -> None:
        """Whether the table's latest board still has to be posted (remembered across restarts)."""
        if table.record.board_due != due:
            table.record.board_due = due
            await self.store.set_board_due(table.record.id, due)

    def legal_notations(self, channel_id: int, user_id: int) -> list[str]:
        """The user's legal moves now, in notation; none if the channel has no table in play (or one that cannot
        be played: set aside here, and said by the command)."""
        try:
            table = self.table(channel_id)
        except TableError:
            return []
        if table.state is None:
            return []
        seat = table.seat_of(user_id)
        if seat is None:
            return []
        return [table.game.format(a) for a in table.game.legal_actions(table.state, seat.position)]


__all__ = ["IllegalAction", "MoveOutcome", "Table", "TableError", "TableService"]

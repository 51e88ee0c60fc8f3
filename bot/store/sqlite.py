"""The aiosqlite store: WAL mode, numbered migrations applied at start.

Durability: ``synchronous=FULL``, so a move acknowledged to a player survives an operating-system crash or a
power loss too, not only a crash of the bot (measured: +0.2 to 2.5 ms per commit or batch, by the day's disk).

Writes: every write is a job (a function of a connection) for one writer, which runs the jobs waiting at that
moment in one transaction, in the order they were queued (a job that fails is rolled back alone and its caller
gets the error: see ``_run_batch``), and commits them with one fsync. Jobs of different tables never share a
half-done transaction, and a busy server pays one fsync per batch of moves instead of one per move (group
commit). The writer runs a batch on the event loop's own connection (``_direct``): a batch is a few
milliseconds of SQLite's work at most, and a trip to a database thread and back costs more than the statements
of a move (measured: 7% of the service's time on a Trails game, 12% on Déole). Only when another process holds
the database's write lock does the batch go to aiosqlite's thread, which waits for the lock there, so the
event loop never waits for another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

import aiosqlite

from bot.errors import StoreRefused
from bot.store.base import (
    IndexRow,
    PlayerGame,
    RatingLine,
    RatingUpdate,
    Recovery,
    Seat,
    SeatResult,
    Store,
    StoreUnavailable,
    TableRecord,
    VersionConflict,
    log_board_not_stored,
    rated,
    table_record,
)
from games.core import json_text

T = TypeVar("T")
log = logging.getLogger(__name__)
WriteJob = Callable[[sqlite3.Connection], Any]
BUSY_TIMEOUT_MS = 5000  # how long a write waits for another process's lock before the store gives up
INSERT_MOVE = "INSERT INTO moves (table_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)"


def migrations() -> list[tuple[int, str]]:
    """(number, sql) for every ``NNN_name.sql`` shipped in ``bot/store/migrations``, in order."""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class _JobFailed(Exception):
    """A job of a batch run without savepoints failed: the batch is run again, each job in its own."""


@dataclass
class WriteStats:
    """What the writer has done since the store opened: batches (transactions), the jobs in them, and the
    seconds spent in them in all, of which in their commits (the disk sync, with ``synchronous=FULL``): where a
    busy server's time goes, printed by the table service's benchmark."""

    batches: int = 0
    jobs: int = 0
    seconds: float = 0.0
    syncing: float = 0.0


def _run_batch(connection: sqlite3.Connection, jobs: list[WriteJob], overwritten: AbstractSet[int] = frozenset(),
               stats: WriteStats | None = None) -> list[tuple[Any, Exception | None]]:
    """The jobs in one transaction; (result, error) each. A job that fails is rolled back alone and the others
    are written: the batch first runs plainly (a job almost never fails, and two savepoint statements per job
    are a quarter of the database's work on a move), and only if a job fails is it run again from the start
    with each job in a savepoint of its own (the jobs only read and write the database, so running one again
    does the same). The plain run leaves out the jobs ``overwritten`` by a later job of the batch (see
    ``_Batch``); the run with savepoints makes them all, since the later one may be the job that fails."""
    started = time.perf_counter()
    try:
        outcomes = _in_transaction(connection, jobs, savepoints=False, left_out=overwritten, stats=stats)
    except _JobFailed:
        outcomes = _in_transaction(connection, jobs, savepoints=True, stats=stats)
    if stats is not None:
        stats.batches, stats.jobs = stats.batches + 1, stats.jobs + len(jobs)
        stats.seconds += time.perf_counter() - started
    return outcomes


def _in_transaction(connection: sqlite3.Connection, jobs: list[WriteJob], savepoints: bool,
                    left_out: AbstractSet[int] = frozenset(),
                    stats: WriteStats | None = None) -> list[tuple[Any, Exception | None]]:
    outcomes: list[tuple[Any, Exception | None]] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        for number, job in enumerate(jobs):
            if not savepoints:
                try:
                    outcomes.append((None if number in left_out else job(connection), None))
                except Exception as error:
                    raise _JobFailed from error
                continue
            connection.execute("SAVEPOINT job")
            try:
                outcomes.append((job(connection), None))
            except Exception as error:  # this job only: the others of the batch go on
                connection.execute("ROLLBACK TO job")
                outcomes.append((None, error))
            connection.execute("RELEASE job")
        syncing = time.perf_counter()
        connection.execute("COMMIT")
        if stats is not None:
            stats.syncing += time.perf_counter() - syncing
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return outcomes


# What a queued job writes of its table's "what the next board tells" (held events, board due): a posted board's
# bookkeeping writes both, and so does a move that ends a turn; the first is overwritten by the second.
POSTED, TOLD = "posted", "told"
Overwrites = tuple[str, int] | None  # (POSTED or TOLD, table id), or None for any other job


class _Batch:
    """The writes waiting for the writer, in order: the jobs, their callers' futures and tags, and the board-posted
    jobs that a later job of the same table overwrites whole, found as the jobs are queued (a move that ends a
    turn writes what is still to tell and whether a board is due, from the table's memory, which the posted
    board already changed; a later posted board writes both too): one statement less per turn on a busy server,
    where the next move of a table is often in the batch that writes its last board's bookkeeping."""

    __slots__ = ("jobs", "left_out", "posted_at", "waiting")

    def __init__(self) -> None:
        self.jobs: list[WriteJob] = []
        self.waiting: list[tuple[asyncio.Future[Any], Overwrites]] = []
        self.posted_at: dict[int, int] = {}  # table id -> the number of its board-posted job not yet overwritten
        self.left_out: set[int] = set()

    def add(self, job: WriteJob, future: asyncio.Future[Any], overwrites: Overwrites) -> None:
        if overwrites is not None:
            kind, table_id = overwrites
            earlier = self.posted_at.pop(table_id, None)
            if earlier is not None:
                self.left_out.add(earlier)
            if kind == POSTED:
                self.posted_at[table_id] = len(self.jobs)
        self.jobs.append(job)
        self.waiting.append((future, overwrites))


def _fail(future: asyncio.Future[Any], error: Exception, tag: Overwrites) -> None:
    """A job's error to its caller; a posted board's, which nobody waits for, is logged here (unless the
    batch's refusal was, see ``_refusal``), and marked seen, so asyncio does not log it a second time."""
    posted_at = tag[1] if tag is not None and tag[0] == POSTED else None  # the table whose board it was
    if posted_at is not None and not isinstance(error, StoreRefused):
        log_board_not_stored(posted_at, error)
    if not future.done():
        future.set_exception(error)
        if posted_at is not None:
            future.exception()


def _refusal(error: Exception, writes: int, path: str) -> Exception:
    """A failed write as the player hears of it: a database locked by another process longer than the store
    waits, or a full disk, is a ``StoreRefused`` (try again), logged here in one line; anything else as it is."""
    if isinstance(error, sqlite3.OperationalError) and _is_locked(error):
        log.warning("database %s is locked by another process: %d write(s) refused after %g s", path, writes,
                    BUSY_TIMEOUT_MS / 1000)
        return StoreRefused("store_busy")
    if isinstance(error, sqlite3.Error) and (getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
                                             or "database or disk is full" in str(error)):
        log.error("database %s: the disk is full: %d write(s) refused", path, writes)
        return StoreRefused("store_full")
    return error


def _is_locked(error: sqlite3.OperationalError) -> bool:
    """Whether a statement failed only because another connection holds the lock it needs."""
    return getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or \
        "database is locked" in str(error)


@functools.cache
def _commit_update(status: bool, clock: bool, board_due: bool, held_events: bool) -> str:
    """The conditional update of a commit that writes these columns (built once for each of the 16 kinds)."""
    columns = ["version = ?"]
    if status:
        columns.append("status = ?, finished_at = ?")
    if clock:
        columns.append("deadline = ?, reminders_sent = ?, time_left = ?")
    if board_due:
        columns.append("board_due = ?")
    if held_events:
        columns.append("held_events = ?")
    return f"UPDATE game_tables SET {', '.join(columns)} WHERE id = ? AND version = ?"


def _write_seats(db: sqlite3.Connection, table_id: int, seats: list[Seat]) -> None:
    db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    db.executemany(
        "INSERT INTO seats (table_id, position, user_id, display, color, eliminated, timeouts, pauses_used,"
        " ai_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(table_id, s.position, s.user_id, s.display, s.color, int(s.eliminated), s.timeouts, s.pauses_used,
          s.ai_level) for s in seats],
    )


def _table_query(where: str, snapshots: bool) -> str:
    """The tables matching ``where`` (SQL on ``game_tables`` as ``t``), as ``_records`` reads them."""
    snapshot_columns = ", s.version" if snapshots else ", NULL"
    snapshot_join = " LEFT JOIN snapshots s ON s.table_id = t.id" if snapshots else ""
    return ("SELECT t.id, t.guild_id, t.channel_id, t.game, t.options, t.status, t.host_id, t.seed, t.created_at,"
            " t.finished_at, t.turn_seconds, t.deadline, t.paused_at, t.paused_by, t.time_left, t.reminders_sent,"
            " t.settings, t.held_events, t.board_due, t.lobby_message_id, t.version" + snapshot_columns +
            f" FROM game_tables t{snapshot_join} WHERE {where}")


def _seat_query(where: str) -> str:
    """The seats of the tables matching ``where``, as ``_records`` reads them."""
    return ("SELECT table_id, position, user_id, display, color, eliminated, timeouts, pauses_used, ai_level"
            f" FROM seats WHERE table_id IN (SELECT t.id FROM game_tables t WHERE {where.split(' ORDER BY ')[0]})"
            " ORDER BY table_id, position")


def _records(rows: Iterable[Any], seat_rows: Iterable[Any]) -> list[TableRecord]:
    tables = [table_record(row) for row in rows]
    by_id = {record.id: record for record in tables}
    for table_id, p, u, d, c, e, n, q, level in seat_rows:
        if table_id in by_id:
            by_id[table_id].seats.append(Seat(p, u, d, c, bool(e), n, q, level))
    return tables


class SqliteStore(Store):
    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._reader: sqlite3.Connection | None = None  # the blocking reads' own connection (WAL: never waits)
        self._reader_lock = threading.Lock()
        self._batch = _Batch()  # writes waiting for the writer
        self._writer: asyncio.Task[None] | None = None
        self._direct: sqlite3.Connection | None = None  # the writer's connection on the event loop (see above)
        self.write_stats = WriteStats()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def open(self) -> None:
        """Open, check that the database can be used, and migrate. Raises ``StoreUnavailable`` with one
        clear sentence when it cannot: not a database, corrupt, read-only, locked, or newer than this code."""
        try:
            # Autocommit mode: the writer opens and commits the transactions itself.
            self._db = await aiosqlite.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            await self._probe()
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA foreign_keys=ON")
            await self.db.execute("PRAGMA synchronous=FULL")
            await self._migrate()
            # Never waits for a lock: a batch that finds the database locked goes to aiosqlite's thread.
            self._direct = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
            self._direct.execute("PRAGMA foreign_keys=ON")
            self._direct.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as error:
            await self.close()
            raise StoreUnavailable(f"the database {self.path} cannot be used: {error}") from None
        except StoreUnavailable:
            await self.close()
            raise

    async def _probe(self) -> None:
        """What would otherwise be found at the first move: corruption, a newer schema, no write access."""
        async with self.db.execute("PRAGMA quick_check") as cursor:
            problems = [row[0] for row in await cursor.fetchall()]
        if problems != ["ok"]:
            raise StoreUnavailable(f"the database {self.path} is corrupt: {'; '.join(problems[:3])}")
        known = max((number for number, _ in migrations()), default=0)
        version = await self.schema_version()
        if version > known:
            raise StoreUnavailable(
                f"the database {self.path} is from a newer version of the bot (schema "
                f"{version}, this one knows {known}): run the newer version")
        # A write lock and a page written, both given back: long-held locks and read-only files show here. The
        # lock alone is not enough: SQLite opens an immutable file read-only without a word, takes the lock,
        # and refuses only the first page written (which would be the first move).
        version = await self.schema_version()
        try:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                await self.db.execute(f"PRAGMA user_version = {int(version)}")
            finally:
                await self.db.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            raise StoreUnavailable(f"the database {self.path} cannot be written: {error}") from None

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, sql in migrations():
            if number > current:
                await self.db.executescript(f"BEGIN; {sql}; PRAGMA user_version = {number}; COMMIT;")

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _write(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``job`` (statements on the connection it is given, no commit) in the writer's next transaction;
        its result once that transaction is committed, or its error (and then nothing of it is written)."""
        # A caller that gives up cancels only its wait: the job stays queued and is written with its batch.
        return await self._queue(job)

    def _queue(self, job: Callable[[sqlite3.Connection], T], overwrites: Overwrites = None) -> asyncio.Future[T]:
        """Queue ``job`` now, behind every write queued before it (the jobs are written in order)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._batch.add(job, future, overwrites)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_jobs())
        return future

    async def _write_jobs(self) -> None:
        while self._batch.jobs:
            batch, self._batch = self._batch, _Batch()
            jobs, overwritten = batch.jobs, batch.left_out
            try:
                try:
                    if self._direct is None:
                        raise RuntimeError("store is not open")
                    outcomes = _run_batch(self._direct, jobs, overwritten, self.write_stats)
                except sqlite3.OperationalError as error:
                    if not _is_locked(error):
                        raise
                    # Another process holds the write lock: waited for on aiosqlite's thread (pinned in
                    # constraints.txt: ``_execute`` runs a function there), not on the event loop.
                    outcomes = await self.db._execute(_run_batch, self.db._conn, jobs, overwritten, self.write_stats)
            except BaseException as error:  # the transaction failed (disk, lock, closed): nothing written
                failure = error if isinstance(error, Exception) else sqlite3.OperationalError(
                    "the write was interrupted")
                failure = _refusal(failure, len(jobs), self.path)
                for future, tag in batch.waiting:
                    _fail(future, failure, tag)
                if not isinstance(error, Exception):
                    raise
                continue
            for (future, tag), (value, failure) in zip(batch.waiting, outcomes, strict=True):
                if failure is None:
                    if not future.done():
                        future.set_result(value)
                else:
                    _fail(future, _refusal(failure, 1, self.path), tag)

    async def close(self) -> None:
        if self._writer is not None and not self._writer.done():
            await asyncio.wait([self._writer])  # what was queued is written before the connection closes
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._direct is not None:
            self._direct.close()
            self._direct = None
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def create_table(self, guild_id, channel_id, game, options, host_id, seed, created_at, seats=None,
                           turn_seconds=86400, settings=None) -> TableRecord:
        seats, settings = list(seats or []), dict(settings or {})

        def job(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO game_tables (guild_id, channel_id, game, options, status, host_id, seed, created_at,"
                " turn_seconds, settings) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game, json.dumps(options), host_id, seed, created_at, turn_seconds,
                 json.dumps(settings)),
            )
            table_id = int(cursor.lastrowid or 0)
            _write_seats(db, table_id, seats)
            return table_id

        try:
            table_id = await self._write(job)
        except sqlite3.IntegrityError:
            raise ValueError("channel already has an active table") from None
        return TableRecord(table_id, guild_id, channel_id, game, options, "lobby", host_id, seed, created_at,
                           seats=seats, turn_seconds=turn_seconds, settings=settings)

    async def _run(self, sql: str, params: tuple[Any, ...]) -> None:
        """One statement, written by the writer."""
        await self._write(lambda db: db.execute(sql, params))

    async def save_seats(self, table_id: int, seats: list[Seat]) -> None:
        await self._write(lambda db: _write_seats(db, table_id, seats))

    async def set_status(self, table_id: int, status: str, finished_at: float | None = None) -> None:
        await self._run("UPDATE game_tables SET status = ?, finished_at = ? WHERE id = ?", (status, finished_at, table_id))

    async def _tables(self, where: str, params: tuple[Any, ...], snapshots: bool = False) -> list[TableRecord]:
        """The tables matching ``where`` (SQL on ``game_tables`` as ``t``), with their seats, in two queries
        whatever their number (and the version of their latest snapshot, if asked)."""
        async with self.db.execute(_table_query(where, snapshots), params) as cursor:
            rows = await cursor.fetchall()
        if not rows:
            return []
        async with self.db.execute(_seat_query(where), params) as cursor:
            seat_rows = await cursor.fetchall()
        return _records(rows, seat_rows)

    async def active_tables(self) -> list[TableRecord]:
        return await self._tables("t.status IN ('lobby', 'playing') OR t.board_due = 1 ORDER BY t.id", (),
                                  snapshots=True)

    async def table_index(self) -> list[IndexRow]:
        async with self.db.execute(
            "SELECT id, guild_id, channel_id, game, status, host_id, version, board_due, deadline, turn_seconds,"
            " reminders_sent, settings FROM game_tables WHERE status IN ('lobby', 'playing') OR board_due = 1"
            " ORDER BY id") as cursor:
            return [IndexRow._make(row) for row in await cursor.fetchall()]

    def table_record_now(self, table_id: int) -> TableRecord | None:
        with self._read_now() as reader:
            rows = reader.execute(_table_query("t.id = ?", True), (table_id,)).fetchall()
            seat_rows = reader.execute(_seat_query("t.id = ?"), (table_id,)).fetchall() if rows else []
        records = _records(rows, seat_rows)
        return records[0] if records else None

    @contextlib.contextmanager
    def _read_now(self) -> Iterator[sqlite3.Connection]:
        """The connection of the short blocking reads (WAL: they never wait for the writer), in one read
        transaction (what is read belongs to the same commit), one thread at a time."""
        with self._reader_lock:
            if self._reader is None:
                self._reader = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._reader.execute("BEGIN")
            try:
                yield self._reader
            finally:
                self._reader.execute("COMMIT")

    async def table_record(self, table_id: int) -> TableRecord | None:
        tables = await self._tables("t.id = ?", (table_id,))
        return tables[0] if tables else None

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        tables = await self._tables(
            "t.channel_id = ? ORDER BY t.status IN ('lobby', 'playing') DESC, t.id DESC LIMIT 1", (channel_id,)
        )
        return tables[0] if tables else None

    async def start_game(self, table_id: int, seats: list[Seat], state: str) -> None:
        def job(db: sqlite3.Connection) -> None:
            _write_seats(db, table_id, seats)
            db.execute("INSERT INTO snapshots (table_id, version, state) VALUES (?, 0, ?)", (table_id, state))
            db.execute("UPDATE game_tables SET status = 'playing', board_due = 1, version = 0 WHERE id = ?", (table_id,))

        await self._write(job)

    def commit_moves(self, table_id, expected_version, moves, state, at, status=None, clock=None,
                     board_due=None, seats=None, held_events=None) -> asyncio.Future[int]:
        new_version = expected_version + len(moves)
        # The table's row carries its version: one conditional update checks it and writes the rest.
        values: list[Any] = [new_version]
        if status is not None:
            values += (status, at)
        if clock is not None:
            values += clock
        if board_due is not None:
            values.append(int(board_due))
        if held_events is not None:
            values.append(json_text(held_events))
        values += (table_id, expected_version)
        update = _commit_update(status is not None, clock is not None, board_due is not None, held_events is not None)

        def job(db: sqlite3.Connection) -> int:
            cursor = db.execute(update, values)
            if cursor.rowcount != 1:
                raise VersionConflict(f"table {table_id} is not at version {expected_version}")
            if len(moves) == 1:  # the usual case: ``execute`` costs less than ``executemany`` of one row
                db.execute(INSERT_MOVE, (table_id, new_version, moves[0][0], moves[0][1], at))
            elif moves:
                db.executemany(INSERT_MOVE, [(table_id, expected_version + i + 1, seat, text, at)
                                             for i, (seat, text) in enumerate(moves)])
            if state is not None:
                db.execute("UPDATE snapshots SET version = ?, state = ? WHERE table_id = ?", (new_version, state, table_id))
            if seats is not None:
                _write_seats(db, table_id, seats)
            return new_version

        return self._queue(job, (TOLD, table_id) if held_events is not None and board_due is not None else None)

    async def set_clock(self, table_id: int, deadline: float | None, turn_seconds: int | None = None,
                        reminders_sent: int = 0) -> None:
        await self._run("UPDATE game_tables SET turn_seconds = COALESCE(?, turn_seconds), deadline = ?,"
                        " reminders_sent = ? WHERE id = ?", (turn_seconds, deadline, reminders_sent, table_id))

    async def set_board_due(self, table_id: int, due: bool) -> None:
        await self._run("UPDATE game_tables SET board_due = ? WHERE id = ?", (int(due), table_id))

    async def flush(self) -> None:
        await self._queue(lambda db: None)  # written in order: once this one is, so is everything before it

    def set_board_posted(self, table_id: int, held_events: list[Any], board_due: bool) -> asyncio.Future[None]:
        params = (json_text(held_events), int(board_due), table_id)

        def job(db: sqlite3.Connection) -> None:
            db.execute("UPDATE game_tables SET held_events = ?, board_due = ? WHERE id = ?", params)

        return self._queue(job, (POSTED, table_id))

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self._run("UPDATE game_tables SET lobby_message_id = ? WHERE id = ?", (message_id, table_id))

    async def set_held_events(self, table_id: int, events: list[Any]) -> None:
        await self._run("UPDATE game_tables SET held_events = ? WHERE id = ?", (json_text(events), table_id))

    async def set_settings(self, table_id: int, turn_seconds: int, settings: dict[str, Any]) -> None:
        await self._run("UPDATE game_tables SET turn_seconds = ?, settings = ? WHERE id = ?",
                              (turn_seconds, json.dumps(settings), table_id))

    async def set_pause(self, table_id, paused_at, paused_by, time_left, deadline) -> None:
        await self._run(
            "UPDATE game_tables SET paused_at = ?, paused_by = ?, time_left = ?, deadline = ? WHERE id = ?",
            (paused_at, paused_by, time_left, deadline, table_id),
        )

    def recovery_now(self, table_id: int) -> Recovery | None:
        with self._read_now() as reader:
            row = reader.execute("SELECT t.version, s.version, s.state FROM game_tables t JOIN snapshots s"
                                 " ON s.table_id = t.id WHERE t.id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            version, snapshot_version, state = row
            moves = reader.execute("SELECT seat, action FROM moves WHERE table_id = ? AND seq > ? AND seq <= ?"
                                   " ORDER BY seq", (table_id, snapshot_version, version)).fetchall()
        return Recovery(version, snapshot_version, state, [(seat, text) for seat, text in moves])

    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        async with self.db.execute("SELECT version, state FROM snapshots WHERE table_id = ?", (table_id,)) as c:
            row = await c.fetchone()
        return (row[0], row[1]) if row else None

    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value ="
                              " excluded.value", (key, value))

    async def moves(self, table_id: int) -> list[tuple[int, int, str, float]]:
        async with self.db.execute(
            "SELECT seq, seat, action, created_at FROM moves WHERE table_id = ? ORDER BY seq", (table_id,)
        ) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]

    # -- ratings and results (issue 19) -----------------------------------------------------------
    async def ratings(self, guild_id: int, game: str, players: list[str]) -> dict[str, tuple[float, float]]:
        marks = ", ".join("?" for _ in players)
        async with self.db.execute(
            f"SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND player IN ({marks})",
            (guild_id, game, *players),
        ) as cursor:
            return {player: (mu, sigma) async for player, mu, sigma in cursor}

    async def record_game(self, table_id: int, guild_id: int, game: str, finished_at: float,
                          results: list[SeatResult], rate: RatingUpdate | None) -> bool:
        players = sorted({r.player for r in results})

        def job(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT INTO recorded_games (table_id, rated) VALUES (?, ?) ON CONFLICT (table_id) DO NOTHING",
                (table_id, int(rate is not None)))
            if cursor.rowcount != 1:
                return False  # recorded already: a game counts once
            # The ratings as the jobs before this one (in this transaction too) left them: the writer runs one
            # job at a time, so games ending at once are rated one after the other.
            current = {player: (mu, sigma) for player, mu, sigma in db.execute(
                f"SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND player IN"
                f" ({', '.join('?' for _ in players)})", (guild_id, game, *players))} if rate is not None else {}
            final, new = rated(results, rate, current)
            db.executemany(
                "INSERT INTO game_results (table_id, seat, guild_id, game, player, display, place, score, won, mu,"
                " sigma, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(table_id, r.seat, guild_id, game, r.player, r.display, r.place, r.score, int(r.won), r.mu, r.sigma,
                  finished_at) for r in final])
            db.executemany(
                "INSERT INTO ratings (guild_id, game, player, mu, sigma) VALUES (?, ?, ?, ?, ?) ON CONFLICT"
                " (guild_id, game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                [(guild_id, game, player, mu, sigma) for player, (mu, sigma) in new.items()])
            return True

        return await self._write(job)

    async def unrecorded_games(self) -> list[TableRecord]:
        return await self._tables(
            "t.status = 'finished' AND t.id NOT IN (SELECT table_id FROM recorded_games)"
            " ORDER BY t.finished_at, t.id", ())

    async def rating_board(self, guild_id: int, game: str) -> list[RatingLine]:
        async with self.db.execute(
            "SELECT r.player, r.mu, r.sigma, COUNT(DISTINCT g.table_id),"
            " COUNT(DISTINCT CASE WHEN g.won = 1 THEN g.table_id END),"
            " (SELECT l.display FROM game_results l WHERE l.guild_id = r.guild_id AND l.game = r.game"
            "  AND l.player = r.player ORDER BY l.finished_at DESC LIMIT 1)"
            " FROM ratings r JOIN game_results g ON g.guild_id = r.guild_id AND g.game = r.game"
            " AND g.player = r.player WHERE r.guild_id = ? AND r.game = ? GROUP BY r.player, r.mu, r.sigma",
            (guild_id, game),
        ) as cursor:
            return [RatingLine(player, display or player, mu, sigma, games, wins)
                    async for player, mu, sigma, games, wins, display in cursor]

    async def player_results(self, guild_id: int, player: str) -> list[PlayerGame]:
        # An AI level seated twice in one game counts once: its best place.
        async with self.db.execute(
            "SELECT table_id, game, finished_at, MIN(place), MAX(score), MAX(won), MAX(mu), MAX(sigma)"
            " FROM game_results WHERE guild_id = ? AND player = ? GROUP BY table_id, game, finished_at"
            " ORDER BY finished_at, table_id", (guild_id, player),
        ) as cursor:
            return [PlayerGame(t, g, f, p, s, bool(w), mu, sigma) async for t, g, f, p, s, w, mu, sigma in cursor]

    async def finished_games(self, channel_id: int, limit: int) -> list[tuple[TableRecord, list[str]]]:
        # The limit is written in the query: ``_tables`` reuses the condition (without ORDER BY) for the seats.
        tables = await self._tables("t.channel_id = ? AND t.status = 'finished' ORDER BY t.finished_at DESC,"
                                    f" t.id DESC LIMIT {int(limit)}", (channel_id,))
        winners: dict[int, list[str]] = {table.id: [] for table in tables}
        if tables:
            marks = ", ".join("?" for _ in tables)
            async with self.db.execute(
                f"SELECT table_id, display FROM game_results WHERE place = 1 AND table_id IN ({marks})"
                " ORDER BY table_id, seat", tuple(winners),
            ) as cursor:
                async for table_id, display in cursor:
                    winners[table_id].append(display)
        return [(table, winners[table.id]) for table in tables]

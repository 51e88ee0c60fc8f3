"""The PostgreSQL store (asyncpg), for deployments of several processes (Discord shards) on one database.

The schema is the SQLite one, migration by migration (``migrations/postgresql/NNN_name.sql``, the same numbers),
with PostgreSQL types: 64-bit ids, booleans, double-precision times. JSON columns stay text, so what is read back
is exactly what was written, on both backends.

Two writers never both apply a move: ``commit_moves`` updates the table's row only where its version is still the
expected one. Under READ COMMITTED a second writer waits for the first's row lock and then sees the new version,
so its update touches no row and it gets ``VersionConflict``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from importlib import resources
from typing import Any, TypeVar

import asyncpg

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

T = TypeVar("T")
log = logging.getLogger(__name__)
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy  # a plain connection or one of the pool

# Any fixed number: every process of the bot takes this lock to migrate, so two starting together migrate once.
MIGRATION_LOCK = 0x504243_4D4947  # "PBC" "MIG"
CONNECT_TIMEOUT = 10  # seconds: an unreachable server is one clear line at start, not a hang
RECOVERY_TIMEOUT = 30.0
# How long a statement waits for a lock another process holds (a row of the table, a long migration) before
# the store gives up and the player is told to try again, as SQLite's busy timeout.
LOCK_TIMEOUT_MS = 5000

TABLE_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.game, t.options, t.status, t.host_id, t.seed, t.created_at, t.finished_at,"
    " t.turn_seconds, t.deadline, t.paused_at, t.paused_by, t.time_left, t.reminders_sent, t.settings,"
    " t.held_events, t.board_due, t.lobby_message_id, t.version")


def migrations() -> list[tuple[int, str]]:
    """(number, sql) for every ``NNN_name.sql`` shipped in ``bot/store/migrations/postgresql``, in order."""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations", "postgresql").iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at:
        return url
    return f"{scheme}{sep}{credentials.split(':', 1)[0]}@{host}"


async def _read_tables(connection: Connection, where: str, args: tuple[Any, ...],
                       snapshots: bool = False) -> list[TableRecord]:
    """The tables matching ``where`` (SQL on ``game_tables`` as ``t``), with their seats, in two queries
    whatever their number (and the version of their latest snapshot, if asked)."""
    snapshot_column = ", s.version" if snapshots else ", NULL::integer"
    snapshot_join = " LEFT JOIN snapshots s ON s.table_id = t.id" if snapshots else ""
    rows = await connection.fetch(
        f"SELECT {TABLE_COLUMNS}{snapshot_column} FROM game_tables t{snapshot_join} WHERE {where}", *args)
    tables = [table_record(row) for row in rows]
    if tables:
        by_id = {record.id: record for record in tables}
        for s in await connection.fetch(
            "SELECT table_id, position, user_id, display, color, eliminated, timeouts, pauses_used, ai_level"
            " FROM seats WHERE table_id = ANY($1::bigint[]) ORDER BY table_id, position", list(by_id),
        ):
            by_id[s[0]].seats.append(Seat(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]))
    return tables


async def _recovery(connection: Connection, table_id: int) -> Recovery | None:
    row = await connection.fetchrow(
        "SELECT t.version, s.version, s.state FROM game_tables t JOIN snapshots s ON s.table_id = t.id"
        " WHERE t.id = $1", table_id)
    if row is None:
        return None
    version, snapshot_version, state = row
    moves = await connection.fetch(
        "SELECT seat, action FROM moves WHERE table_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq",
        table_id, snapshot_version, version)
    return Recovery(version, snapshot_version, state, [(move[0], move[1]) for move in moves])


class _BlockingReader:
    """``recovery_now`` and ``table_record_now`` are synchronous (a table is read wherever it is first used, also
    in plain code), and
    asyncpg has no blocking API. So a dedicated thread runs its own event loop with its own connection, and the
    caller waits for a few reads by key there, in one transaction (about a millisecond, like SQLite's file read).
    A cache filled by the async reads was the other choice; it would keep every active table's state in memory,
    which the service's lazy loading exists to avoid."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._connection: Connection | None = None
        self._start = threading.Lock()
        self._reading = threading.Lock()  # one query at a time on the one connection, whichever thread asks

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        with self._start:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=loop.run_forever, name="recovery-reader", daemon=True)
                self._thread.start()
                self._loop = loop
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(RECOVERY_TIMEOUT)

    async def _in_transaction(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        connection = self._connection
        if connection is None or connection.is_closed():
            connection = self._connection = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
        # One repeatable-read transaction: what is read belongs to the same commit (a snapshot and its log).
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            return await work(connection)

    def read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        with self._reading:
            return self._run(self._in_transaction(work))

    def close(self) -> None:
        if self._loop is None:
            return
        if self._connection is not None:
            connection = self._connection
            self._run(connection.close())
            self._connection = None
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join()
        self._loop.close()
        self._loop, self._thread = None, None


async def _keep_session(connection: asyncpg.Connection) -> None:
    """A connection given back to the pool is not reset (asyncpg's default costs a round trip per use): the
    store changes no session state (its transactions always end, the migration lock is released)."""


class PostgresStore(Store):
    def __init__(self, url: str, pool_size: int = 10) -> None:
        self.url = url
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._reader = _BlockingReader(url)
        self._queued: dict[int, asyncio.Task[None]] = {}  # per table: its write queued without a wait
        # Games recorded one at a time in the order they were asked for (the order they ended), as SQLite's writer
        # does; the advisory lock below orders the processes.
        self._recording = asyncio.Lock()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("store is not open")
        return self._pool

    async def open(self) -> None:
        """Connect, check that the database can be used, and migrate. Raises ``StoreUnavailable`` with one clear
        sentence when it cannot: unreachable, refused, read-only, or newer than this code."""
        where = safe_url(self.url)
        try:
            self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size,
                                                   timeout=CONNECT_TIMEOUT, reset=_keep_session,
                                                   server_settings={"lock_timeout": f"{LOCK_TIMEOUT_MS}ms"})
            async with self.pool.acquire() as connection:
                await self._probe(connection, where)
                await self._migrate(connection)
        except StoreUnavailable:
            await self.close()
            raise
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            await self.close()
            raise StoreUnavailable(f"the database {where} cannot be used: {error}") from None

    @staticmethod
    async def _probe(connection: Connection, where: str) -> None:
        if await connection.fetchval("SELECT current_setting('transaction_read_only')") == "on":
            raise StoreUnavailable(f"the database {where} is read-only (a standby?): give the primary's URL")
        version = await PostgresStore._schema_version(connection)
        known = max((number for number, _ in migrations()), default=0)
        if version > known:
            raise StoreUnavailable(f"the database {where} is from a newer version of the bot (schema {version}, "
                                   f"this one knows {known}): run the newer version")

    @staticmethod
    async def _schema_version(connection: Connection) -> int:
        if await connection.fetchval("SELECT to_regclass('schema_version')") is None:
            return 0
        return int(await connection.fetchval("SELECT coalesce(max(version), 0) FROM schema_version") or 0)

    @staticmethod
    async def _migrate(connection: Connection) -> None:
        """Each migration and its number in one transaction, under an advisory lock held by one process at a
        time: a second process starting meanwhile waits, then finds nothing left to do."""
        await connection.execute("SET lock_timeout = 0")  # another process's migration is waited for, however long
        await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        try:
            await connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)")
            current = await PostgresStore._schema_version(connection)
            for number, sql in migrations():
                if number > current:
                    async with connection.transaction():
                        await connection.execute(sql)
                        await connection.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
        finally:
            await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
            await connection.execute("RESET lock_timeout")

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await self._schema_version(connection)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy]:
        """A connection of the pool; a lock held elsewhere past ``LOCK_TIMEOUT_MS``, or a full disk, is a
        ``StoreRefused`` (nothing of the transaction was written), logged in one line."""
        try:
            async with self.pool.acquire() as connection:
                yield connection
        except asyncpg.LockNotAvailableError:
            log.warning("database %s: a lock held by another session for over %d s: a write refused",
                        safe_url(self.url), LOCK_TIMEOUT_MS // 1000)
            raise StoreRefused("store_busy") from None
        except asyncpg.DiskFullError:
            log.error("database %s: the disk is full: a write refused", safe_url(self.url))
            raise StoreRefused("store_full") from None

    async def close(self) -> None:
        await self.flush()  # what was queued is written before the pool closes
        await asyncio.to_thread(self._reader.close)
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    async def create_table(self, guild_id, channel_id, game, options, host_id, seed, created_at, seats=None,
                           turn_seconds=86400, settings=None) -> TableRecord:
        seats, settings = list(seats or []), dict(settings or {})
        try:
            async with self._connection() as connection, connection.transaction():
                table_id = await connection.fetchval(
                    "INSERT INTO game_tables (guild_id, channel_id, game, options, status, host_id, seed, created_at,"
                    " turn_seconds, settings) VALUES ($1, $2, $3, $4, 'lobby', $5, $6, $7, $8, $9) RETURNING id",
                    guild_id, channel_id, game, json.dumps(options), host_id, seed, created_at, turn_seconds,
                    json.dumps(settings))
                await self._write_seats(connection, table_id, seats)
        except asyncpg.UniqueViolationError:
            raise ValueError("channel already has an active table") from None
        return TableRecord(int(table_id), guild_id, channel_id, game, options, "lobby", host_id, seed, created_at,
                           seats=seats, turn_seconds=turn_seconds, settings=settings)

    @staticmethod
    async def _write_seats(connection: Connection, table_id: int, seats: list[Seat]) -> None:
        await connection.execute("DELETE FROM seats WHERE table_id = $1", table_id)
        await connection.executemany(
            "INSERT INTO seats (table_id, position, user_id, display, color, eliminated, timeouts, pauses_used,"
            " ai_level) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            [(table_id, s.position, s.user_id, s.display, s.color, s.eliminated, s.timeouts, s.pauses_used,
              s.ai_level) for s in seats])

    async def save_seats(self, table_id: int, seats: list[Seat]) -> None:
        async with self._connection() as connection, connection.transaction():
            await self._write_seats(connection, table_id, seats)

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        async with self._connection() as connection:
            return await connection.fetchval(sql, *args)

    async def _execute(self, sql: str, *args: Any) -> None:
        async with self._connection() as connection:
            await connection.execute(sql, *args)

    async def set_status(self, table_id: int, status: str, finished_at: float | None = None) -> None:
        await self._execute("UPDATE game_tables SET status = $1, finished_at = $2 WHERE id = $3",
                            status, finished_at, table_id)

    async def _tables(self, where: str, args: tuple[Any, ...], snapshots: bool = False) -> list[TableRecord]:
        async with self._connection() as connection:
            return await _read_tables(connection, where, args, snapshots)

    async def table_index(self) -> list[IndexRow]:
        async with self._connection() as connection:
            rows = await connection.fetch(
                "SELECT id, guild_id, channel_id, game, status, host_id, version, board_due, deadline, turn_seconds,"
                " reminders_sent, settings FROM game_tables WHERE status IN ('lobby', 'playing') OR board_due"
                " ORDER BY id")
        return [IndexRow._make(row) for row in rows]

    async def active_tables(self) -> list[TableRecord]:
        return await self._tables("t.status IN ('lobby', 'playing') OR t.board_due ORDER BY t.id", (),
                                  snapshots=True)

    async def table_record(self, table_id: int) -> TableRecord | None:
        tables = await self._tables("t.id = $1", (table_id,))
        return tables[0] if tables else None

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        tables = await self._tables(
            "t.channel_id = $1 ORDER BY t.status IN ('lobby', 'playing') DESC, t.id DESC LIMIT 1", (channel_id,))
        return tables[0] if tables else None

    async def start_game(self, table_id: int, seats: list[Seat], state: str) -> None:
        async with self._connection() as connection, connection.transaction():
            await self._write_seats(connection, table_id, seats)
            await connection.execute("INSERT INTO snapshots (table_id, version, state) VALUES ($1, 0, $2)",
                                     table_id, state)
            await connection.execute(
                "UPDATE game_tables SET status = 'playing', board_due = TRUE, version = 0 WHERE id = $1", table_id)

    async def commit_moves(self, table_id, expected_version, moves, state, at, status=None, clock=None,
                           board_due=None, seats=None, held_events=None) -> int:
        await self._after_queued(table_id)
        new_version = expected_version + len(moves)
        # The table's row carries its version: one conditional update checks it and writes the rest.
        columns: list[str] = ["version = $1"]
        values: list[Any] = [new_version]
        for names, given in (("status, finished_at", None if status is None else (status, at)),
                             ("deadline, reminders_sent, time_left", clock),
                             ("board_due", None if board_due is None else (board_due,)),
                             ("held_events", None if held_events is None else (json.dumps(held_events),))):
            if given is not None:
                for name, value in zip(names.split(", "), given, strict=True):
                    values.append(value)
                    columns.append(f"{name} = ${len(values)}")
        where = f"WHERE id = ${len(values) + 1} AND version = ${len(values) + 2}"
        values += [table_id, expected_version]
        if seats is None:  # the usual move: one statement, so one round trip (its own transaction)
            n = len(values)
            applied = await self._fetchval(
                f"WITH t AS (UPDATE game_tables SET {', '.join(columns)} {where} RETURNING id),"
                " m AS (INSERT INTO moves (table_id, seq, seat, action, created_at)"
                f"  SELECT ${n - 1}, ${n} + u.n, u.seat, u.action, ${n + 1}::double precision"
                f"  FROM unnest(${n + 2}::integer[], ${n + 3}::text[]) WITH ORDINALITY AS u(seat, action, n)"
                "  WHERE EXISTS (SELECT 1 FROM t)),"
                f" s AS (UPDATE snapshots SET version = $1, state = ${n + 4}::text WHERE table_id = ${n - 1}"
                f"  AND ${n + 4}::text IS NOT NULL AND EXISTS (SELECT 1 FROM t))"
                " SELECT count(*) FROM t",
                *values, at, [seat for seat, _ in moves], [text for _, text in moves], state)
            if applied != 1:  # nothing of the statement was written
                raise VersionConflict(f"table {table_id} is not at version {expected_version}")
            return new_version
        async with self._connection() as connection, connection.transaction():
            updated = await connection.execute(f"UPDATE game_tables SET {', '.join(columns)} {where}", *values)
            if updated != "UPDATE 1":  # the transaction is rolled back as the error leaves it
                raise VersionConflict(f"table {table_id} is not at version {expected_version}")
            if moves:
                await connection.executemany(
                    "INSERT INTO moves (table_id, seq, seat, action, created_at) VALUES ($1, $2, $3, $4, $5)",
                    [(table_id, expected_version + i + 1, seat, text, at) for i, (seat, text) in enumerate(moves)])
            if state is not None:
                await connection.execute("UPDATE snapshots SET version = $1, state = $2 WHERE table_id = $3",
                                         new_version, state, table_id)
            if seats is not None:
                await self._write_seats(connection, table_id, seats)
        return new_version

    async def set_clock(self, table_id: int, deadline: float | None, turn_seconds: int | None = None,
                        reminders_sent: int = 0) -> None:
        await self._execute(
            "UPDATE game_tables SET deadline = $1, reminders_sent = $2, turn_seconds = coalesce($3, turn_seconds)"
            " WHERE id = $4", deadline, reminders_sent, turn_seconds, table_id)

    async def set_board_due(self, table_id: int, due: bool) -> None:
        await self._after_queued(table_id)
        await self._execute("UPDATE game_tables SET board_due = $1 WHERE id = $2", due, table_id)

    def set_board_posted(self, table_id: int, held_events: list[Any], board_due: bool) -> asyncio.Task[None]:
        # Written by a task of its own, which the table's next writes of these columns wait for (the pool gives
        # no order between connections, and an older list written last would bring told events back).
        held = json.dumps(held_events)
        previous = self._queued.get(table_id)

        async def write() -> None:
            if previous is not None:
                await asyncio.wait([previous])
            await self._execute("UPDATE game_tables SET held_events = $1, board_due = $2 WHERE id = $3",
                                held, board_due, table_id)

        task = asyncio.get_running_loop().create_task(write(), name=f"board posted, table {table_id}")
        self._queued[table_id] = task
        task.add_done_callback(lambda done: self._forget_queued(table_id, done))
        return task

    def _forget_queued(self, table_id: int, done: asyncio.Task[None]) -> None:
        if self._queued.get(table_id) is done:  # a later write queued meanwhile stays
            del self._queued[table_id]
        if not done.cancelled() and (error := done.exception()) is not None:
            log_board_not_stored(table_id, error)

    async def flush(self) -> None:
        if self._queued:
            await asyncio.wait(list(self._queued.values()))

    async def _after_queued(self, table_id: int) -> None:
        """Once the table's queued write (``set_board_posted``) is made, whether it succeeded or not."""
        queued = self._queued.get(table_id)
        if queued is not None:
            await asyncio.wait([queued])

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self._execute("UPDATE game_tables SET lobby_message_id = $1 WHERE id = $2", message_id, table_id)

    async def set_held_events(self, table_id: int, events: list[Any]) -> None:
        await self._after_queued(table_id)
        await self._execute("UPDATE game_tables SET held_events = $1 WHERE id = $2", json.dumps(events), table_id)

    async def set_settings(self, table_id: int, turn_seconds: int, settings: dict[str, Any]) -> None:
        await self._execute("UPDATE game_tables SET turn_seconds = $1, settings = $2 WHERE id = $3",
                            turn_seconds, json.dumps(settings), table_id)

    async def set_pause(self, table_id, paused_at, paused_by, time_left, deadline) -> None:
        await self._execute(
            "UPDATE game_tables SET paused_at = $1, paused_by = $2, time_left = $3, deadline = $4 WHERE id = $5",
            paused_at, paused_by, time_left, deadline, table_id)

    def recovery_now(self, table_id: int) -> Recovery | None:
        return self._reader.read(lambda connection: _recovery(connection, table_id))

    def table_record_now(self, table_id: int) -> TableRecord | None:
        tables = self._reader.read(lambda connection: _read_tables(connection, "t.id = $1", (table_id,), True))
        return tables[0] if tables else None

    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        async with self._connection() as connection:
            row = await connection.fetchrow("SELECT version, state FROM snapshots WHERE table_id = $1", table_id)
        return (row[0], row[1]) if row else None

    async def get_meta(self, key: str) -> str | None:
        async with self._connection() as connection:
            return await connection.fetchval("SELECT value FROM meta WHERE key = $1", key)

    async def set_meta(self, key: str, value: str) -> None:
        await self._execute("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value ="
                            " excluded.value", key, value)

    async def moves(self, table_id: int) -> list[tuple[int, int, str, float]]:
        async with self._connection() as connection:
            rows = await connection.fetch(
                "SELECT seq, seat, action, created_at FROM moves WHERE table_id = $1 ORDER BY seq", table_id)
        return [(row[0], row[1], row[2], row[3]) for row in rows]

    # -- ratings and results (issue 19) -----------------------------------------------------------
    async def ratings(self, guild_id: int, game: str, players: list[str]) -> dict[str, tuple[float, float]]:
        async with self._connection() as connection:
            rows = await connection.fetch(
                "SELECT player, mu, sigma FROM ratings WHERE guild_id = $1 AND game = $2 AND player = ANY($3::text[])",
                guild_id, game, players)
        return {row[0]: (row[1], row[2]) for row in rows}

    async def record_game(self, table_id: int, guild_id: int, game: str, finished_at: float,
                          results: list[SeatResult], rate: RatingUpdate | None) -> bool:
        async with self._recording, self._connection() as connection, connection.transaction():
            inserted = await connection.execute(
                "INSERT INTO recorded_games (table_id, rated) VALUES ($1, $2) ON CONFLICT (table_id) DO NOTHING",
                table_id, int(rate is not None))
            if inserted != "INSERT 0 1":  # recorded already (by this process or another): a game counts once
                return False
            current: dict[str, tuple[float, float]] = {}
            if rate is not None:
                # One rating transaction at a time per server and game (any process), each on the ratings the one
                # before wrote: the lock is held until this transaction ends.
                await connection.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                                         f"ratings:{guild_id}:{game}")
                rows = await connection.fetch(
                    "SELECT player, mu, sigma FROM ratings WHERE guild_id = $1 AND game = $2"
                    " AND player = ANY($3::text[])", guild_id, game, sorted({r.player for r in results}))
                current = {row[0]: (row[1], row[2]) for row in rows}
            final, new = rated(results, rate, current)
            await connection.executemany(
                "INSERT INTO game_results (table_id, seat, guild_id, game, player, display, place, score, won, mu,"
                " sigma, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                [(table_id, r.seat, guild_id, game, r.player, r.display, r.place, r.score, int(r.won), r.mu, r.sigma,
                  finished_at) for r in final])
            await connection.executemany(
                "INSERT INTO ratings (guild_id, game, player, mu, sigma) VALUES ($1, $2, $3, $4, $5) ON CONFLICT"
                " (guild_id, game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                [(guild_id, game, player, mu, sigma) for player, (mu, sigma) in new.items()])
        return True

    async def unrecorded_games(self) -> list[TableRecord]:
        return await self._tables(
            "t.status = 'finished' AND t.id NOT IN (SELECT table_id FROM recorded_games)"
            " ORDER BY t.finished_at, t.id", ())

    async def rating_board(self, guild_id: int, game: str) -> list[RatingLine]:
        async with self._connection() as connection:
            rows = await connection.fetch(
                "SELECT r.player, r.mu, r.sigma, COUNT(DISTINCT g.table_id),"
                " COUNT(DISTINCT CASE WHEN g.won = 1 THEN g.table_id END),"
                " (SELECT l.display FROM game_results l WHERE l.guild_id = r.guild_id AND l.game = r.game"
                "  AND l.player = r.player ORDER BY l.finished_at DESC LIMIT 1)"
                " FROM ratings r JOIN game_results g ON g.guild_id = r.guild_id AND g.game = r.game"
                " AND g.player = r.player WHERE r.guild_id = $1 AND r.game = $2"
                " GROUP BY r.guild_id, r.game, r.player, r.mu, r.sigma", guild_id, game)
        return [RatingLine(player, display or player, mu, sigma, games, wins)
                for player, mu, sigma, games, wins, display in rows]

    async def player_results(self, guild_id: int, player: str) -> list[PlayerGame]:
        # An AI level seated twice in one game counts once: its best place.
        async with self._connection() as connection:
            rows = await connection.fetch(
                "SELECT table_id, game, finished_at, MIN(place), MAX(score), MAX(won), MAX(mu), MAX(sigma)"
                " FROM game_results WHERE guild_id = $1 AND player = $2 GROUP BY table_id, game, finished_at"
                " ORDER BY finished_at, table_id", guild_id, player)
        return [PlayerGame(t, g, f, p, s, bool(w), mu, sigma) for t, g, f, p, s, w, mu, sigma in rows]

    async def finished_games(self, channel_id: int, limit: int) -> list[tuple[TableRecord, list[str]]]:
        tables = await self._tables("t.channel_id = $1 AND t.status = 'finished' ORDER BY t.finished_at DESC,"
                                    " t.id DESC LIMIT $2", (channel_id, limit))
        winners: dict[int, list[str]] = {table.id: [] for table in tables}
        if tables:
            async with self._connection() as connection:
                rows = await connection.fetch(
                    "SELECT table_id, display FROM game_results WHERE place = 1 AND table_id = ANY($1::bigint[])"
                    " ORDER BY table_id, seat", list(winners))
            for table_id, display in rows:
                winners[table_id].append(display)
        return [(table, winners[table.id]) for table in tables]

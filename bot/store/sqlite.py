"""The aiosqlite store: WAL mode, numbered migrations applied at start.

Durability: ``synchronous=FULL``, so a move acknowledged to a player survives an operating-system crash or a
power loss too, not only a crash of the bot (measured: about +0.2 ms per commit).
"""

from __future__ import annotations

import json
import sqlite3
from importlib import resources
from typing import Any

import aiosqlite

from bot.store.base import (
    PlayerGame,
    RatingLine,
    Seat,
    SeatResult,
    Store,
    StoreUnavailable,
    TableRecord,
    VersionConflict,
)

BUSY_TIMEOUT_MS = 5000  # how long a write waits for another process's lock before the store gives up


def migrations() -> list[tuple[int, str]]:
    """(number, sql) for every ``NNN_name.sql`` shipped in ``bot/store/migrations``, in order."""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class SqliteStore(Store):
    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._reader: sqlite3.Connection | None = None  # snapshot_now's own connection (WAL: reads never wait)

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def open(self) -> None:
        """Open, check that the database can be used, and migrate. Raises ``StoreUnavailable`` with one
        clear sentence when it cannot: not a database, corrupt, read-only, locked, or newer than this code."""
        try:
            self._db = await aiosqlite.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000)
            await self._probe()
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA foreign_keys=ON")
            await self.db.execute("PRAGMA synchronous=FULL")
            await self._migrate()
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
        if await self.schema_version() > known:
            raise StoreUnavailable(
                f"the database {self.path} is from a newer version of the bot (schema "
                f"{await self.schema_version()}, this one knows {known}): run the newer version")
        try:  # a write lock, taken and given back: read-only files and long-held locks show here
            await self.db.execute("BEGIN IMMEDIATE")
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

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def create_table(self, guild_id, channel_id, game, options, host_id, seed, created_at, seats=None,
                           turn_seconds=86400, settings=None) -> TableRecord:
        seats, settings = list(seats or []), dict(settings or {})
        try:
            cursor = await self.db.execute(
                "INSERT INTO game_tables (guild_id, channel_id, game, options, status, host_id, seed, created_at,"
                " turn_seconds, settings) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game, json.dumps(options), host_id, seed, created_at, turn_seconds,
                 json.dumps(settings)),
            )
            table_id = int(cursor.lastrowid or 0)
            await self._write_seats(table_id, seats)
            await self.db.commit()
        except sqlite3.IntegrityError:
            await self.db.rollback()
            raise ValueError("channel already has an active table") from None
        except BaseException:
            await self.db.rollback()
            raise
        return TableRecord(table_id, guild_id, channel_id, game, options, "lobby", host_id, seed, created_at,
                           seats=seats, turn_seconds=turn_seconds, settings=settings)

    async def _write_seats(self, table_id: int, seats: list[Seat]) -> None:
        await self.db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        await self.db.executemany(
            "INSERT INTO seats (table_id, position, user_id, display, color, eliminated, timeouts, pauses_used,"
            " ai_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, s.position, s.user_id, s.display, s.color, int(s.eliminated), s.timeouts, s.pauses_used,
              s.ai_level) for s in seats],
        )

    async def save_seats(self, table_id: int, seats: list[Seat]) -> None:
        await self._write_seats(table_id, seats)
        await self.db.commit()

    async def set_status(self, table_id: int, status: str, finished_at: float | None = None) -> None:
        await self.db.execute(
            "UPDATE game_tables SET status = ?, finished_at = ? WHERE id = ?", (status, finished_at, table_id)
        )
        await self.db.commit()

    async def _tables(self, where: str, params: tuple[Any, ...], snapshots: bool = False) -> list[TableRecord]:
        """The tables matching ``where`` (SQL on ``game_tables`` as ``t``), with their seats, in two queries
        whatever their number (and the version of their latest snapshot, if asked: the state is read when
        first used, ``snapshot_now``)."""
        snapshot_columns = ", s.version, NULL" if snapshots else ", NULL, NULL"
        snapshot_join = " LEFT JOIN snapshots s ON s.table_id = t.id" if snapshots else ""
        async with self.db.execute(
            "SELECT t.id, t.guild_id, t.channel_id, t.game, t.options, t.status, t.host_id, t.seed, t.created_at,"
            " t.finished_at, t.turn_seconds, t.deadline, t.paused_at, t.paused_by, t.time_left, t.reminders_sent,"
            " t.settings, t.held_events, t.board_due, t.lobby_message_id" + snapshot_columns +
            f" FROM game_tables t{snapshot_join} WHERE {where}",
            params,
        ) as cursor:
            rows = await cursor.fetchall()
        tables: list[TableRecord] = []
        for row in rows:
            try:
                record = TableRecord(row[0], row[1], row[2], row[3], json.loads(row[4]), *row[5:10],
                                     turn_seconds=row[10], deadline=row[11], paused_at=row[12], paused_by=row[13],
                                     time_left=row[14], reminders_sent=row[15], settings=json.loads(row[16]),
                                     held_events=json.loads(row[17]), board_due=bool(row[18]),
                                     lobby_message_id=row[19],
                                     snapshot_version=row[20])
            except (TypeError, ValueError) as error:  # one bad row is reported with its table, not raised
                record = TableRecord(row[0], row[1], row[2], str(row[3]), {}, row[5], row[6], 0, 0.0,
                                     load_error=f"unreadable row: {error}")
            tables.append(record)
        if tables:
            by_id = {record.id: record for record in tables}
            async with self.db.execute(
                "SELECT table_id, position, user_id, display, color, eliminated, timeouts, pauses_used, ai_level"
                " FROM seats"
                f" WHERE table_id IN (SELECT t.id FROM game_tables t WHERE {where.split(' ORDER BY ')[0]})"
                " ORDER BY table_id, position", params,
            ) as cursor:
                async for table_id, p, u, d, c, e, n, q, level in cursor:
                    if table_id in by_id:
                        by_id[table_id].seats.append(Seat(p, u, d, c, bool(e), n, q, level))
        return tables

    async def active_tables(self) -> list[TableRecord]:
        return await self._tables("t.status IN ('lobby', 'playing') OR t.board_due = 1 ORDER BY t.id", (),
                                  snapshots=True)

    async def table_record(self, table_id: int) -> TableRecord | None:
        tables = await self._tables("t.id = ?", (table_id,))
        return tables[0] if tables else None

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        tables = await self._tables(
            "t.channel_id = ? ORDER BY t.status IN ('lobby', 'playing') DESC, t.id DESC LIMIT 1", (channel_id,)
        )
        return tables[0] if tables else None

    async def start_game(self, table_id: int, seats: list[Seat], state: str) -> None:
        await self._write_seats(table_id, seats)
        await self.db.execute(
            "INSERT INTO snapshots (table_id, version, state) VALUES (?, 0, ?)", (table_id, state)
        )
        await self.db.execute("UPDATE game_tables SET status = 'playing', board_due = 1 WHERE id = ?", (table_id,))
        await self.db.commit()

    async def commit_moves(self, table_id, expected_version, moves, state, at, status=None, clock=None,
                           board_due=None, seats=None, held_events=None) -> int:
        new_version = expected_version + len(moves)
        try:
            cursor = await self.db.execute(
                "UPDATE snapshots SET version = ?, state = ? WHERE table_id = ? AND version = ?",
                (new_version, state, table_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise VersionConflict(f"table {table_id} is not at version {expected_version}")
            await self.db.executemany(
                "INSERT INTO moves (table_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                [(table_id, expected_version + i + 1, seat, text, at) for i, (seat, text) in enumerate(moves)],
            )
            if status is not None:
                await self.db.execute(
                    "UPDATE game_tables SET status = ?, finished_at = ? WHERE id = ?", (status, at, table_id)
                )
            if clock is not None:
                await self.db.execute(
                    "UPDATE game_tables SET deadline = ?, reminders_sent = ?, time_left = ? WHERE id = ?",
                    (*clock, table_id))
            if board_due is not None:
                await self.db.execute("UPDATE game_tables SET board_due = ? WHERE id = ?", (int(board_due), table_id))
            if seats is not None:
                await self._write_seats(table_id, seats)
            if held_events is not None:
                await self.db.execute("UPDATE game_tables SET held_events = ? WHERE id = ?",
                                      (json.dumps(held_events), table_id))
            await self.db.commit()
        except BaseException:
            await self.db.rollback()
            raise
        return new_version

    async def set_clock(self, table_id: int, deadline: float | None, turn_seconds: int | None = None,
                        reminders_sent: int = 0) -> None:
        if turn_seconds is not None:
            await self.db.execute("UPDATE game_tables SET turn_seconds = ? WHERE id = ?", (turn_seconds, table_id))
        await self.db.execute("UPDATE game_tables SET deadline = ?, reminders_sent = ? WHERE id = ?",
                              (deadline, reminders_sent, table_id))
        await self.db.commit()

    async def set_board_due(self, table_id: int, due: bool) -> None:
        await self.db.execute("UPDATE game_tables SET board_due = ? WHERE id = ?", (int(due), table_id))
        await self.db.commit()

    async def set_board_posted(self, table_id: int, held_events: list[Any], board_due: bool) -> None:
        await self.db.execute("UPDATE game_tables SET held_events = ?, board_due = ? WHERE id = ?",
                              (json.dumps(held_events), int(board_due), table_id))
        await self.db.commit()

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self.db.execute("UPDATE game_tables SET lobby_message_id = ? WHERE id = ?", (message_id, table_id))
        await self.db.commit()

    async def set_held_events(self, table_id: int, events: list[Any]) -> None:
        await self.db.execute("UPDATE game_tables SET held_events = ? WHERE id = ?", (json.dumps(events), table_id))
        await self.db.commit()

    async def set_settings(self, table_id: int, turn_seconds: int, settings: dict[str, Any]) -> None:
        await self.db.execute("UPDATE game_tables SET turn_seconds = ?, settings = ? WHERE id = ?",
                              (turn_seconds, json.dumps(settings), table_id))
        await self.db.commit()

    async def set_pause(self, table_id, paused_at, paused_by, time_left, deadline) -> None:
        await self.db.execute(
            "UPDATE game_tables SET paused_at = ?, paused_by = ?, time_left = ?, deadline = ? WHERE id = ?",
            (paused_at, paused_by, time_left, deadline, table_id),
        )
        await self.db.commit()

    def snapshot_now(self, table_id: int) -> str | None:
        if self._reader is None:
            self._reader = sqlite3.connect(self.path, check_same_thread=False)
        row = self._reader.execute("SELECT state FROM snapshots WHERE table_id = ?", (table_id,)).fetchone()
        return row[0] if row else None

    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        async with self.db.execute("SELECT version, state FROM snapshots WHERE table_id = ?", (table_id,)) as c:
            row = await c.fetchone()
        return (row[0], row[1]) if row else None

    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value ="
                              " excluded.value", (key, value))
        await self.db.commit()

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
                          results: list[SeatResult], ratings: dict[str, tuple[float, float]]) -> bool:
        try:
            cursor = await self.db.execute(
                "INSERT INTO recorded_games (table_id, rated) VALUES (?, ?) ON CONFLICT (table_id) DO NOTHING",
                (table_id, int(bool(ratings))))
            if cursor.rowcount != 1:
                await self.db.rollback()
                return False
            await self.db.executemany(
                "INSERT INTO game_results (table_id, seat, guild_id, game, player, display, place, score, won, mu,"
                " sigma, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(table_id, r.seat, guild_id, game, r.player, r.display, r.place, r.score, int(r.won), r.mu, r.sigma,
                  finished_at) for r in results])
            await self.db.executemany(
                "INSERT INTO ratings (guild_id, game, player, mu, sigma) VALUES (?, ?, ?, ?, ?) ON CONFLICT"
                " (guild_id, game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                [(guild_id, game, player, mu, sigma) for player, (mu, sigma) in ratings.items()])
            await self.db.commit()
        except BaseException:
            await self.db.rollback()
            raise
        return True

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

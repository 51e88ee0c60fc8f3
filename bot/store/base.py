"""The store interface the table service depends on (SQLite today, room for PostgreSQL)."""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple


class VersionConflict(Exception):
    """The snapshot changed since it was read: another move was committed first."""


class StoreUnavailable(Exception):
    """The database cannot be used (read-only, locked, corrupt, or from a newer version of the bot).
    Found at start, so the bot says so in one line instead of failing at the first move."""


log = logging.getLogger(__name__)


def log_board_not_stored(table_id: int, error: BaseException) -> None:
    """A posted board's bookkeeping that could not be stored (a queued write nobody waits for): at worst, the
    board is posted again at the next start."""
    log.error("the board posted at table %s was not stored: %s", table_id, error, exc_info=error)


@dataclass(slots=True)
class Seat:
    position: int
    user_id: int | None  # None: a built-in AI player
    display: str
    color: str | None = None
    eliminated: bool = False
    timeouts: int = 0  # deadlines missed so far
    pauses_used: int = 0
    ai_level: str | None = None  # easy | normal | hard for an AI seat (None: normal); None for a player

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(slots=True)
class TableRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, Any]
    status: str  # lobby | playing | finished | aborted
    host_id: int
    seed: int
    created_at: float
    finished_at: float | None = None
    seats: list[Seat] = field(default_factory=list)
    turn_seconds: int = 86400
    deadline: float | None = None
    paused_at: float | None = None
    paused_by: int | None = None
    time_left: float | None = None  # seconds of the turn left when paused
    reminders_sent: int = 0
    settings: dict[str, Any] = field(default_factory=dict)  # clock settings besides turn_seconds (JSON)
    held_events: list[Any] = field(default_factory=list)  # [seat, code, params] not told in the channel yet
    board_due: bool = False  # the latest turn's board has not been posted yet
    load_error: str | None = None  # the stored row could not be decoded (the table is set aside)
    lobby_message_id: int | None = None  # the lobby message, edited as the table lives
    snapshot_version: int | None = None  # of the latest snapshot of a game in play, as ``active_tables`` reads it
    version: int | None = None  # moves in the table's log (None before the game starts)


def table_record(row: Sequence[Any]) -> TableRecord:
    """A ``game_tables`` row in the column order both stores select (id, guild, channel, game, options, ...,
    version, then the snapshot's version), seats left empty. A row that cannot be decoded gives a record with
    ``load_error`` (the table is set aside with its id and channel), not an exception."""
    try:
        return TableRecord(row[0], row[1], row[2], row[3], json.loads(row[4]), *row[5:10],
                           turn_seconds=row[10], deadline=row[11], paused_at=row[12], paused_by=row[13],
                           time_left=row[14], reminders_sent=row[15], settings=json.loads(row[16]),
                           held_events=json.loads(row[17]), board_due=bool(row[18]), lobby_message_id=row[19],
                           version=row[20], snapshot_version=row[21])
    except (TypeError, ValueError) as error:
        return TableRecord(row[0], row[1], row[2], str(row[3]), {}, row[5], row[6], 0, 0.0,
                           load_error=f"unreadable row: {error}")


@dataclass(frozen=True, slots=True)
class Recovery:
    """A table's latest snapshot and the moves logged after it: the state is the snapshot with those moves
    applied in order (the log is append-only; a snapshot is taken every few moves and at the end)."""

    version: int  # moves in the log
    snapshot_version: int  # moves already in the snapshot
    state: str  # the snapshot: the engine's JSON
    moves: list[tuple[int, str]]  # (seat, notation) logged after the snapshot, in order


class IndexRow(NamedTuple):
    """What the bot reads of every active table at start: enough to route a channel to its table and to
    know when the clock needs it; the rest of the record is read on first use (``table_record_now``)."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    version: int | None
    board_due: bool
    deadline: float | None
    turn_seconds: int
    reminders_sent: int
    settings: str  # JSON, as stored


class Store(ABC):
    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create_table(
        self, guild_id: int | None, channel_id: int, game: str, options: dict[str, Any], host_id: int,
        seed: int, created_at: float, seats: list[Seat] | None = None, turn_seconds: int = 86400,
        settings: dict[str, Any] | None = None,
    ) -> TableRecord:
        """The table with its seats and settings, in one transaction. Raises ``ValueError`` if the channel
        already has an active table."""

    @abstractmethod
    async def save_seats(self, table_id: int, seats: list[Seat]) -> None: ...

    @abstractmethod
    async def set_status(self, table_id: int, status: str, finished_at: float | None = None) -> None: ...

    @abstractmethod
    async def active_tables(self) -> list[TableRecord]:
        """Tables in the lobby or playing, and finished ones whose last board is still due."""

    @abstractmethod
    async def table_index(self) -> list[IndexRow]:
        """One narrow row per table in the lobby or playing, and per finished one whose last board is still
        due: what start-up reads, so the bot is online at once however many tables are stored."""

    @abstractmethod
    def table_record_now(self, table_id: int) -> TableRecord | None:
        """A table with its seats (and its latest snapshot's version), read at once (short blocking reads by
        key): a table indexed at start is read when first used."""

    @abstractmethod
    async def table_record(self, table_id: int) -> TableRecord | None:
        """A table by its id, whatever its status."""

    @abstractmethod
    async def latest_table(self, channel_id: int) -> TableRecord | None:
        """The channel's active table, or else its most recent finished one."""

    @abstractmethod
    async def start_game(self, table_id: int, seats: list[Seat], state: str) -> None:
        """Save seats, the first snapshot (version 0), status ``playing`` and the first board due, in one
        transaction."""

    @abstractmethod
    def commit_moves(
        self, table_id: int, expected_version: int, moves: list[tuple[int, str]], state: str | None, at: float,
        status: str | None = None, clock: tuple[float | None, int, float | None] | None = None,
        board_due: bool | None = None, seats: list[Seat] | None = None, held_events: list[Any] | None = None,
    ) -> Awaitable[int]:
        """Append ``moves`` (seat, notation) to the log, and save ``state`` as the new snapshot unless it is
        ``None``, in one transaction, if the stored version is still ``expected_version``; else raise
        ``VersionConflict``. Awaited, the new version (an awaitable rather than a coroutine: the write is
        queued when this is called, and a move's commit costs one coroutine less).
        In the same transaction: the new ``status``, the ``clock`` (deadline, reminders sent, time left while
        paused), whether a board is due, the ``seats`` and what the next board tells (``held_events``), when
        given."""

    @abstractmethod
    async def set_clock(self, table_id: int, deadline: float | None, turn_seconds: int | None = None,
                        reminders_sent: int = 0) -> None: ...

    @abstractmethod
    async def set_board_due(self, table_id: int, due: bool) -> None: ...

    @abstractmethod
    async def set_lobby_message(self, table_id: int, message_id: int) -> None: ...

    @abstractmethod
    async def set_held_events(self, table_id: int, events: list[Any]) -> None: ...

    @abstractmethod
    async def flush(self) -> None:
        """Once every write queued so far (``set_board_posted``) is made."""

    @abstractmethod
    def set_board_posted(self, table_id: int, held_events: list[Any], board_due: bool) -> Awaitable[None]:
        """What is still to tell, and whether a board is still due, in one write, queued at once: it is made
        before any later write of the table, so the caller need not wait for it (awaiting what this returns
        waits until it is stored). A failure is logged here (``log_board_not_stored``): nobody has to watch it."""

    @abstractmethod
    async def set_settings(self, table_id: int, turn_seconds: int, settings: dict[str, Any]) -> None: ...

    @abstractmethod
    async def set_pause(self, table_id: int, paused_at: float | None, paused_by: int | None,
                        time_left: float | None, deadline: float | None) -> None: ...

    @abstractmethod
    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        """The latest snapshot (version, JSON): taken every few moves, so it may be older than the table."""

    @abstractmethod
    def recovery_now(self, table_id: int) -> Recovery | None:
        """What rebuilds the table's state: its latest snapshot and the moves logged after it, read at once
        in one read transaction (short blocking reads by key): a state is rebuilt on first use, wherever
        that use is, and only the tables in use are kept in memory."""

    @abstractmethod
    async def get_meta(self, key: str) -> str | None:
        """A fact about the bot itself (``meta`` table), or ``None``."""

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    async def moves(self, table_id: int) -> list[tuple[int, int, str, float]]:
        """(seq, seat, notation, time) in order."""

    # -- ratings and results (issue 19) -----------------------------------------------------------
    @abstractmethod
    async def ratings(self, guild_id: int, game: str, players: list[str]) -> dict[str, tuple[float, float]]:
        """The (mu, sigma) of those of ``players`` already rated in the server's ``game``."""

    @abstractmethod
    async def record_game(self, table_id: int, guild_id: int, game: str, finished_at: float,
                          results: list[SeatResult], rate: RatingUpdate | None) -> bool:
        """In one transaction: mark the table recorded, read the players' ratings, compute their new ones with
        ``rate`` (``None``: the game is not rated) and write them with the seats' results (see ``rated``).
        ``False`` (nothing written) if the table was recorded already: a game counts once. Games ending at once
        are each rated on the ratings the one before wrote, without waiting for each other's commit."""

    @abstractmethod
    async def unrecorded_games(self) -> list[TableRecord]:
        """Finished tables whose results are not recorded yet (a crash right after the end, or finished
        before ratings existed), oldest end first."""

    @abstractmethod
    async def rating_board(self, guild_id: int, game: str) -> list[RatingLine]:
        """Every rated player of the server's ``game`` (in no particular order)."""

    @abstractmethod
    async def player_results(self, guild_id: int, player: str) -> list[PlayerGame]:
        """The player's recorded games in the server, oldest first."""

    @abstractmethod
    async def finished_games(self, channel_id: int, limit: int) -> list[tuple[TableRecord, list[str]]]:
        """The channel's latest finished tables (newest first) with the names of their winners."""


@dataclass(slots=True)
class SeatResult:
    """One seat's part in a finished game, as recorded (``mu``/``sigma``: after the game, if rated)."""

    seat: int
    player: str  # "user:<id>" or "ai:<level>"
    display: str
    place: int
    score: int
    won: bool
    mu: float | None = None
    sigma: float | None = None


Ratings = dict[str, tuple[float, float]]  # player: (mu, sigma)
RatingUpdate = Callable[[Ratings], Ratings]  # the players' current ratings (the rated ones) -> their new ones


def rated(results: list[SeatResult], rate: RatingUpdate | None,
          current: Ratings) -> tuple[list[SeatResult], Ratings]:
    """The results with each seat's rating after the game, and the new ratings (none if ``rate`` is None)."""
    if rate is None:
        return results, {}
    new = rate(current)
    return [replace(r, mu=new[r.player][0], sigma=new[r.player][1]) for r in results], new


@dataclass(slots=True)
class RatingLine:
    player: str
    display: str  # the name in the player's latest game
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(slots=True)
class PlayerGame:
    table_id: int
    game: str
    finished_at: float
    place: int
    score: int
    won: bool
    mu: float | None
    sigma: float | None

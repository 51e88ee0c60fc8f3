"""A table as the service holds it (``Table``), what a move did (``MoveOutcome``), the turn key, a table set
aside (``BrokenTable``, ``Unplayable``) and the marks of the move log."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.store import Seat, TableRecord
from bot.store.base import IndexRow
from bot.table_settings import TableSettings
from games.core import AnyGame, Event


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

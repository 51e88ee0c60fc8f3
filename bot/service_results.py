"""The table service's results and what the channel is told: a finished game's results and ratings recorded
beside its last move, and the events and moves held for the next board until it is posted."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot import ratings
from bot.service_base import ServiceBase
from bot.store import TableRecord
from bot.table import MOVE, Table
from games.core import AnyGame, Event

log = logging.getLogger("bot.tables")  # the table service's log, as before it was split in modules

# How long a command reading results (leaderboard, stats, history) waits for a game that has just ended: well
# within the 3 s an interaction has to answer; a slower write is read as it stands.
READ_RESULTS_WITHIN = 1.5


class ResultsMixin(ServiceBase):
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

"""The boards still owed to channels, posted a few at a time, newest turns first, paced for Discord.

A board is due from its move's own transaction until it is posted. After a long Discord outage, or a crash,
thousands of tables may owe one at once: posting them all at the same moment would decode every table's state
and draw every board together, and the bot would stop answering (its gateway heartbeat too) until the last
one was done; Discord would then refuse most of the posts for their rate. Every due board goes through this
queue instead: a few workers (``workers``) post them one after the other, at most ``per_second`` a second
in all (Discord allows a bot 50 requests a second, and commands need their share), the table whose turn began
last first: its player is the one most likely waiting. A board whose post fails is tried again after each of
``retry_delays``, and after the last one it is left due in the store (the next start posts it).

The queue knows nothing of Discord: ``post`` (the board cog's) says whether the board went out, and
``prepare`` (the table service's) reads the table off the event loop first.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.tables import Table

log = logging.getLogger(__name__)

BACKLOG_WORKERS = 2  # boards drawn and posted at once (a board's drawing takes most of a core)
POSTS_PER_SECOND = 20.0  # of Discord's 50 requests a second per bot: the rest for commands and answers
RETRY_DELAYS = (30.0, 120.0, 600.0)  # after a post Discord refused (it is down, or slow)


@dataclass(slots=True)
class _Due:
    table: Table
    locale: str
    newest_first: tuple[float, int]  # minus when its turn began, then first queued first
    attempt: int = 0


Post = Callable[[Table, str], Awaitable[bool]]


class BoardQueue:
    def __init__(self, post: Post, prepare: Callable[[Table], Awaitable[bool]], workers: int = BACKLOG_WORKERS,
                 per_second: float = POSTS_PER_SECOND, retry_delays: tuple[float, ...] = RETRY_DELAYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.post, self.prepare = post, prepare
        self.workers, self.per_second, self.retry_delays, self.clock = workers, per_second, retry_delays, clock
        # Two heaps: the boards not to be tried yet, by when they may be; the ready ones, newest turn first.
        self._later: list[tuple[float, int, _Due]] = []
        self._ready: list[tuple[tuple[float, int], _Due]] = []
        self._queued: dict[int, _Due] = {}  # table id -> its entry (one per table)
        self._numbers = itertools.count()
        self._changed = asyncio.Event()
        self._next_post = 0.0  # when the pace allows the next post
        self._tasks: list[asyncio.Task[None]] = []
        self.posted = self.failed = 0  # boards posted; tries Discord refused (for the log and the benchmark)

    def __len__(self) -> int:
        return len(self._queued)

    def __contains__(self, table: Table) -> bool:
        return self._id(table) in self._queued

    @staticmethod
    def _id(table: Table) -> int:
        return table.index.id if table.index is not None else table.record.id

    def add(self, table: Table, locale: str, refused: bool = False) -> None:
        """Queue the table's due board (``refused``: Discord just refused it, so it is tried after the first
        of ``retry_delays``); a table already queued keeps its place."""
        key = self._id(table)
        if key in self._queued:
            return
        due = self._queued[key] = _Due(table, locale, (-table.turn_began, next(self._numbers)), int(refused))
        self._wait(due, self.retry_delays[0] if refused else 0.0)

    def _wait(self, due: _Due, delay: float) -> None:
        if delay > 0:
            heapq.heappush(self._later, (self.clock() + delay, next(self._numbers), due))
        else:
            heapq.heappush(self._ready, (due.newest_first, due))
        self._changed.set()

    def start(self) -> None:
        if not self._tasks:
            loop = asyncio.get_running_loop()
            self._tasks = [loop.create_task(self._work(), name=f"board queue {n}") for n in range(self.workers)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    async def drained(self) -> None:
        """Until nothing is queued (for tests and the benchmark)."""
        while self._queued:
            await asyncio.sleep(0.05)

    async def _next(self) -> _Due:
        """The next board to post: of those ready, the one whose turn began last; waits for one to be ready."""
        while True:
            now = self.clock()
            while self._later and self._later[0][0] <= now:
                due = heapq.heappop(self._later)[2]
                heapq.heappush(self._ready, (due.newest_first, due))
            if self._ready:
                return heapq.heappop(self._ready)[1]
            self._changed.clear()
            timeout = self._later[0][0] - now if self._later else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)

    async def _pace(self) -> None:
        now = self.clock()
        wait = self._next_post - now
        self._next_post = max(now, self._next_post) + 1.0 / self.per_second
        if wait > 0:
            await asyncio.sleep(wait)

    async def _work(self) -> None:
        while True:
            due = await self._next()
            key = self._id(due.table)
            try:
                if not await self.prepare(due.table):  # closed, or set aside: nothing to post
                    del self._queued[key]
                    continue
                await self._pace()
                posted = await self.post(due.table, due.locale)
            except Exception:  # one table's failure must not stop the queue
                log.exception("board of table %s could not be posted", key)
                posted = False
            if posted:
                self.posted += 1
                del self._queued[key]
            elif due.attempt >= len(self.retry_delays):
                self.failed += 1
                log.warning("board of table %s not posted after %d tries: left due for the next start", key,
                            due.attempt + 1)
                del self._queued[key]
            else:
                self.failed += 1
                due.attempt += 1
                self._wait(due, self.retry_delays[due.attempt - 1])

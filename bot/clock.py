"""The turn clock: one task that sleeps until the earliest deadline of all tables, woken early when a
sooner deadline is set. Deadlines live in the store, so after a restart the ones that passed while the
bot was down are handled at once and the others re-armed. An idle bot does not wake between deadlines.

What the clock decides is committed in its loop; telling the channel is not: announcements run in their
own tasks (a bounded number at once), so Discord being slow or down delays no other table's clock. A table
whose deadline cannot be handled is tried again later, less and less often, logged once and told once;
the others go on. If the loop itself dies, it starts again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable

from bot.tables import MoveOutcome, Table, TableService, format_duration

log = logging.getLogger(__name__)

# A table that keeps failing is tried again after these delays (seconds), the last one repeating.
RETRY_DELAYS: tuple[float, ...] = (5.0, 30.0, 120.0, 600.0, 3600.0)
ANNOUNCERS = 8  # announcements sent to Discord at once; more wait their turn
RESTART_DELAY = 1.0  # before the loop starts again after dying


class TurnClock:
    def __init__(self, service: TableService, on_timeout: Callable[[MoveOutcome], Awaitable[None]],
                 on_reminder: Callable[[Table, int], Awaitable[None]] | None = None,
                 on_failure: Callable[[Table, str, float], Awaitable[None]] | None = None) -> None:
        self.service = service
        self.on_timeout = on_timeout
        self.on_reminder = on_reminder
        self.on_failure = on_failure  # (table, error id, seconds until the next try): tell the channel
        self.failures: dict[int, tuple[int, float]] = {}  # channel id -> (failures in a row, next try at)
        self.retry_delays = RETRY_DELAYS
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._announcers = asyncio.Semaphore(ANNOUNCERS)
        self._announcements: set[asyncio.Task[None]] = set()
        self._stopping = False
        service.on_deadline_change = self._wake.set

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.get_running_loop().create_task(self._run(), name="turn-clock")
        self._task.add_done_callback(self._restart_if_dead)

    def _restart_if_dead(self, task: asyncio.Task[None]) -> None:
        if self._stopping or task.cancelled():
            return
        log.error("turn clock: the loop died; starting it again", exc_info=task.exception())
        asyncio.get_running_loop().call_later(RESTART_DELAY, self._start_unless_stopping)

    def _start_unless_stopping(self) -> None:
        if not self._stopping:
            self.start()

    async def stop(self) -> None:
        self._stopping = True
        tasks = [t for t in (self._task, *self._announcements) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def settle(self) -> None:
        """Wait for the announcements under way (tests, and a clean shutdown)."""
        while self._announcements:
            await asyncio.gather(*list(self._announcements), return_exceptions=True)

    def _announce(self, what: str, coroutine: Awaitable[None]) -> None:
        async def run() -> None:
            async with self._announcers:
                try:
                    await coroutine
                except Exception:
                    log.exception("turn clock: %s failed", what)

        task = asyncio.get_running_loop().create_task(run(), name=f"clock-{what}")
        self._announcements.add(task)
        task.add_done_callback(self._announcements.discard)

    async def fire_due(self) -> list[MoveOutcome]:
        """Send due reminders and handle every passed deadline (what the loop does when it wakes)."""
        for table, seat in await self.service.due_reminders():
            if self.on_reminder is not None:
                self._announce("reminder", self.on_reminder(table, seat))
        outcomes = []
        now = self.service.clock()
        for channel_id in self.service.due():
            failed = self.failures.get(channel_id)
            if failed is not None and failed[1] > now:
                continue  # backing off (its wake-up was postponed; another reason woke the clock)
            try:
                outcome = await self.service.expire(channel_id)
            except Exception as error:  # one broken table must not stop the clock of all others
                self._failed(channel_id, error)
                continue
            self.failures.pop(channel_id, None)
            if outcome is None:  # nothing to play for it now (no single seat to act): look again later
                self.service.postpone(channel_id, now + RETRY_DELAYS[1])
            else:
                outcomes.append(outcome)
                self._announce("timeout", self.on_timeout(outcome))
        return outcomes

    def _failed(self, channel_id: int, error: Exception) -> None:
        count = self.failures.get(channel_id, (0, 0.0))[0] + 1
        delay = self.retry_delays[min(count, len(self.retry_delays)) - 1]
        self.failures[channel_id] = (count, self.service.clock() + delay)
        self.service.postpone(channel_id, self.service.clock() + delay)
        if count > 1:  # the traceback was logged the first time
            log.warning("turn clock: table in channel %s failed again (%d in a row: %s); next try in %s",
                        channel_id, count, error, format_duration(int(delay)))
            return
        error_id = uuid.uuid4().hex[:8]
        log.error("turn clock: table in channel %s failed (error %s); next try in %s", channel_id, error_id,
                  format_duration(int(delay)), exc_info=error)
        table = self.service.tables.get(channel_id)
        if self.on_failure is not None and table is not None:
            self._announce("failure notice", self.on_failure(table, error_id, delay))

    def next_wake(self) -> float | None:
        """When the loop must wake next: the service's next deadline, reminder or retry of a failing table
        (postponed by ``_failed``)."""
        return self.service.next_wake()

    async def _run(self) -> None:
        failures = 0  # passes in a row that failed as a whole (the store, say): retried, logged once
        while True:
            try:
                await self.fire_due()
                failures = 0
            except Exception:
                failures += 1
                delay = self.retry_delays[min(failures, len(self.retry_delays)) - 1]
                if failures == 1:
                    log.exception("turn clock: a pass failed; trying again in %s", format_duration(int(delay)))
                else:
                    log.warning("turn clock: a pass failed again (%d in a row)", failures)
                await asyncio.sleep(delay)
                continue
            self._wake.clear()
            wake_at = self.next_wake()
            delay = None if wake_at is None else max(0.0, wake_at - self.service.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

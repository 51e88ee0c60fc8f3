"""The turn clock: one task that sleeps until the earliest deadline of all tables, woken early when a
sooner deadline is set. Deadlines live in the store, so after a restart the ones that passed while the
bot was down are handled at once and the others re-armed. An idle bot does not wake between deadlines."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.tables import MoveOutcome, Table, TableService

log = logging.getLogger(__name__)


class TurnClock:
    def __init__(self, service: TableService, on_timeout: Callable[[MoveOutcome], Awaitable[None]],
                 on_reminder: Callable[[Table, int], Awaitable[None]] | None = None) -> None:
        self.service = service
        self.on_timeout = on_timeout
        self.on_reminder = on_reminder
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        service.on_deadline_change = self._wake.set

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="turn-clock")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def fire_due(self) -> list[MoveOutcome]:
        """Send due reminders and handle every passed deadline (what the loop does when it wakes)."""
        for table, seat in await self.service.due_reminders():
            if self.on_reminder is not None:
                try:
                    await self.on_reminder(table, seat)
                except Exception:
                    log.exception("turn clock: a reminder failed")
        outcomes = []
        for channel_id in self.service.due():
            try:
                outcome = await self.service.expire(channel_id)
            except Exception:  # one broken table must not stop the clock of all others
                log.exception("turn clock: table in channel %s failed", channel_id)
                continue
            if outcome is not None:
                outcomes.append(outcome)
                try:
                    await self.on_timeout(outcome)
                except Exception:
                    log.exception("turn clock: announcing a timeout failed")
        return outcomes

    async def _run(self) -> None:
        while True:
            await self.fire_due()
            self._wake.clear()
            wake_at = self.service.next_wake()
            delay = None if wake_at is None else max(0.0, wake_at - self.service.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

"""The table service's clock: pauses, extensions and clock settings; the deadlines and reminders of every
table in one heap of wake times, and what is due; the clock of a turn after a commit."""

from __future__ import annotations

import heapq
from dataclasses import replace
from typing import Any

from bot.errors import TableError
from bot.service_base import ServiceBase
from bot.table import ClockUpdate, Table
from bot.table_settings import (
    PAUSES_PER_PLAYER,
    next_reminder,
    reminder_offsets,
    reminder_schedule,
    wake_time,
)

STALE_WAKES_KEPT = 4  # the clock's heap is rebuilt when it holds this many entries per live one


class ClockMixin(ServiceBase):
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

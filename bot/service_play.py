"""The table service's play: moves and their commit (with the AI seats' replies), a missed deadline played
out, seats handed over or removed, and what a player may play now."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from bot.errors import TableError
from bot.service_base import ServiceBase
from bot.store import Seat, VersionConflict
from bot.table import ELIMINATED, LOG_MARK, MOVE, REPLACED_BY_AI, MoveOutcome, Table, TurnKey, turn_key
from games.ai import DEFAULT_LEVEL
from games.core import Event

# A table's snapshot is written every this many moves (and at the end, and with any move the engine cannot
# replay); the moves between are the log's, replayed on recovery. A move's commit is then one small insert.
SNAPSHOT_EVERY = 50  # a rebuild replays at most 49 moves: a few milliseconds in the slowest engine


class PlayMixin(ServiceBase):
    # -- play -----------------------------------------------------------------------------------
    def mover(self, channel_id: int | None, user_id: int, game_key: str | None = None) -> tuple[Table, int]:
        """The channel's running table (of ``game_key``, if given) where it is ``user_id``'s turn, and their seat;
        else the ``TableError`` saying why not (a table that cannot be played says why, as on any use). For the
        panels, which check before they show a turn's choices; ``act`` checks again under the lock."""
        if channel_id is None:
            raise TableError("no_table")
        table = self.table(channel_id)
        if game_key is not None and table.game.key != game_key:
            raise TableError("no_table")
        if table.state is None or table.record.status != "playing":
            raise TableError("not_started")
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if table.game.is_over(table.state):
            raise TableError("game_over")
        if seat.position not in table.game.to_act(table.state):
            raise TableError("not_your_turn")
        return table, seat.position

    async def act(self, channel_id: int, user_id: int, notation: str | Sequence[str],
                  expected_version: int | None = None) -> MoveOutcome:
        """Apply one move of ``user_id``, or several in a row committed together (all or nothing: a
        turn built in a panel, e.g. place + figure + confirm). ``expected_version`` (from a button posted at
        that version) turns a stale second click into ``already_played`` instead of a move in a later position."""
        notations = [notation] if isinstance(notation, str) else list(notation)
        if not notations:
            raise TableError("not_your_turn")
        async with self._locked(channel_id, "playing") as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if expected_version is not None and expected_version != table.version:
                raise TableError("already_played")
            game = table.game
            # Moves are applied to the live state (no copy per move: decoding a late game replays every
            # tile). A refused action leaves the state untouched (the engine contract); if anything fails
            # after the state changed (a later step refused, the commit failed), the table goes back to
            # the state it has in the store.
            working = table.state
            before = turn_key(game, working)
            position, parse = seat.position, self.notations.parse
            moves: list[tuple[int, str]] = []
            events: list[tuple[int, Event]] = []
            try:
                for number, text in enumerate(notations):
                    if game.is_over(working):
                        raise TableError("game_over")
                    if position not in (before[0] if number == 0 else game.to_act(working)):
                        raise TableError("not_your_turn")
                    action, written = parse(game, text)
                    events += [(position, e) for e in game.apply(working, position, action)]
                    moves.append((position, written))
                return await self._commit(table, working, moves, events, before=before)
            except BaseException:
                if moves:
                    await self._restore(table)
                raise

    async def _restore(self, table: Table) -> None:
        """Back to the state and version the store holds (after a move that changed the live state failed)."""
        table.state = self._recover(table)

    async def expire(self, channel_id: int) -> MoveOutcome | None:
        """The deadline of the seat to move has passed: the first time, the game's default action is
        played for it; the second time, it is eliminated and the game goes on without it."""
        table = self.tables.get(channel_id)
        if table is None or table.state is None:
            return None
        async with table.lock:
            if self.tables.get(channel_id) is not table:
                return None
            deadline = table.record.deadline
            owner = table.game.turn_owner(table.state)
            if deadline is None or self.clock() < deadline or owner is None:
                return None
            game = table.game
            working = game.from_json(game.to_json(table.state))
            before = turn_key(game, table.state)
            moves: list[tuple[int, str]] = []
            events: list[tuple[int, Event]] = []
            with self._seats_kept_on_error(table):
                seat = table.seats[owner]
                seat.timeouts += 1
                policy = table.settings.timeout
                if policy == "default" or (policy == "standard" and seat.timeouts == 1):
                    # A turn may take several actions (tile, then figure, then confirm): play them all, and
                    # only them: the same seat's next turn (solo, or after an AI) gets its own full time.
                    while not game.is_over(working) and turn_key(game, working) == before and len(moves) < 50:
                        action = game.default_action(working, owner)
                        events += [(owner, e) for e in game.apply(working, owner, action)]
                        moves.append((owner, game.format(action)))
                    kind = "default"
                else:
                    kind = self._remove_seat(table, working, seat, moves, events)
                outcome = await self._commit(table, working, moves, events, before=before, seats=True, announce=True)
            outcome.timeout, outcome.timed_out_seat = kind, owner
            return outcome

    @staticmethod
    @contextlib.contextmanager
    def _seats_kept_on_error(table: Table) -> Iterator[None]:
        """Seats changed for a commit (timeouts, elimination) go back as they were if it fails."""
        kept = [replace(seat) for seat in table.seats]
        try:
            yield
        except BaseException:
            table.record.seats = kept
            raise

    def _remove_seat(self, table: Table, working: Any, seat: Seat, moves: list[tuple[int, str]],
                     events: list[tuple[int, Event]]) -> str:
        """Take a player out of the game (timeout or kick): an AI player takes the seat over if the table
        says so (the game goes on unchanged), else the seat is eliminated. Returns which happened."""
        if table.settings.ai_replaces:
            seat.user_id, seat.timeouts = None, 0  # the seat keeps its name; the announcement says who plays
            seat.ai_level = DEFAULT_LEVEL
            moves.append((seat.position, REPLACED_BY_AI))
            return "replaced"
        events += [(seat.position, e) for e in table.game.eliminate(working, seat.position)]
        moves.append((seat.position, ELIMINATED))
        seat.eliminated = True
        return "eliminated"

    # -- host controls over seats, and lookups of turns ------------------------------------------
    def my_turns(self, guild_id: int | None, user_id: int) -> list[tuple[Table, float | None]]:
        """The user's tables in this server where it is their turn, soonest deadline first."""
        found = []
        for table in self.tables.values():
            if table.guild_id != guild_id:  # other servers' tables are not read
                continue
            seat = table.seat_of(user_id)
            if seat is None or table.state is None:
                continue
            if seat.position in table.game.to_act(table.state):
                found.append((table, table.record.deadline))
        return sorted(found, key=lambda item: (item[1] is None, item[1] or 0))

    async def substitute(self, channel_id: int, user_id: int, old_user: int, new_user: int, new_name: str,
                         manage_channels: bool = False) -> Table:
        """Hand a seat to another member; the seat keeps its state (score, hand, timeouts, pauses)."""
        async with self._locked(channel_id) as table:
            self._require_host(table, user_id, manage_channels)
            seat = table.seat_of(old_user)
            if seat is None:
                raise TableError("target_not_seated")
            if table.seat_of(new_user) is not None:
                raise TableError("already_seated")
            seat.user_id, seat.display = new_user, new_name
            await self.store.save_seats(table.record.id, table.seats)
        return table

    async def kick(self, channel_id: int, user_id: int, target_user: int, manage_channels: bool = False) -> MoveOutcome:
        """Eliminate a seat now, with the same consequences as a second missed deadline."""
        async with self._locked(channel_id, "playing") as table:
            self._require_host(table, user_id, manage_channels)
            seat = table.seat_of(target_user)
            if seat is None:
                raise TableError("target_not_seated")
            if seat.eliminated:
                raise TableError("already_eliminated")
            game = table.game
            before = turn_key(game, table.state)
            working = game.from_json(game.to_json(table.state))
            moves: list[tuple[int, str]] = []
            events: list[tuple[int, Event]] = []
            with self._seats_kept_on_error(table):
                self._remove_seat(table, working, table.seats[seat.position], moves, events)
                return await self._commit(table, working, moves, events, before=before, seats=True, announce=True)

    async def _commit(self, table: Table, working: Any, moves: list[tuple[int, str]],
                      events: list[tuple[int, Event]], before: TurnKey | None, seats: bool = False,
                      announce: bool = False) -> MoveOutcome:
        """Let AI seats reply, then store everything in one transaction (moves, snapshot, the clock of a new
        turn, whether a board is due, and the seats if ``seats``) and only then make it live.

        ``before``: the turn key before these moves (``None`` at the start). Every new turn gets a full turn
        time, whoever had the previous one; the steps of one turn keep the turn's deadline. A new turn, or
        what the caller wants ``announce``d (a timeout, a kick), is told with a board."""
        game, record = table.game, table.record
        by_position = {s.position: s for s in record.seats}
        while True:
            finished = game.is_over(working)
            to_act = [] if finished else game.to_act(working)
            if not to_act or not by_position[to_act[0]].is_ai:
                break
            ai_seat = to_act[0]
            # The AI thinks off the event loop (a worker process for hard, else a thread): other tables go
            # on meanwhile. Seeded by the position, so a replay of the table decides the same.
            level = by_position[ai_seat].ai_level or DEFAULT_LEVEL
            planned = await self.ai.steps(game, working, ai_seat, level, record.seed + table.version + len(moves))
            for number, action in enumerate(planned):
                if number and (game.is_over(working) or game.to_act(working) != [ai_seat]
                               or action not in game.legal_actions(working, ai_seat)):
                    break  # the rest of a plan that no longer fits: the AI is asked again
                events += [(ai_seat, e) for e in game.apply(working, ai_seat, action)]
                moves.append((ai_seat, game.format(action)))
        new_turn = finished or turn_key(game, working, to_act) != before
        clock = self._clock_for(table, new_turn, to_act)
        tell = new_turn or announce
        # What the next board tells is kept with the moves: a board posted after a crash or an outage still
        # tells the turn. (Steps answered privately are held by the cog, if the game wants them told.)
        story = record.held_events
        if tell:
            story = story + [[seat, MOVE, {"notation": text}] for seat, text in moves]
            story += [[seat, e.code, e.params] for seat, e in events]
        version = table.version + len(moves)
        # A snapshot every few moves, at the end, and with a move the log cannot replay (a seat removed: a
        # commit of the seats).
        snapshot = (finished or version - table.snapshot_version >= SNAPSHOT_EVERY
                    or (seats and any(text.startswith(LOG_MARK) for _seat, text in moves)))
        if moves or finished or clock is not None:
            try:
                table.version = await self.store.commit_moves(
                    record.id, table.version, moves, game.dumps(working) if snapshot else None,
                    self.clock(),
                    # What the next board tells and whether it is due, written with every commit (from memory,
                    # where a board posted meanwhile has already changed them): a posted board's own write
                    # still queued with it is then left out (see the store's ``set_board_posted``).
                    status="finished" if finished else None, clock=clock, board_due=tell or record.board_due,
                    seats=record.seats if seats else None, held_events=story,
                )
            except VersionConflict:
                raise TableError("already_played") from None
            if snapshot:
                table.snapshot_version = table.version
        table.state = working
        if table.loader is not None:
            self._decoded(table)  # in use: the last to let its state go
        if tell:
            record.board_due, record.held_events = True, story
        if clock is not None:
            record.deadline, record.reminders_sent, record.time_left = clock
        if finished:
            record.status = "finished"
            self.tables.pop(record.channel_id, None)
            self._recent.pop(record.channel_id, None)
        if clock is not None or finished:
            self._clock_changed(table)
        if finished:
            record.finished_at = record.finished_at or self.clock()
            self._record_results(record, game, working)
        return MoveOutcome(table, moves, events, finished, list(to_act), announce=tell)

    def legal_notations(self, channel_id: int, user_id: int) -> list[str]:
        """The user's legal moves now, in notation; none if the channel has no table in play (or one that cannot
        be played: set aside here, and said by the command)."""
        try:
            table = self.table(channel_id)
        except TableError:
            return []
        if table.state is None:
            return []
        seat = table.seat_of(user_id)
        if seat is None:
            return []
        return [table.game.format(a) for a in table.game.legal_actions(table.state, seat.position)]

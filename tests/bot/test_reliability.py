"""The table service and the clock under what testers throw at them: the same seat getting the turn
again, lobby buttons racing Start, a table that keeps failing, Discord slow while the clock runs, broken
rows at start-up, a database that cannot be used, hostile durations. Injected clock, no sleeping."""

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.clock import TurnClock
from bot.store import Seat, SqliteStore
from bot.store.base import StoreUnavailable
from bot.tables import TableError, TableService, TableSettings, parse_duration
from games import registry

CHANNEL, OTHER, ALICE, BOB, CAROL = 10, 11, 1, 2, 3


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def setup(db_path):
    store = SqliteStore(db_path)
    await store.open()
    now = FakeTime()
    yield TableService(store, clock=now), now, store
    await store.close()


async def with_ai(service, channel=CHANNEL, turn_seconds=60, **settings):
    """Alice against an AI seat: after each of her turns the AI replies in the same commit."""
    await service.create(1, channel, "nim", ALICE, "alice", {"pile": "40"}, seed=3, turn_seconds=turn_seconds,
                         settings=TableSettings(**settings))
    await service.add_ai(channel, ALICE)
    await service.start(channel, ALICE)
    return service.table(channel)


# -- 1. every new turn gets a full turn time, whoever had the previous one ------------------------------------
async def test_a_move_answered_by_the_ai_gives_the_next_turn_a_full_deadline(setup):
    service, now, store = setup
    table = await with_ai(service)
    assert table.record.deadline == 1060.0
    now.now = 1020.0  # Alice plays after 20 s; the AI replies; Alice's new turn has 60 s again, not 40 s
    outcome = await service.act(CHANNEL, ALICE, "take 1")
    assert [seat for seat, _ in outcome.moves] == [0, 1] and outcome.next_seats == [0]
    assert table.record.deadline == 1080.0
    assert (await store.latest_table(CHANNEL)).deadline == 1080.0  # stored with the move


async def test_timeouts_against_an_ai_come_one_full_turn_apart(setup):
    # timeout:default: the clock plays Alice's turn, the AI replies, and Alice has a whole turn again,
    # so the clock cannot play the game by itself.
    service, now, _ = setup
    table = await with_ai(service, timeout="default")
    clock = TurnClock(service, lambda outcome: asyncio.sleep(0))
    now.now = 1060.0
    first = await clock.fire_due()
    assert len(first) == 1 and first[0].timeout == "default" and table.record.deadline == 1120.0
    assert await clock.fire_due() == []  # same instant: nothing more is due
    now.now = 1119.0
    assert await clock.fire_due() == []
    assert not table.seats[0].eliminated


async def test_standard_policy_against_an_ai_is_not_a_double_miss(setup):
    # The first miss plays the default move; the AI replies; the new turn is not already past its deadline.
    service, now, _ = setup
    table = await with_ai(service)
    now.now = 1060.0
    clock = TurnClock(service, lambda outcome: asyncio.sleep(0))
    await clock.fire_due()
    assert table.seats[0].timeouts == 1 and not table.seats[0].eliminated
    assert await clock.fire_due() == [] and table.record.deadline == 1120.0


async def test_solo_deole_each_new_roll_gets_a_full_turn_and_a_timeout_plays_one_turn(setup):
    service, now, _ = setup
    await service.create(1, CHANNEL, "deole", ALICE, "alice", seed=7, turn_seconds=86400,
                         settings=TableSettings(timeout="default"))
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    game = table.game
    turn = game.turn_number(table.state)
    now.now += 3600
    while game.turn_number(table.state) == turn:  # one whole turn through the service, step by step
        action = game.legal_actions(table.state, 0)[0]
        outcome = await service.act(CHANNEL, ALICE, game.format(action))
    assert outcome.announce and table.record.deadline == now.now + 86400
    # a deadline missed plays that one turn only; the game goes on with a full day for the next one
    now.now = table.record.deadline
    turn = game.turn_number(table.state)
    outcomes = await TurnClock(service, lambda o: asyncio.sleep(0)).fire_due()
    assert len(outcomes) == 1 and game.turn_number(table.state) > turn
    assert len(outcomes[0].moves) < 10  # one pick's steps, not a run of rolls
    assert not game.is_over(table.state) and table.record.deadline == now.now + 86400


async def test_steps_of_one_turn_keep_its_deadline_and_announce_nothing(setup):
    service, now, store = setup
    await service.create(1, CHANNEL, "trails", ALICE, "alice", seed=4, turn_seconds=600)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    record = await store.latest_table(CHANNEL)
    assert record.board_due  # the first board is due from the start's own transaction
    await service.set_board_due(table, False)
    mover = table.seats[table.game.to_act(table.state)[0]].user_id
    deadline = table.record.deadline
    now.now += 100
    place = table.game.format(table.game.legal_actions(table.state, table.game.to_act(table.state)[0])[0])
    step = await service.act(CHANNEL, mover, place)
    assert not step.announce and table.record.deadline == deadline
    assert not (await store.latest_table(CHANNEL)).board_due
    turn = await service.act(CHANNEL, mover, "confirm")
    assert turn.announce and table.record.deadline == now.now + 600
    assert (await store.latest_table(CHANNEL)).board_due  # marked in the move's own transaction


# -- 2. lobby buttons racing Start ----------------------------------------------------------------------------
@pytest.mark.parametrize("action", ["leave", "join", "add_ai", "remove_ai"])
@pytest.mark.parametrize("start_first", [True, False])
async def test_lobby_actions_racing_start_leave_a_consistent_table(setup, action, start_first):
    service, _, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", seed=1)
    await service.join(CHANNEL, BOB, "bob")
    await service.add_ai(CHANNEL, ALICE)
    calls = {"leave": lambda: service.leave(CHANNEL, BOB), "join": lambda: service.join(CHANNEL, CAROL, "carol"),
             "add_ai": lambda: service.add_ai(CHANNEL, ALICE), "remove_ai": lambda: service.remove_ai(CHANNEL, ALICE)}
    start = service.start(CHANNEL, ALICE)
    racing = calls[action]()
    results = await asyncio.gather(*((start, racing) if start_first else (racing, start)), return_exceptions=True)
    started, other = (results[0], results[1]) if start_first else (results[1], results[0])
    assert not isinstance(started, Exception)
    if start_first:
        assert isinstance(other, TableError) and other.code == "already_started"
    table = started.table
    # Whatever won, the game has exactly the seats the table has, in the store too.
    assert table.state.players == len(table.seats)
    stored = await store.latest_table(CHANNEL)
    assert len(stored.seats) == len(table.seats) and stored.status == "playing"


async def test_a_move_waiting_behind_an_abort_is_refused(setup):
    service, _, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", seed=1)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    abort = service.abort(CHANNEL, ALICE)
    move = service.act(CHANNEL, ALICE, "take 1")
    aborted, refused = await asyncio.gather(abort, move, return_exceptions=True)
    assert isinstance(refused, TableError) and refused.code == "no_table"
    assert await store.moves(aborted.record.id) == []


# -- 2. and 4. the clock: a failing table backs off; Discord being slow stalls no other table ---------------
async def test_a_failing_table_is_retried_later_logged_once_and_told_once(setup, caplog, monkeypatch):
    service, now, _ = setup
    await with_ai(service, CHANNEL)
    good = await with_ai(service, OTHER)
    told = []

    async def tell(table, error_id, delay):
        told.append((table.record.channel_id, delay))

    clock = TurnClock(service, lambda outcome: asyncio.sleep(0), on_failure=tell)
    expire = service.expire

    async def broken_expire(channel_id):
        if channel_id == CHANNEL:
            raise RuntimeError("a bad state")
        return await expire(channel_id)

    monkeypatch.setattr(service, "expire", broken_expire)
    now.now = 1060.0
    with caplog.at_level(logging.WARNING, logger="bot.clock"):
        outcomes = await clock.fire_due()
        assert [o.table.record.channel_id for o in outcomes] == [OTHER]  # the other table is not held up
        assert good.record.deadline == 1120.0
        assert clock.next_wake() == 1065.0  # not the passed deadline: no busy loop
        for _ in range(20):  # the loop waking for other reasons does not retry it before its time
            await clock.fire_due()
        assert clock.failures[CHANNEL][0] == 1
        for _ in range(4):  # each retry at its time fails again: 5 s, 30 s, 2 min, 10 min, then hourly
            now.now = clock.failures[CHANNEL][1]
            await clock.fire_due()
        await clock.settle()
    assert clock.failures[CHANNEL][0] == 5
    assert clock.failures[CHANNEL][1] - now.now == 3600.0
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1 and len([r for r in caplog.records if r.levelno == logging.WARNING]) == 4
    assert told == [(CHANNEL, 5.0)]


async def test_a_pass_that_fails_as_a_whole_is_retried_and_the_loop_survives(setup, monkeypatch, caplog):
    service, now, _ = setup
    fired = asyncio.Event()
    clock = TurnClock(service, lambda outcome: asyncio.sleep(0, fired.set()))
    clock.retry_delays = (0.01,)
    due_reminders = service.due_reminders
    failures = []

    async def flaky():
        if len(failures) < 3:
            failures.append(1)
            raise sqlite3.OperationalError("database is locked")
        return await due_reminders()

    monkeypatch.setattr(service, "due_reminders", flaky)
    await with_ai(service)
    now.now = 1060.0
    with caplog.at_level(logging.WARNING, logger="bot.clock"):
        clock.start()
        await asyncio.wait_for(fired.wait(), timeout=5)
        await clock.stop()
    assert len(failures) == 3 and len([r for r in caplog.records if r.exc_info]) == 1


async def test_the_clock_loop_starts_again_if_its_task_dies(setup, monkeypatch):
    service, now, _ = setup
    monkeypatch.setattr("bot.clock.RESTART_DELAY", 0.01)
    clock = TurnClock(service, lambda outcome: asyncio.sleep(0))
    next_wake = clock.next_wake
    calls = []

    def buggy_next_wake():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug outside the guarded pass")  # the task dies of it
        return next_wake()

    clock.next_wake = buggy_next_wake
    clock.start()
    first = clock._task
    await asyncio.sleep(0.1)
    assert first.done() and clock._task is not first and not clock._task.done() and len(calls) == 2
    await clock.stop()


async def test_announcements_run_beside_the_clock_so_an_outage_delays_no_table(setup):
    service, now, _ = setup
    for channel in range(20, 30):
        await with_ai(service, channel)
    outage = asyncio.Event()  # Discord answers nothing until the outage ends
    started = []

    async def announce(outcome):
        started.append(outcome.table.record.channel_id)
        await outage.wait()

    clock = TurnClock(service, announce)
    now.now = 1060.0
    outcomes = await asyncio.wait_for(clock.fire_due(), timeout=2)  # does not wait for Discord
    assert len(outcomes) == 10
    assert all(service.table(c).record.deadline == 1120.0 for c in range(20, 30))
    await asyncio.sleep(0.05)
    assert len(started) == 8  # a bounded number talk to Discord at once; the others wait their turn
    outage.set()
    await clock.settle()
    assert sorted(started) == list(range(20, 30))


# -- 7. one bad row does not stop the bot ---------------------------------------------------------------------
async def test_broken_tables_are_set_aside_and_the_others_play(db_path):
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store, clock=lambda: 1000.0)
    for channel in (20, 21, 22, 23, 24):
        await service.create(1, channel, "nim", ALICE, "alice", seed=1)
        await service.join(channel, BOB, "bob")
        await service.start(channel, ALICE)
    ids = {c: service.table(c).record.id for c in (20, 21, 22, 23, 24)}
    db = store.db
    await db.execute("UPDATE snapshots SET state = '{not json' WHERE table_id = ?", (ids[20],))
    await db.execute("UPDATE game_tables SET game = 'chess' WHERE id = ?", (ids[21],))
    await db.execute("UPDATE snapshots SET state = ? WHERE table_id = ?", (json.dumps({"v": 99}), ids[22]))
    await db.execute("UPDATE game_tables SET options = 'garbage' WHERE id = ?", (ids[23],))
    await db.commit()

    service = TableService(store, clock=lambda: 1000.0)
    await service.load()
    assert set(service.broken) == {21}  # found at once: a game not installed (start-up reads only an index)
    # The record and the state are read on first use: an unreadable row, a corrupt or unknown snapshot is
    # found then, and only that table is set aside.
    for channel in (20, 22, 23):
        with pytest.raises(TableError):
            service.table(channel)
    assert set(service.tables) == {24} and set(service.broken) == {20, 21, 22, 23}
    await service.act(24, ALICE, "take 1")  # the healthy table plays
    for channel in (20, 21, 22, 23):
        with pytest.raises(TableError) as error:
            await service.act(channel, ALICE, "take 1")
        assert error.value.code == "table_broken" and error.value.params["table_id"] == ids[channel]
    with pytest.raises(TableError):
        await service.create(1, 20, "nim", BOB, "bob")  # still the channel's table until closed
    with pytest.raises(TableError) as error:
        await service.abort(20, BOB)  # not the host
    assert error.value.code == "host_only"
    await service.abort(20, ALICE)
    await service.create(1, 20, "nim", BOB, "bob")  # the channel is free again
    await store.close()


# -- 8. a database that cannot be used is found at start --------------------------------------------------------
async def test_a_corrupt_file_a_newer_schema_or_a_held_lock_is_refused_at_open(tmp_path, monkeypatch):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreUnavailable, match="cannot be used"):
        await SqliteStore(str(garbage)).open()

    newer = tmp_path / "newer.sqlite3"
    store = SqliteStore(str(newer))
    await store.open()
    await store.db.execute("PRAGMA user_version = 999")
    await store.db.commit()
    await store.close()
    with pytest.raises(StoreUnavailable, match="newer version"):
        await SqliteStore(str(newer)).open()

    locked = tmp_path / "locked.sqlite3"
    store = SqliteStore(str(locked))
    await store.open()
    await store.close()
    holder = sqlite3.connect(locked)
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr("bot.store.sqlite.BUSY_TIMEOUT_MS", 100)
    try:
        with pytest.raises(StoreUnavailable, match="locked"):
            await SqliteStore(str(locked)).open()
    finally:
        holder.rollback()
        holder.close()


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Make files (or folders) unwritable for this process: immutable (``chattr +i``) as root, whom
    permissions do not stop; without write permission otherwise."""
    made: list[Path] = []
    try:
        for path in paths:
            if os.geteuid() == 0:
                if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                    pytest.skip("needs chattr to make a file read-only for root")
            else:
                path.chmod(0o555 if path.is_dir() else 0o444)
            made.append(path)
        yield
    finally:
        for path in made:
            if os.geteuid() == 0:
                subprocess.run(["chattr", "-i", str(path)], check=True)
            else:
                path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.mark.parametrize("folder_writable", [True, False])
async def test_a_read_only_database_file_is_refused_at_open_not_at_the_first_move(tmp_path, folder_writable):
    """SQLite opens an immutable file read-only without a word and refuses only the first write: the
    store's check at open writes a page (and gives it back), so the bot says it at start."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "db.sqlite3"
    store = SqliteStore(str(path))
    await store.open()
    await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.close()
    for leftover in folder.glob("db.sqlite3-*"):
        leftover.unlink()
    with read_only(path, *([] if folder_writable else [folder])):
        with pytest.raises(StoreUnavailable, match="cannot be (written|used)"):
            await SqliteStore(str(path)).open()
        done = subprocess.run([sys.executable, "-m", "bot", "run"], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "DISCORD_TOKEN": "x", "DATABASE_PATH": str(path)}, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Cannot start: the database"), done.stderr
    store = SqliteStore(str(path))  # writable again: nothing of the check was left behind
    await store.open()
    assert [record.channel_id for record in await store.active_tables()] == [10]
    await store.close()


async def test_moves_are_committed_with_full_synchronous_durability(db_path):
    store = SqliteStore(db_path)
    await store.open()
    async with store.db.execute("PRAGMA synchronous") as cursor:
        assert (await cursor.fetchone())[0] == 2  # FULL
    # and so is the writer's own connection, which commits the moves
    assert store._direct is not None and store._direct.execute("PRAGMA synchronous").fetchone()[0] == 2
    await store.close()


async def test_a_write_lock_held_by_another_process_is_waited_for_off_the_event_loop(db_path):
    """Another process (here: another connection, on a thread) holds the write lock for a while: the move
    is written once the lock is free, and meanwhile the event loop goes on (the wait is on the database
    thread), so the bot answers everyone else."""
    store = SqliteStore(db_path)
    await store.open()
    record = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.start_game(record.id, [Seat(0, 100, "a"), Seat(1, 101, "b")], "s0")
    holding, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        holding.set()
        release.wait(5)
        other.execute("COMMIT")
        other.close()

    holder = asyncio.get_running_loop().run_in_executor(None, hold_the_lock)
    try:
        await asyncio.to_thread(holding.wait, 5)
        move = asyncio.ensure_future(store.commit_moves(record.id, 0, [(0, "take 1")], None, 1.0))
        for _ in range(20):  # the loop runs on while the move waits (a wait on the loop would end with the lock)
            await asyncio.sleep(0.01)
        assert not move.done()
        release.set()
        assert await asyncio.wait_for(move, 5) == 1
        assert await store.commit_moves(record.id, 1, [(1, "take 2")], None, 2.0) == 2  # the lock is free again
    finally:
        release.set()
        await holder
        await store.close()
    store = SqliteStore(db_path)
    await store.open()
    recovery = store.recovery_now(record.id)
    assert recovery is not None and (recovery.version, recovery.moves) == (2, [(0, "take 1"), (1, "take 2")])
    await store.close()


# -- 10. and 11. hostile input --------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["1e400s", "infs", "nans", "9" * 5000, "9" * 5000 + "d", "-5m", "1.5.5h", ""])
def test_hostile_durations_are_refused_with_a_short_echo(text):
    with pytest.raises(TableError) as error:
        parse_duration(text)
    assert error.value.code == "bad_duration" and len(error.value.params["value"]) <= 100


async def test_options_the_game_setup_refuses_are_refused_at_creation(setup, monkeypatch):
    service, _, _ = setup
    game = registry.get("nim")
    setup_game = game.setup

    def picky_setup(players, options, seed):
        if options.get("pile") == "13":
            from games.core import InvalidOptions
            raise InvalidOptions("unlucky")
        return setup_game(players, options, seed)

    monkeypatch.setattr(game, "setup", picky_setup)
    from games.core import IllegalAction
    with pytest.raises(IllegalAction) as error:
        await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "13"})
    assert error.value.code == "unlucky"
    with pytest.raises(TableError):
        service.table(CHANNEL)  # nothing was opened
    with pytest.raises(TableError) as error:
        await service.create(1, CHANNEL, "x" * 6000, ALICE, "alice")
    assert len(error.value.params["game"]) <= 100


def test_run_refuses_an_unusable_database_in_one_line(tmp_path):
    """``python -m bot run`` on a corrupt file: one clear line and exit code 2, before connecting."""
    import os
    import subprocess
    import sys

    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database" * 200)
    env = {**os.environ, "DISCORD_TOKEN": "x", "DATABASE_PATH": str(garbage)}
    done = subprocess.run([sys.executable, "-m", "bot", "run"], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Cannot start: the database") and "Traceback" not in done.stderr


@pytest.mark.parametrize("move_first", [True, False])
async def test_a_move_racing_its_deadline_is_played_once(setup, move_first):
    # Alice moves at the very moment her deadline passes: either her move or the clock's default move is
    # played for her turn, never both, and the table stays consistent.
    service, now, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "20"}, seed=3, turn_seconds=60)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    now.now = table.record.deadline
    move, expire = service.act(CHANNEL, ALICE, "take 3"), service.expire(CHANNEL)
    results = await asyncio.gather(*((move, expire) if move_first else (expire, move)), return_exceptions=True)
    logged = [(seat, text) for _, seat, text, _ in await store.moves(table.record.id)]
    assert len(logged) == 1 and logged[0][0] == 0  # one move for alice's turn
    assert table.state.pile == 20 - int(logged[0][1].split()[1])
    refused = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(r, TableError) for r in refused)
    assert table.record.deadline == now.now + 60  # bob's turn has its full time


@pytest.mark.parametrize("raw", [{"pile": "9" * 5000}, {"x" * 6000: "1"}, {"pile": "y" * 6000}])
def test_option_errors_quote_at_most_a_hundred_characters(raw):
    from games.core import InvalidOptions

    with pytest.raises(InvalidOptions) as error:
        registry.get("nim").parse_options(raw)
    assert all(len(str(v)) <= 100 for v in error.value.params.values())


def test_durations_typed_and_shown_in_russian_too():
    from bot.tables import format_duration

    assert [parse_duration(x) for x in ("24ч", "10 мин", "3д", "1,5ч", "90S")] == [86400, 600, 259200, 5400, 90]
    assert [format_duration(s, "ru") for s in (86400, 5400, 45)] == ["1д", "90м", "45с"]
    assert [format_duration(s) for s in (86400, 5400, 45)] == ["1d", "90m", "45s"]


async def test_a_board_posted_while_a_later_turn_commits_leaves_that_turn_due(setup):
    # The start board is being posted (drawn at version 0) when Alice's move commits; the start board's
    # bookkeeping must not mark her turn's board as posted, nor forget what it has to tell.
    service, _, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "20"}, seed=3)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    drawn_at, told = table.version, len(table.record.held_events)
    await service.act(CHANNEL, ALICE, "take 2")
    await service.board_posted(table, told, drawn_at)
    await store.flush()  # the write is queued, not waited for
    stored = await store.latest_table(CHANNEL)
    assert table.record.board_due and stored.board_due
    assert service.held_moves(table) == [(0, "take 2")] and stored.held_events == table.record.held_events
    await service.board_posted(table, len(table.record.held_events), table.version)  # its own board
    await store.flush()
    stored = await store.latest_table(CHANNEL)
    assert not stored.board_due and stored.held_events == []


async def test_the_next_move_does_not_wait_for_the_board_posted_write_and_a_failed_one_is_logged(
        setup, monkeypatch, caplog):
    # board_posted queues its write: it returns before the write is stored, the next move's commit is written
    # after it, and a write that fails is logged (the table plays on; at worst the board is posted again).
    service, _, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "20"}, seed=3)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    writes: list[str] = []
    queue = store._queue

    def spy(job, *overwrites):
        future = queue(job, *overwrites)
        writes.append("queued")
        future.add_done_callback(lambda _: writes.append("written"))
        return future

    monkeypatch.setattr(store, "_queue", spy)
    await service.board_posted(table, len(table.record.held_events), table.version)
    assert writes == ["queued"]  # returned before it was stored
    await service.act(CHANNEL, ALICE, "take 2")
    assert writes[:2] == ["queued", "queued"] and writes.count("written") == 2  # the move waited for its own
    await store.flush()
    stored = await store.latest_table(CHANNEL)
    assert stored.version == 1 and stored.board_due and service.held_moves(table) == [(0, "take 2")]
    assert stored.held_events == table.record.held_events

    def failing(job, *overwrites):  # the board's write itself fails, in the store's writer
        def fail(db):
            raise sqlite3.OperationalError("disk I/O error")
        return queue(fail, *overwrites)

    monkeypatch.setattr(store, "_queue", failing)
    with caplog.at_level(logging.ERROR, logger="bot.store"):
        await service.board_posted(table, len(table.record.held_events), table.version)
        monkeypatch.setattr(store, "_queue", queue)
        await store.flush()
    assert "was not stored" in caplog.text and "disk I/O error" in caplog.text
    assert caplog.text.count("was not stored") == 1
    assert not table.record.board_due and table.record.held_events == []  # the channel was told
    await service.act(CHANNEL, BOB, "take 1")  # and the table plays on
    await store.flush()
    assert (await store.latest_table(CHANNEL)).version == 2


async def test_a_move_that_fails_after_changing_the_live_state_leaves_the_table_as_stored(setup, monkeypatch):
    # Moves are applied to the live state; a later step refused, or a commit that fails, puts the table
    # back to the state the store holds: nothing of the failed move remains.
    service, _, store = setup
    await service.create(1, CHANNEL, "nim", ALICE, "alice", {"pile": "20"}, seed=3)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, ALICE)
    table = service.table(CHANNEL)
    with pytest.raises(TableError) as error:  # the second step is not Alice's any more
        await service.act(CHANNEL, ALICE, ["take 2", "take 1"])
    assert error.value.code == "not_your_turn"
    assert table.state.pile == 20 and table.state.turn == 0 and table.version == 0

    async def failing_commit(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "commit_moves", failing_commit)
    with pytest.raises(sqlite3.OperationalError):
        await service.act(CHANNEL, ALICE, "take 3")
    assert table.state.pile == 20 and table.version == 0 and await store.moves(table.record.id) == []
    monkeypatch.undo()
    await service.act(CHANNEL, ALICE, "take 3")  # and the table plays on
    assert table.state.pile == 17 and table.version == 1


async def test_only_the_tables_in_use_keep_their_state_in_memory(db_path):
    # At start no state is read; a table's state is read when first used, and beyond max_decoded the
    # least recently used idle tables let theirs go, to read it again when needed, unchanged.
    store = SqliteStore(db_path)
    await store.open()
    service = TableService(store, clock=lambda: 1000.0)
    for channel in range(30, 34):
        await service.create(1, channel, "nim", ALICE, "alice", {"pile": str(channel)}, seed=1)
        await service.join(channel, BOB, "bob")
        await service.start(channel, ALICE)
    service = TableService(store, clock=lambda: 1000.0)
    service.max_decoded = 2
    await service.load()
    tables = [service.tables[c] for c in range(30, 34)]
    assert all(t._state is None for t in tables)  # nothing decoded at start
    assert [t.state.pile for t in tables] == [30, 31, 32, 33]  # read on first use
    assert [t._state is not None for t in tables] == [False, False, True, True]  # the two most recent kept
    await service.act(30, ALICE, "take 2")  # an evicted table plays as ever
    assert tables[0].state.pile == 28 and tables[0].version == 1
    async with tables[1].lock:  # a busy table is never let go
        tables[1].state  # noqa: B018 - read it
        for table in (tables[2], tables[3], tables[0]):
            table.state  # noqa: B018
        assert tables[1]._state is not None
    await store.close()

"""The store suite, run on both backends: SQLite (a real file) and PostgreSQL (a fresh schema of the test
session's own database; skipped with the reason when no server is reachable, failed instead when CI is set)."""

import asyncio
import functools
import logging
import random
import sqlite3

import asyncpg
import pytest

from bot import ratings
from bot.store import PostgresStore, Seat, SqliteStore, Store, VersionConflict
from bot.store import postgres as pg
from bot.store.base import Recovery, SeatResult, StoreUnavailable
from bot.store.sqlite import migrations
from bot.tables import TableService


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, db_path) -> str:
    """Where a store of the parametrized backend lives: a file path or a PostgreSQL URL."""
    return db_path if request.param == "sqlite" else request.getfixturevalue("pg_url")


def make(target: str) -> Store:
    return PostgresStore(target) if target.startswith("postgresql://") else SqliteStore(target)


async def open_store(target: str) -> Store:
    store = make(target)
    await store.open()
    return store


def test_both_backends_know_the_same_migrations():
    """Every SQLite migration has its PostgreSQL twin with the same number, and none more."""
    assert [n for n, _ in migrations()] == [n for n, _ in pg.migrations()]


async def test_migrations_applied_once(target):
    store = await open_store(target)
    known = max(n for n, _ in migrations())
    assert await store.schema_version() == known  # type: ignore[attr-defined]
    await store.close()
    store = await open_store(target)  # reopening does not re-run migrations (would fail on CREATE TABLE)
    assert await store.schema_version() == known  # type: ignore[attr-defined]
    await store.close()


async def test_sqlite_uses_wal(db_path):
    await (await open_store(db_path)).close()
    assert sqlite3.connect(db_path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_round_trip_tables_seats_moves_snapshot(target):
    store = await open_store(target)
    big = 1_234_567_890_123_456_789  # Discord ids are 64-bit
    record = await store.create_table(big, big + 1, "nim", {"pile": "10"}, big + 2, 42, 1000.0)
    seats = [Seat(0, big + 2, "alice", "red"), Seat(1, None, "AI 1", "blue", ai_level="hard"),
             Seat(2, 7, "bob", None, eliminated=True, timeouts=2, pauses_used=1)]
    await store.start_game(record.id, seats, '{"pile": 10}')
    version = await store.commit_moves(record.id, 0, [(0, "take 2"), (1, "take 1")], '{"pile": 7}', 1001.5)
    assert version == 2
    await store.close()

    store = await open_store(target)
    (table,) = await store.active_tables()
    assert (table.guild_id, table.channel_id, table.game, table.options, table.status, table.host_id, table.seed,
            table.created_at) == (big, big + 1, "nim", {"pile": "10"}, "playing", big + 2, 42, 1000.0)
    assert table.seats == seats and table.snapshot_version == 2 and table.board_due
    assert await store.snapshot(record.id) == (2, '{"pile": 7}')
    assert store.recovery_now(record.id) == Recovery(2, 2, '{"pile": 7}', [])
    assert store.recovery_now(record.id + 1) is None
    assert await store.moves(record.id) == [(1, 0, "take 2", 1001.5), (2, 1, "take 1", 1001.5)]
    await store.close()


async def test_every_table_field_is_written_and_read_back(target):
    store = await open_store(target)
    record = await store.create_table(None, 10, "nim", {}, 100, 1, 0.0, seats=[Seat(0, 100, "a")],
                                      turn_seconds=600, settings={"reminders": [0.5]})
    assert record.guild_id is None and record.turn_seconds == 600
    await store.start_game(record.id, [Seat(0, 100, "a"), Seat(1, 101, "b")], "s0")
    await store.set_clock(record.id, 5000.25, turn_seconds=3600, reminders_sent=1)
    await store.set_pause(record.id, 4000.0, 101, 1000.5, None)
    await store.set_settings(record.id, 7200, {"timeout": "kick"})
    await store.set_lobby_message(record.id, 2**62)
    await store.set_held_events(record.id, [[0, "took", {"count": 1}]])
    read = await store.table_record(record.id)
    assert read is not None
    assert (read.turn_seconds, read.deadline, read.reminders_sent, read.paused_at, read.paused_by, read.time_left,
            read.settings, read.lobby_message_id, read.held_events) == (
        7200, None, 1, 4000.0, 101, 1000.5, {"timeout": "kick"}, 2**62, [[0, "took", {"count": 1}]])
    await store.set_clock(record.id, 6000.0)  # the turn time is kept when not given
    await store.set_board_posted(record.id, [], False)
    read = await store.table_record(record.id)
    assert read is not None
    assert (read.turn_seconds, read.deadline, read.reminders_sent, read.held_events, read.board_due) == (
        7200, 6000.0, 0, [], False)
    await store.set_board_due(record.id, True)
    await store.save_seats(record.id, [Seat(0, 100, "a", timeouts=1)])
    read = await store.table_record(record.id)
    assert read is not None and read.board_due and read.seats == [Seat(0, 100, "a", timeouts=1)]
    assert await store.table_record(record.id + 99) is None
    await store.close()


async def test_commit_writes_its_extras_in_the_same_transaction(target):
    store = await open_store(target)
    record = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.start_game(record.id, [Seat(0, 100, "a"), Seat(1, 101, "b")], "s0")
    seats = [Seat(0, 100, "a", timeouts=1), Seat(1, 101, "b", eliminated=True)]
    await store.commit_moves(record.id, 0, [(0, "take 3")], "s1", 9.0, status="finished",
                             clock=(None, 0, None), board_due=True, seats=seats, held_events=[[1, "out", {}]])
    read = await store.table_record(record.id)
    assert read is not None
    assert (read.status, read.finished_at, read.deadline, read.board_due, read.seats, read.held_events) == (
        "finished", 9.0, None, True, seats, [[1, "out", {}]])
    assert [t.id for t in await store.active_tables()] == [record.id]  # finished, its last board still due
    await store.set_board_due(record.id, False)
    assert await store.active_tables() == []
    await store.close()


async def test_moves_after_the_latest_snapshot_are_read_with_it(target):
    """Moves committed without a new snapshot (state None) come back with the snapshot they follow."""
    store = await open_store(target)
    record = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.start_game(record.id, [Seat(0, 100, "a"), Seat(1, 101, "b")], "s0")
    assert await store.commit_moves(record.id, 0, [(0, "take 1"), (1, "take 2")], None, 1.0) == 2
    assert await store.commit_moves(record.id, 2, [(0, "take 3")], "s3", 2.0) == 3
    assert await store.commit_moves(record.id, 3, [(1, "take 1")], None, 3.0) == 4
    assert store.recovery_now(record.id) == Recovery(4, 3, "s3", [(1, "take 1")])
    assert await store.snapshot(record.id) == (3, "s3")
    (table,) = await store.active_tables()
    assert (table.version, table.snapshot_version) == (4, 3)
    with pytest.raises(VersionConflict):
        await store.commit_moves(record.id, 3, [(1, "take 2")], None, 4.0)
    await store.close()


async def test_version_conflict_changes_nothing(target):
    store = await open_store(target)
    record = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.start_game(record.id, [Seat(0, 100, "a")], "s0")
    await store.commit_moves(record.id, 0, [(0, "take 1")], "s1", 1.0)
    with pytest.raises(VersionConflict):
        await store.commit_moves(record.id, 0, [(0, "take 2")], "s-stale", 2.0, status="finished",
                                 seats=[Seat(0, 100, "changed")])
    assert await store.snapshot(record.id) == (1, "s1")
    assert [m[2] for m in await store.moves(record.id)] == ["take 1"]
    read = await store.table_record(record.id)
    assert read is not None and read.status == "playing" and read.seats[0].display == "a"
    await store.close()


async def test_a_board_posted_write_queued_unawaited_comes_before_the_tables_later_writes(target):
    # The service does not wait for the write that forgets what a posted board told: the store makes it before
    # the table's next writes (the move after it, events held for the next board), else a stale list written
    # last would tell those events again, or lose the new turn's board, after a restart.
    store = await open_store(target)
    record = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.start_game(record.id, [Seat(0, 100, "a"), Seat(1, 101, "b")], "s0")
    told = [[0, "move", {"notation": "take 1"}]]
    queued = store.set_board_posted(record.id, [], False)  # not awaited
    await store.set_held_events(record.id, told)
    assert queued.done()  # written first
    store.set_board_posted(record.id, [], False)
    await store.commit_moves(record.id, 0, [(0, "take 2")], None, 1.0, board_due=True, held_events=told * 2)
    read = await store.table_record(record.id)
    assert read is not None and (read.board_due, read.held_events, read.version) == (True, told * 2, 1)
    store.set_board_posted(record.id, [], False)
    await store.flush()
    read = await store.table_record(record.id)
    assert read is not None and (read.board_due, read.held_events) == (False, [])
    store.set_board_posted(record.id, told, True)
    await store.close()  # what is queued is written before the store closes
    store = await open_store(target)
    read = await store.table_record(record.id)
    assert read is not None and (read.board_due, read.held_events) == (True, told)
    await store.close()


class _FailingBoardWrites:
    """The SQLite writer's connection, but the write of a posted board fails as a full disk would."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, *args):
        if sql.startswith("UPDATE game_tables SET held_events"):
            raise sqlite3.OperationalError("disk I/O error")
        return self.connection.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.connection, name)


async def test_a_board_posted_write_that_fails_is_logged_once_by_the_store(target, monkeypatch, caplog):
    # Nobody waits for this write (the service queues it and goes on), so the store logs its failure, once;
    # whoever does await it still gets the error, and the table's other writes go on.
    store = await open_store(target)
    record = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.start_game(record.id, [Seat(0, 100, "a"), Seat(1, 101, "b")], "s0")
    if isinstance(store, SqliteStore):
        monkeypatch.setattr(store, "_direct", _FailingBoardWrites(store._direct))
    else:
        execute = store._execute

        async def failing(sql, *args):
            if sql.startswith("UPDATE game_tables SET held_events"):
                raise OSError("disk I/O error")
            await execute(sql, *args)

        monkeypatch.setattr(store, "_execute", failing)
    with caplog.at_level(logging.ERROR, logger="bot.store"):
        store.set_board_posted(record.id, [], False)  # not awaited, as the service does
        awaited = store.set_board_posted(record.id, [], False)
        with pytest.raises((sqlite3.OperationalError, OSError)):
            await awaited
        await store.flush()
    assert caplog.text.count(f"the board posted at table {record.id} was not stored: disk I/O error") == 2
    await store.commit_moves(record.id, 0, [(0, "take 2")], None, 1.0)
    assert (await store.table_record(record.id)).version == 1
    await store.close()


async def test_two_writers_racing_on_one_version_one_wins(target):
    """Two stores on one database (two processes) commit the same version at once: exactly one applies."""
    first, second = await open_store(target), await open_store(target)
    record = await first.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await first.start_game(record.id, [Seat(0, 100, "a")], "s0")
    for version in range(20):
        results = await asyncio.gather(
            first.commit_moves(record.id, version, [(0, f"first {version}")], f"f{version}", 1.0),
            second.commit_moves(record.id, version, [(0, f"second {version}")], f"s{version}", 1.0),
            return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["VersionConflict", "int"], results
    logged = await first.moves(record.id)
    assert [m[0] for m in logged] == list(range(1, 21))
    assert (await second.snapshot(record.id))[0] == 20  # type: ignore[index]
    await first.close()
    await second.close()


async def test_one_active_table_per_channel_finished_frees_it(target):
    store = await open_store(target)
    first = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    with pytest.raises(ValueError):
        await store.create_table(1, 10, "nim", {}, 101, 1, 0.0)
    await store.set_status(first.id, "finished", 5.0)
    second = await store.create_table(1, 10, "nim", {}, 101, 1, 6.0)
    latest = await store.latest_table(10)
    assert latest is not None and latest.id == second.id
    await store.set_status(second.id, "aborted", 7.0)
    latest = await store.latest_table(10)
    assert latest is not None and latest.id == second.id  # the most recent one when none is active
    assert await store.latest_table(11) is None
    await store.close()


async def test_meta(target):
    store = await open_store(target)
    assert await store.get_meta("commands_synced:global") is None
    await store.set_meta("commands_synced:global", "abc")
    await store.set_meta("commands_synced:global", "def")
    assert await store.get_meta("commands_synced:global") == "def"
    await store.close()


async def test_a_whole_game_through_the_service_with_a_restart(target):
    """The table service on the store: moves, the AI's replies and a restart in the middle lose nothing."""
    store = await open_store(target)
    service = TableService(store)
    await service.create(1, 42, "nim", 1, "alice", {"pile": "40"}, seed=3)
    await service.join(42, 2, "bob")
    await service.start(42, 1)
    rng, moves = random.Random(5), 0
    while 42 in service.tables:
        table = service.tables[42]
        user = table.seats[table.game.to_act(table.state)[0]].user_id
        assert user is not None
        await service.act(42, user, rng.choice(service.legal_notations(42, user)))
        moves += 1
        if moves == 5:
            before = table.game.to_json(table.state)
            await store.close()
            store = await open_store(target)
            service = TableService(store)
            await service.load()
            assert service.table(42).game.to_json(service.table(42).state) == before
    record = await store.latest_table(42)
    assert record is not None and record.status == "finished"
    assert len(await store.moves(record.id)) == moves
    await store.close()


async def test_postgres_refuses_a_newer_schema_and_an_unreachable_server(pg_url):
    store = await open_store(pg_url)
    await store.close()
    connection = await asyncpg.connect(pg_url)
    await connection.execute("INSERT INTO schema_version (version) VALUES (999)")
    await connection.close()
    with pytest.raises(StoreUnavailable, match="newer version of the bot"):
        await PostgresStore(pg_url).open()
    with pytest.raises(StoreUnavailable, match="cannot be used") as error:
        await PostgresStore("postgresql://someone:secret@127.0.0.1:1/nowhere").open()
    assert "secret" not in str(error.value)  # the password is never printed


async def test_postgres_processes_starting_together_migrate_once(pg_url):
    stores = [PostgresStore(pg_url) for _ in range(4)]
    await asyncio.gather(*(store.open() for store in stores))
    connection = await asyncpg.connect(pg_url)
    versions = [row[0] for row in await connection.fetch("SELECT version FROM schema_version ORDER BY version")]
    await connection.close()
    assert versions == [n for n, _ in pg.migrations()]
    for store in stores:
        await store.close()


async def test_a_shard_process_loads_only_the_tables_of_its_guilds(target):
    """Two processes of two shards on one database: each loads (so clocks and reminds) its own guilds' tables."""
    store = await open_store(target)
    for channel, guild in ((1, 0 << 22), (2, 1 << 22), (3, None), (4, 3 << 22)):
        await store.create_table(guild, channel, "nim", {}, 100, 1, 0.0)
    loaded = []
    for shard in (0, 1):
        service = TableService(store)
        service.owns_guild = lambda guild_id, shard=shard: (0 if guild_id is None else guild_id >> 22) % 2 == shard
        await service.load()
        loaded.append(sorted(service.tables))
    assert loaded == [[1, 3], [2, 4]]
    await store.close()


def test_without_postgresql_its_tests_skip_with_the_reason_or_fail_under_ci(tmp_path):
    """A fresh laptop without PostgreSQL passes the README's test command (skipped, saying why); CI cannot."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "TEST_DATABASE_URL": "postgresql://postgres@127.0.0.1:1/postgres"}
    env.pop("CI", None)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs",
               "tests/bot/test_store.py::test_meta", "--basetemp", str(tmp_path / "run")]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    laptop = subprocess.run(command, env=env, cwd=root, capture_output=True, text=True, timeout=120)
    assert laptop.returncode == 0 and "1 passed, 1 skipped" in laptop.stdout, laptop.stdout
    assert "PostgreSQL is not reachable at postgresql://postgres@127.0.0.1:1/postgres" in laptop.stdout
    ci = subprocess.run(command, env=env | {"CI": "true"}, cwd=root, capture_output=True, text=True, timeout=120)
    assert ci.returncode != 0 and "CI must run the PostgreSQL tests" in ci.stdout, ci.stdout


async def test_tables_read_at_once_from_several_threads(target):
    """A table is read wherever it is first used: reads from several threads at once each get theirs."""
    store = await open_store(target)
    ids = []
    for channel in range(6):
        record = await store.create_table(1, 100 + channel, "nim", {}, 100, 1, 0.0)
        await store.start_game(record.id, [Seat(0, 100, "a")], f"state {channel}")
        ids.append(record.id)
    found = await asyncio.gather(*(asyncio.to_thread(store.recovery_now, table_id) for table_id in ids * 3))
    assert [r.state if r else None for r in found] == [f"state {n}" for n in range(6)] * 3
    records = await asyncio.gather(*(asyncio.to_thread(store.table_record_now, table_id) for table_id in ids * 2))
    assert [r.channel_id if r else None for r in records] == [100 + n for n in range(6)] * 2
    await store.close()


async def test_the_index_read_at_start_and_a_record_read_on_first_use(target):
    store = await open_store(target)
    big = 1 << 60
    lobby = await store.create_table(big, 10, "nim", {"pile": "9"}, 100, 1, 0.0, turn_seconds=600,
                                     settings={"timeout": "kick"})
    playing = await store.create_table(None, 11, "nim", {}, 101, 2, 1.0)
    await store.start_game(playing.id, [Seat(0, 101, "a"), Seat(1, None, "AI", ai_level="easy")], "s0")
    await store.commit_moves(playing.id, 0, [(0, "take 1")], None, 2.0, clock=(500.5, 1, None), board_due=False)
    over = await store.create_table(1, 12, "nim", {}, 102, 3, 1.0)
    await store.set_status(over.id, "finished", 3.0)
    index = await store.table_index()
    assert [tuple(row) for row in index] == [
        (lobby.id, big, 10, "nim", "lobby", 100, None, False, None, 600, 0, '{"timeout": "kick"}'),
        (playing.id, None, 11, "nim", "playing", 101, 1, False, 500.5, 86400, 1, "{}")]
    record = store.table_record_now(playing.id)
    assert record is not None
    later = await store.table_record(playing.id)
    assert later is not None and record.seats == later.seats and record.options == later.options
    assert (record.version, record.snapshot_version, record.deadline) == (1, 0, 500.5)
    assert [s.ai_level for s in record.seats] == [None, "easy"]
    assert store.table_record_now(over.id + 1) is None
    await store.close()


async def test_games_ending_at_once_are_rated_one_after_the_other_and_counted_once(target):
    """Three games of alice and bob recorded at once (and the first twice): each is rated on the ratings the
    one before wrote, as openskill rates them one after the other, and the repeated game counts once."""
    store = await open_store(target)
    alice, bob = "user:1", "user:2"
    ids = []
    for number in range(3):
        record = await store.create_table(1, 200 + number, "nim", {}, 1, number, 0.0)
        await store.set_status(record.id, "finished", 10.0 + number)
        ids.append(record.id)
    # alice wins the first two, bob the third
    places = [(1, 2), (1, 2), (2, 1)]
    games = [[SeatResult(0, alice, "alice", a, 0, a == 1), SeatResult(1, bob, "bob", b, 0, b == 1)]
             for a, b in places]
    recorded = await asyncio.gather(*(
        store.record_game(table_id, 1, "nim", 10.0, results, functools.partial(ratings.rate, results))
        for table_id, results in [*zip(ids, games, strict=True), (ids[0], games[0])]))
    assert recorded == [True, True, True, False]
    expected: dict[str, tuple[float, float]] = {}
    for results in games:
        expected |= ratings.rate(results, expected)
    found = await store.ratings(1, "nim", [alice, bob])
    assert found[alice] == pytest.approx(expected[alice]) and found[bob] == pytest.approx(expected[bob])
    history = await store.player_results(1, alice)
    assert [(game.place, game.won) for game in history] == [(1, True), (1, True), (2, False)]
    assert (history[-1].mu, history[-1].sigma) == pytest.approx(expected[alice])
    await store.close()

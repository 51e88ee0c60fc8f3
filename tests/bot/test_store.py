import sqlite3

import pytest

from bot.store import Seat, SqliteStore, VersionConflict
from bot.store.sqlite import migrations


async def open_store(path):
    store = SqliteStore(path)
    await store.open()
    return store


async def test_migrations_applied_once_and_wal(db_path):
    store = await open_store(db_path)
    assert await store.schema_version() == max(n for n, _ in migrations())
    await store.close()
    store = await open_store(db_path)  # reopening does not re-run migrations (would fail on CREATE TABLE)
    assert await store.schema_version() == max(n for n, _ in migrations())
    await store.close()
    assert sqlite3.connect(db_path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_round_trip_tables_seats_moves_snapshot(db_path):
    store = await open_store(db_path)
    record = await store.create_table(1, 10, "nim", {"pile": "10"}, 100, 42, 1000.0)
    seats = [Seat(0, 100, "alice", "red"), Seat(1, None, "AI 1", "blue")]
    await store.start_game(record.id, seats, '{"pile": 10}')
    version = await store.commit_moves(record.id, 0, [(0, "take 2"), (1, "take 1")], '{"pile": 7}', 1001.0)
    assert version == 2
    await store.close()

    store = await open_store(db_path)
    (table,) = await store.active_tables()
    assert (table.game, table.options, table.status, table.host_id, table.seed) == ("nim", {"pile": "10"}, "playing", 100, 42)
    assert [(s.position, s.user_id, s.display, s.color) for s in table.seats] == [
        (0, 100, "alice", "red"), (1, None, "AI 1", "blue")]
    assert await store.snapshot(record.id) == (2, '{"pile": 7}')
    assert await store.moves(record.id) == [(1, 0, "take 2", 1001.0), (2, 1, "take 1", 1001.0)]
    await store.close()


async def test_version_conflict_changes_nothing(db_path):
    store = await open_store(db_path)
    record = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    await store.start_game(record.id, [Seat(0, 100, "a")], "s0")
    await store.commit_moves(record.id, 0, [(0, "take 1")], "s1", 1.0)
    with pytest.raises(VersionConflict):
        await store.commit_moves(record.id, 0, [(0, "take 2")], "s-stale", 2.0)
    assert await store.snapshot(record.id) == (1, "s1")
    assert [m[2] for m in await store.moves(record.id)] == ["take 1"]
    await store.close()


async def test_one_active_table_per_channel_finished_frees_it(db_path):
    store = await open_store(db_path)
    first = await store.create_table(1, 10, "nim", {}, 100, 1, 0.0)
    with pytest.raises(ValueError):
        await store.create_table(1, 10, "nim", {}, 101, 1, 0.0)
    await store.set_status(first.id, "finished", 5.0)
    second = await store.create_table(1, 10, "nim", {}, 101, 1, 6.0)
    assert (await store.latest_table(10)).id == second.id
    await store.close()

"""``python -m bot migrate-db``: a community's SQLite database copied into PostgreSQL, every row, counts checked;
a non-empty target is refused and left as it was."""

import asyncio
import random

import asyncpg
import pytest

from bot.__main__ import main
from bot.store import PostgresStore, Seat, SqliteStore
from bot.store.migrate_db import MigrationError, migrate
from bot.tables import TableService


async def community(path: str) -> None:
    """A database as a server leaves it: a finished game, one in play, a lobby, settings and meta."""
    store = SqliteStore(path)
    await store.open()
    service = TableService(store)
    rng = random.Random(1)
    for channel in (10, 11):
        await service.create(5 << 22, channel, "nim", 1, "alice", {"pile": "12"}, seed=channel)
        await service.join(channel, 2, "bob")
        await service.start(channel, 1)
        while channel in service.tables and (channel == 10 or len(await store.moves(service.tables[channel].record.id)) < 3):
            table = service.tables[channel]
            user = table.seats[table.game.to_act(table.state)[0]].user_id
            assert user is not None
            await service.act(channel, user, rng.choice(service.legal_notations(channel, user)))
    lobby = await store.create_table(None, 12, "nim", {}, 3, 7, 50.5, seats=[Seat(0, 3, "carol")],
                                     settings={"timeout": "kick"})
    await store.set_lobby_message(lobby.id, 2**60)
    await store.set_meta("commands_synced:global", "digest")
    await store.close()


async def counts(url: str) -> dict[str, int]:
    connection = await asyncpg.connect(url)
    names = [row[0] for row in await connection.fetch(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        " AND table_name <> 'schema_version'")]
    found = {name: await connection.fetchval(f'SELECT count(*) FROM "{name}"') for name in names}
    await connection.close()
    return found


async def test_every_row_is_copied_and_reads_back_the_same(db_path, pg_url):
    await community(db_path)
    copied = await migrate(f"sqlite:{db_path}", pg_url)
    assert {c.table: c.rows for c in copied} == {k: v for k, v in (await counts(pg_url)).items()}
    assert {"game_tables", "seats", "moves", "snapshots", "meta"} <= {c.table for c in copied}
    assert all(c.rows > 0 for c in copied if c.table in ("game_tables", "seats", "moves", "snapshots", "meta"))

    source, target = SqliteStore(db_path), PostgresStore(pg_url)
    await source.open()
    await target.open()
    assert await target.active_tables() == await source.active_tables()
    for channel in (10, 11, 12):
        record = await source.latest_table(channel)
        assert record is not None
        assert await target.latest_table(channel) == record
        assert await target.moves(record.id) == await source.moves(record.id)
        assert target.recovery_now(record.id) == source.recovery_now(record.id)
    assert await target.get_meta("commands_synced:global") == "digest"
    # A table made after the move gets a new id, and the games in play go on.
    newer = await target.create_table(1, 13, "nim", {}, 1, 1, 99.0)
    assert newer.id > max(t.id for t in await source.active_tables())
    service = TableService(target)
    await service.load()
    table = service.table(11)
    user = table.seats[table.game.to_act(table.state)[0]].user_id
    assert user is not None
    await service.act(11, user, service.legal_notations(11, user)[0])
    await source.close()
    await target.close()


async def test_a_target_with_data_is_refused_and_left_as_it_was(db_path, pg_url):
    await community(db_path)
    store = PostgresStore(pg_url)
    await store.open()
    await store.set_meta("theirs", "kept")
    await store.close()
    before = await counts(pg_url)
    with pytest.raises(MigrationError, match="not empty"):
        await migrate(f"sqlite:{db_path}", pg_url)
    assert await counts(pg_url) == before


def test_the_command_prints_the_counts_and_refuses_bad_arguments(db_path, pg_url, capsys, tmp_path):
    asyncio.run(community(db_path))
    assert main(["migrate-db", "--from", f"sqlite:{db_path}", "--to", pg_url]) == 0
    out = capsys.readouterr().out
    assert "game_tables: 3 rows" in out and "the counts match" in out
    assert main(["migrate-db", "--from", f"sqlite:{db_path}", "--to", pg_url]) == 2
    err = capsys.readouterr().err
    assert "Nothing copied" in err and "not empty" in err
    assert main(["migrate-db", "--from", db_path, "--to", pg_url]) == 2
    assert "sqlite:FILE" in capsys.readouterr().err
    assert main(["migrate-db", "--from", f"sqlite:{db_path}", "--to", "mysql://x"]) == 2
    assert "postgresql://" in capsys.readouterr().err
    assert main(["migrate-db", "--from", f"sqlite:{tmp_path / 'missing.db'}", "--to", pg_url]) == 2
    assert "cannot read" in capsys.readouterr().err

"""Moving a community's data from the SQLite file to PostgreSQL (``python -m bot migrate-db``).

Both databases are first brought to this version's schema (what the bot does at start), then every row of every
table of the bot (tables, seats, the move log, snapshots, settings, meta, results and ratings: whatever the
migrations made) is copied in one PostgreSQL transaction, and the row counts are compared before it commits.
A target that already holds rows is refused: the copy never merges two communities or overwrites one.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.store.postgres import PostgresStore, safe_url
from bot.store.sqlite import SqliteStore

FIRST = "game_tables"  # every other table refers to it: copied first, so the foreign keys hold at each insert


class MigrationError(Exception):
    """The copy cannot be made or did not check out; nothing was written to the target."""


@dataclass(frozen=True, slots=True)
class Copied:
    table: str
    rows: int


def sqlite_path(source: str) -> str:
    """The file of ``sqlite:FILE`` (or a bare path)."""
    return source.removeprefix("sqlite:").removeprefix("//") if source.startswith("sqlite:") else source


async def migrate(source: str, target: str) -> list[Copied]:
    path = sqlite_path(source)
    if not path:
        raise MigrationError("--from needs a file: sqlite:FILE")
    sqlite_store = SqliteStore(path)
    try:
        with open(path, "rb"):  # a missing file would otherwise be created empty and "copied"
            pass
    except OSError as error:
        raise MigrationError(f"cannot read {path}: {error.strerror}") from None
    await sqlite_store.open()  # StoreUnavailable: corrupt, newer, locked; else migrated to this version
    await sqlite_store.close()
    postgres_store = PostgresStore(target, pool_size=1)
    await postgres_store.open()
    await postgres_store.close()

    source_db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        connection = await asyncpg.connect(target)
    except (OSError, asyncpg.PostgresError) as error:
        source_db.close()
        raise MigrationError(f"cannot connect to {safe_url(target)}: {error}") from None
    try:
        return await _copy(source_db, connection)
    finally:
        source_db.close()
        await connection.close()


async def _copy(source: sqlite3.Connection, target: asyncpg.Connection) -> list[Copied]:
    names = sorted(row[0] for row in source.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    names.sort(key=lambda name: name != FIRST)
    copied: list[Copied] = []
    async with target.transaction():
        for name in names:
            columns = await target.fetch(
                "SELECT column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = $1", name)
            target_types = {row[0]: row[1] for row in columns}
            source_columns = [row[1] for row in source.execute(f'PRAGMA table_info("{name}")')]
            missing = [column for column in source_columns if column not in target_types]
            if not target_types or missing:
                raise MigrationError(f"the PostgreSQL schema has no {name}{' columns ' if target_types else ''}"
                                     f"{', '.join(missing)}: the two migrations differ")
            if await target.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{name}")'):
                raise MigrationError(f"the target already holds data ({name} is not empty): give an empty "
                                     "database, the copy never merges")
            types = [target_types[column] for column in source_columns]
            rows = [tuple(_value(value, kind) for value, kind in zip(row, types, strict=True))
                    for row in source.execute(f'SELECT {", ".join(source_columns)} FROM "{name}"')]
            if rows:
                await target.copy_records_to_table(name, records=rows, columns=source_columns,
                                                   schema_name=await target.fetchval("SELECT current_schema()"))
            count = int(await target.fetchval(f'SELECT count(*) FROM "{name}"') or 0)
            if count != len(rows):
                raise MigrationError(f"{name}: {len(rows)} rows read but {count} in the target")
            copied.append(Copied(name, count))
        # New tables get ids after the copied ones (the id column is an identity, filled by the copy).
        await target.execute("SELECT setval(pg_get_serial_sequence('game_tables', 'id'),"
                             " greatest((SELECT max(id) FROM game_tables), 1), (SELECT count(*) > 0 FROM game_tables))")
    return copied


CONVERT = {"boolean": bool, "double precision": float, "bigint": int, "integer": int, "smallint": int, "text": str}


def _value(value: Any, kind: str) -> Any:
    """SQLite keeps what it was given (1 for true, 1000 for 1000.0): the value as the PostgreSQL column's type."""
    return value if value is None else CONVERT.get(kind, lambda same: same)(value)

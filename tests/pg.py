"""PostgreSQL for the tests: one database per test session, created and dropped by the run, and a fresh schema per
test inside it (cheap: no CREATE DATABASE per test).

The server is 127.0.0.1:5432, user postgres, trust auth (what CI's machine runs), or ``TEST_DATABASE_URL`` (a
database on the server to connect to while creating and dropping the session's own). With no server reachable
the PostgreSQL tests are skipped with the reason, unless ``CI`` is set: then they fail, so CI cannot pass
without having run them.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator

import asyncpg
import pytest

ADMIN_URL = os.environ.get("TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/postgres"


def with_database(url: str, database: str) -> str:
    """``url`` pointing at another database on the same server (query parameters kept)."""
    base, _, query = url.partition("?")
    server = base.rsplit("/", 1)[0] if base.count("/") > 2 else base
    return f"{server}/{database}" + (f"?{query}" if query else "")


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` first (asyncpg passes unknown query parameters to the server)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(ADMIN_URL, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def unavailable(reason: str) -> None:
    message = f"PostgreSQL is not reachable at {ADMIN_URL} ({reason})"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI must run the PostgreSQL tests", pytrace=False)
    pytest.skip(f"{message}: start one there or set TEST_DATABASE_URL (fails instead when CI is set)")


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """The URL of this test session's own database, dropped at the end."""
    name = f"pbc_test_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        unavailable(f"{type(error).__name__}: {error}")
    yield with_database(ADMIN_URL, name)
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def pg_url(pg_database: str) -> Iterator[str]:
    """A URL on a fresh, empty schema of the session's database."""
    schema = f"t_{uuid.uuid4().hex[:12]}"

    async def run(sql: str) -> None:
        connection = await asyncpg.connect(pg_database, timeout=5)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(run(f"CREATE SCHEMA {schema}"))
    yield with_schema(pg_database, schema)
    asyncio.run(run(f"DROP SCHEMA {schema} CASCADE"))

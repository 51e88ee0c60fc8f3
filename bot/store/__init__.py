"""Persistence: an async store interface, its SQLite implementation (the default) and its PostgreSQL one."""

from bot.store.base import Seat, Store, TableRecord, VersionConflict
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def make_store(database_url: str | None, database_path: str) -> Store:
    """PostgreSQL when ``database_url`` is given (``DATABASE_URL``), else the SQLite file ``database_path``."""
    if database_url:
        return PostgresStore(database_url)
    return SqliteStore(database_path)


__all__ = ["POSTGRES_SCHEMES", "PostgresStore", "Seat", "SqliteStore", "Store", "TableRecord", "VersionConflict",
           "make_store"]

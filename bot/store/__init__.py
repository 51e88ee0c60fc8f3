"""Persistence: an async store interface and its SQLite implementation."""

from bot.store.base import Seat, Store, TableRecord, VersionConflict
from bot.store.sqlite import SqliteStore

__all__ = ["Seat", "SqliteStore", "Store", "TableRecord", "VersionConflict"]
